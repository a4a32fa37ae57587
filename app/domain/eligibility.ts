import { organisation } from "#app/content/organisation";
import { ageOn, MAX_AGE, MIN_AGE } from "./age";
import { hasValidCheckDigit } from "./nhs-number";

/**
 * Who may book an event: men aged 40 to 80 on the day of the event, and for an event whose samples
 * go to the ESNEFT laboratory, only someone whose profile has a valid NHS number (that laboratory
 * rejects a sample without one).
 */

/** The laboratory that needs a valid NHS number with every sample. */
export const NHS_NUMBER_LAB = "ESNEFT";

export type EligibilityProblem = "no-date-of-birth" | "too-young" | "too-old" | "nhs-number-needed";

export const ELIGIBILITY_MESSAGES: Record<EligibilityProblem, string> = {
  "no-date-of-birth": `We need your date of birth to book you in: screening is for men aged ${MIN_AGE} to ${MAX_AGE}. Add it on your profile page.`,
  "too-young": `${organisation.shortName} screening events are for men aged between ${MIN_AGE} and ${MAX_AGE} on the day of the event. If you have questions, e-mail ${organisation.emails.info}.`,
  "too-old": `${organisation.shortName} screening events are for men aged between ${MIN_AGE} and ${MAX_AGE} on the day of the event. If you have questions, e-mail ${organisation.emails.info}.`,
  "nhs-number-needed": `This event's laboratory (${NHS_NUMBER_LAB}) needs your correct 10-digit NHS number, or it will reject your sample. Your profile does not have one yet: call our booking helpline on ${organisation.phones.booking.display} or e-mail ${organisation.emails.bookings} to add it.`,
};

/** Whether an event's laboratory needs the NHS number (the lab name in any case, spaces ignored). */
export function needsNhsNumber(labName: string | null | undefined): boolean {
  return labName?.trim().toUpperCase() === NHS_NUMBER_LAB;
}

export interface Eligibility {
  eligible: boolean;
  problems: EligibilityProblem[];
  /** the person's age on the day of the event, when the date of birth is known */
  ageOnTheDay: number | null;
}

/**
 * @param person the profile's date of birth ("yyyy-MM-dd") and NHS number (digits), either may be missing
 * @param event the event's London date ("yyyy-MM-dd") and laboratory
 */
export function bookingEligibility(
  person: { dateOfBirth: string | null; nhsNumber: string | null },
  event: { eventDate: string; labName: string | null },
): Eligibility {
  const problems: EligibilityProblem[] = [];
  let ageOnTheDay: number | null = null;
  if (!person.dateOfBirth) {
    problems.push("no-date-of-birth");
  } else {
    ageOnTheDay = ageOn(person.dateOfBirth, event.eventDate);
    if (ageOnTheDay < MIN_AGE) problems.push("too-young");
    else if (ageOnTheDay > MAX_AGE) problems.push("too-old");
  }
  if (
    needsNhsNumber(event.labName) &&
    !hasValidCheckDigit(person.nhsNumber?.replace(/\s+/g, "") ?? "")
  )
    problems.push("nhs-number-needed");
  return { eligible: problems.length === 0, problems, ageOnTheDay };
}
