import { z } from "zod";
import { readDateOfBirth } from "./age";
import { nhsNumberField, withDateParts } from "./fields";

/**
 * Staff correcting a booked man's date of birth or NHS number, as he reads them out at the door or
 * on the phone: the laboratory refuses a sample whose details do not match his records, and he
 * can change neither himself once booked (the NHS number not at all).
 */

export const ATTENDEE_DETAILS_MESSAGES = {
  dateOfBirthMissing: "Enter his date of birth",
  nhsNumberNotRemoved:
    "Enter his NHS number. A recorded NHS number can be corrected here, but not removed.",
  nhsNumberNeeded: "Enter his NHS number: this event's laboratory needs one with every sample.",
} as const;

/** The form: a real date of birth in the past (any age: it is what is true) and an NHS number. */
export function attendeeDetailsSchema(today: string) {
  return z.preprocess(
    (input) => {
      const values = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
      return { ...values, dateOfBirth: withDateParts(values, "dateOfBirth") };
    },
    z.object({
      dateOfBirth: z
        .object({
          day: z.string().default(""),
          month: z.string().default(""),
          year: z.string().default(""),
        })
        .transform((parts, ctx) => {
          const read = readDateOfBirth(parts, today);
          if (read.ok) return read.date;
          const empty = !parts.day.trim() && !parts.month.trim() && !parts.year.trim();
          ctx.addIssue({
            code: "custom",
            message: empty ? ATTENDEE_DETAILS_MESSAGES.dateOfBirthMissing : read.message,
          });
          return z.NEVER;
        }),
      nhsNumber: nhsNumberField,
    }),
  );
}

export type AttendeeDetails = z.output<ReturnType<typeof attendeeDetailsSchema>>;

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
