import { bookingStage, type BookingState } from "./booking-lifecycle";

/**
 * When a booking's reminder is due: the rule the reminder job's query twins
 * (`reminderDueWhere` in `app/services/booking/reminders.server.ts`).
 *
 * - Only a confirmed booking still waiting for its day (not cancelled, not checked in), and only
 *   once: a reminder already sent is never due again.
 * - Its window opens `hoursBefore` hours (the REMINDER_HOURS_BEFORE setting) before the
 *   appointment starts.
 * - The confirmation e-mail already says everything a reminder does, so a booking confirmed late
 *   gets its reminder no sooner than `REMINDER_AFTER_CONFIRMATION_HOURS` after it was confirmed.
 * - A booking moved to a new time (by him or by a coordinator) is told the new time by the move's
 *   own e-mail; it is reminded again only when the new time's window opens at least
 *   `REMINDER_AFTER_CONFIRMATION_HOURS` after the move (`remindedByMove`).
 * - Never in the last `REMINDER_LAST_CALL_HOURS` before the start (he may be on his way), nor
 *   once the appointment has begun. A reminder that could not go in time is not sent late.
 * Hours are real elapsed time, so a clock change never stretches or shortens them.
 */

/** A booking confirmed late is reminded no sooner than this after its confirmation e-mail. */
export const REMINDER_AFTER_CONFIRMATION_HOURS = 12;
/** No reminder goes out later than this before the appointment starts. */
export const REMINDER_LAST_CALL_HOURS = 1;

const HOUR_MS = 3_600_000;

export interface ReminderInput extends BookingState {
  appointmentStart: Date;
  confirmedAt: Date | null;
  reminderSentAt: Date | null;
}

/**
 * From when until when this booking's reminder may be sent: null when it never may (confirmed too
 * close to the appointment for a reminder to add anything).
 */
export function reminderWindow(
  booking: { appointmentStart: Date; confirmedAt: Date | null },
  hoursBefore: number,
): { from: Date; until: Date } | null {
  const start = booking.appointmentStart.getTime();
  const opens = start - hoursBefore * HOUR_MS;
  const afterConfirmation = booking.confirmedAt
    ? booking.confirmedAt.getTime() + REMINDER_AFTER_CONFIRMATION_HOURS * HOUR_MS
    : opens;
  const from = Math.max(opens, afterConfirmation);
  const until = start - REMINDER_LAST_CALL_HOURS * HOUR_MS;
  return from < until ? { from: new Date(from), until: new Date(until) } : null;
}

/** Whether the reminder is due now: from the window's start, up to but not at its end. */
export function isReminderDue(booking: ReminderInput, now: Date, hoursBefore: number): boolean {
  if (booking.reminderSentAt) return false;
  if (bookingStage(booking) !== "confirmed") return false;
  const window = reminderWindow(booking, hoursBefore);
  if (!window) return false;
  return now.getTime() >= window.from.getTime() && now.getTime() < window.until.getTime();
}

/**
 * Whether the e-mail that moves a booking to a new time starting at `appointmentStart` stands as
 * its reminder: the new time's reminder window opens less than
 * `REMINDER_AFTER_CONFIRMATION_HOURS` after the move, so a reminder then would only repeat it.
 */
export function remindedByMove(
  appointmentStart: Date,
  movedAt: Date,
  hoursBefore: number,
): boolean {
  const opens = appointmentStart.getTime() - hoursBefore * HOUR_MS;
  return opens < movedAt.getTime() + REMINDER_AFTER_CONFIRMATION_HOURS * HOUR_MS;
}
