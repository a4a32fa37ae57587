import { organisation } from "#app/content/organisation";
import { changeDeadline, lastFullRefundDay } from "./cancellation-policy";
import {
  formatLondonDateTime,
  formatLondonTime,
  formatLongDate,
  londonCalendarDate,
} from "./date-labels";
import { londonDate } from "./london-time";

/**
 * The patient's own change of time (`/my-bookings/:reference/change`): the form's words and
 * schema, and how the page says until when a change is free. The rules themselves are
 * `changeTerms` (`cancellation-policy.ts`) and `changeOwnBooking` (the booking service).
 */

export const CHANGE_FORM_MESSAGES = {
  chooseEvent: "Choose an event",
  chooseTime: "Choose a new time",
} as const;

/**
 * What a move to another day does to his refund and to changing again, for "Check your change":
 * the refund follows the new appointment's day (a full refund with more than two business days'
 * notice), and so does the last moment to change online. Nothing to say for the same day, or for
 * a refund when nothing was paid.
 */
export function termsAfterMove(input: {
  paid: boolean;
  fromDay: string;
  toDay: string;
  toStart: Date;
  now: Date;
}): string[] {
  const { paid, fromDay, toDay, toStart, now } = input;
  if (fromDay === toDay) return [];
  const said: string[] = [];
  if (paid) {
    const until = lastFullRefundDay(toDay);
    said.push(
      londonDate(now) > until
        ? "After this change, you will not get your money back if you cancel: the new appointment is too soon."
        : `After this change, you can cancel for a full refund until the end of ${formatLongDate(until)}.`,
    );
  }
  if (now.getTime() >= changeDeadline(toStart).getTime())
    said.push("You will not be able to change the time online again.");
  return said;
}

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

export type ChangeRefusal =
  /** no such booking of his (another person's reference reads the same: a 404) */
  | "not-found"
  /** not a confirmed booking waiting for its day (held, cancelled, checked in ...) */
  | "not-changeable"
  /** the policy: the appointment has started, its sample is taken, or it is too late to change */
  | "started"
  | "sample-taken"
  | "too-late"
  /** the chosen event is not published, or private and not unlocked by him */
  | "event-not-found"
  | "locked"
  /** another product, price or payment: only the booking helpline can move him there */
  | "different-terms"
  /** he already has a booking (or a hold under way) at the chosen event */
  | "already-booked"
  /** his age on the chosen event's day, or its laboratory's need for an NHS number */
  | "not-eligible"
  /** the chosen event has closed or is full; the chosen time is taken, passed or not one of its times */
  | "event-unavailable"
  | "slot-unavailable"
  /** the chosen time is the one he has */
  | "same-time";

const helpline = organisation.phones.booking;

export const CHANGE_REFUSAL_MESSAGES: Record<ChangeRefusal, string> = {
  "not-found": "Booking not found",
  "not-changeable": `This booking cannot be changed online. Please call our ${helpline.label.toLowerCase()} on ${helpline.display}.`,
  started: "Your appointment has already started, so it cannot be changed.",
  "sample-taken": "Your sample has been taken, so this booking cannot be changed.",
  "too-late": `It is too late to change this booking online. Please call our ${helpline.label.toLowerCase()} on ${helpline.display}.`,
  "event-not-found": "That event is no longer taking bookings. Please choose another event.",
  locked: "That is a private event. Please enter its access code on the event's page first.",
  "different-terms": `That event has a different price or way of paying. To move to it, please call our ${helpline.label.toLowerCase()} on ${helpline.display}.`,
  "already-booked": "You already have a booking for that event. Please choose another event.",
  "not-eligible": "You cannot book that event. Please choose another event.",
  "event-unavailable": "That event is no longer taking bookings. Please choose another event.",
  "slot-unavailable": "That time is no longer available. Please choose another time.",
  "same-time": "That is the time you already have. Please choose a different time.",
};

/** Refusals about the chosen event (shown beside the event choice) rather than the time. */
export const EVENT_REFUSALS: readonly ChangeRefusal[] = [
  "event-not-found",
  "locked",
  "different-terms",
  "already-booked",
  "not-eligible",
  "event-unavailable",
];

/** Refusals about the booking itself: nothing chosen can help. */
export const BOOKING_REFUSALS: readonly ChangeRefusal[] = [
  "not-changeable",
  "started",
  "sample-taken",
  "too-late",
];
