import { z } from "zod";
import {
  formatLondonDateTime,
  formatLondonTime,
  formatLongDate,
  londonCalendarDate,
} from "./date-labels";

/**
 * The patient's own change of time (`/my-bookings/:reference/change`): the form's words and
 * schema, and how the page says until when a change is free. The rules themselves are
 * `changeTerms` (`cancellation-policy.ts`) and `changeOwnBooking` (the booking service).
 */

export const CHANGE_FORM_MESSAGES = {
  chooseEvent: "Choose an event",
  chooseTime: "Choose a new time",
} as const;

/** The chosen event and time, as the "Continue" and "Confirm the change" buttons post them. */
export const changeChoiceSchema = z.object({
  event: z
    .string({ error: CHANGE_FORM_MESSAGES.chooseEvent })
    .trim()
    .min(1, CHANGE_FORM_MESSAGES.chooseEvent)
    .max(64, CHANGE_FORM_MESSAGES.chooseEvent),
  slotTime: z
    .string({ error: CHANGE_FORM_MESSAGES.chooseTime })
    .trim()
    .min(1, CHANGE_FORM_MESSAGES.chooseTime)
    .max(5, CHANGE_FORM_MESSAGES.chooseTime),
});

/**
 * When a change stops being free, in words: "the end of Sunday, 07 June 2026" for a deadline at a
 * London midnight (the business-day rule), else "Monday, 08 June 2026 at 10:00" (48 hours).
 */
export function changeDeadlineLabel(until: Date): string {
  if (formatLondonTime(until) === "00:00") {
    const lastMinute = new Date(until.getTime() - 60_000);
    return `the end of ${formatLongDate(londonCalendarDate(lastMinute))}`;
  }
  return formatLondonDateTime(until, " at ");
}
