import { z } from "zod";
import { ageOn, MAX_AGE, MIN_AGE } from "./age";
import { dateOfBirthField, nhsNumberFieldWith, withDateParts } from "./fields";

/**
 * Staff correcting a booked man's date of birth or NHS number, as he reads them out at the door or
 * on the phone: the laboratory refuses a sample whose details do not match his records, and he
 * can change neither himself once booked (the NHS number not at all).
 */

export const ATTENDEE_DETAILS_MESSAGES = {
  dateOfBirthMissing: "Enter his date of birth",
  dateOfBirthTooRecent: "Check the year: that date of birth makes him younger than 18.",
  nhsNumberCheckDigit:
    "Enter a valid NHS number. Check the 10 digits on his NHS letter, prescription or the NHS App.",
  nhsNumberNotRemoved:
    "Enter his NHS number. A recorded NHS number can be corrected here, but not removed.",
  nhsNumberNeeded: "Enter his NHS number: this event's laboratory needs one with every sample.",
  nhsNumberSomeoneElses:
    "That NHS number is recorded for another man booked at this event. Check the 10 digits on his own NHS letter, prescription or the NHS App.",
} as const;

/** What ticking "The date of birth is right" says, on the form and in the error summary. */
export const AGE_CONFIRMATION_LABEL = "The date of birth is right";

/**
 * A date of birth that puts him outside the ages this screening is for, on the event's day: most
 * often a slip of the year, so it is saved only once staff have checked it with him and said so.
 * Null when his age is within them, or when they have said so.
 */
export function ageOutsideScreeningProblem(
  dateOfBirth: string,
  eventDate: string,
  confirmed: boolean,
): string | null {
  const age = ageOn(dateOfBirth, eventDate);
  if (confirmed || (age >= MIN_AGE && age <= MAX_AGE)) return null;
  return `That date of birth makes him ${age} on the day of this event, and screening is for men aged ${MIN_AGE} to ${MAX_AGE}. Check the year with him. If it is right, tick "${AGE_CONFIRMATION_LABEL}" and save.`;
}

/** Younger than this, a date of birth typed at a screening for men of 40 to 80 is a slip. */
const YOUNGEST_PLAUSIBLE_AGE = 18;

/**
 * The form: a real date of birth in the past (any adult age: it records what is true, not who may
 * book) and an NHS number, with messages about him rather than "you".
 */
export function attendeeDetailsSchema(today: string) {
  return z.preprocess(
    (input) => {
      const values = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
      return { ...values, dateOfBirth: withDateParts(values, "dateOfBirth") };
    },
    z
      .object({
        dateOfBirth: dateOfBirthField(today, {
          checkAge: false,
          missing: ATTENDEE_DETAILS_MESSAGES.dateOfBirthMissing,
        }).refine((date) => ageOn(date, today) >= YOUNGEST_PLAUSIBLE_AGE, {
          error: ATTENDEE_DETAILS_MESSAGES.dateOfBirthTooRecent,
        }),
        nhsNumber: nhsNumberFieldWith({
          checkDigit: ATTENDEE_DETAILS_MESSAGES.nhsNumberCheckDigit,
        }),
        /**
         * ticked: staff checked with him this date of birth, outside the screening's ages (the box
         * carries the date it was shown for, so that it does not pass another date typed later)
         */
        ageConfirmedFor: z.string().optional(),
      })
      .transform(({ ageConfirmedFor, ...details }) => ({
        ...details,
        ageConfirmed: ageConfirmedFor === details.dateOfBirth,
      })),
  );
}

/** The form's values; `ageConfirmed` left out means not ticked. */
export type AttendeeDetails = Omit<
  z.output<ReturnType<typeof attendeeDetailsSchema>>,
  "ageConfirmed"
> & { ageConfirmed?: boolean };

/**
 * Whether an NHS number may be left empty: never once one is recorded (a correction, not an
 * erasure), nor when the event's laboratory needs one. Null when it may.
 */
export function missingNhsNumberProblem({
  recorded,
  labNeedsOne,
}: {
  recorded: string | null;
  labNeedsOne: boolean;
}): string | null {
  if (recorded) return ATTENDEE_DETAILS_MESSAGES.nhsNumberNotRemoved;
  if (labNeedsOne) return ATTENDEE_DETAILS_MESSAGES.nhsNumberNeeded;
  return null;
}
