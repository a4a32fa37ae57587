import {
  addBusinessDays,
  businessDaysBetween,
  lastDayWithBusinessDaysBefore,
} from "./business-days";
import { addLondonDays, londonDate, londonInstant } from "./london-time";

/**
 * The charity's cancellation and refund policy for a patient acting on his own booking (the spec's
 * "Cancellation" and "Refund policy"):
 * - cancel any time before the appointment;
 * - a full refund of what was paid with more than 2 business days' notice, none within 2 business
 *   days (so a same-day cancellation is charged in full); refunds reach the original payment
 *   method within 14 business days;
 * - change the time free more than 48 hours ahead and at least 2 business days before;
 * - never once a sample is taken or a result exists.
 * "Business days' notice" counts the whole business days strictly between the day the person acts
 * and the appointment's day, both in London. Hours are real elapsed time, so a clock change never
 * stretches or shortens the 48 hours.
 */

export {
  CHANGE_NOTICE_BUSINESS_DAYS,
  CHANGE_NOTICE_HOURS,
  REFUND_NOTICE_BUSINESS_DAYS,
  REFUND_WITHIN_BUSINESS_DAYS,
} from "./policy-notice";
import {
  CHANGE_NOTICE_BUSINESS_DAYS,
  CHANGE_NOTICE_HOURS,
  REFUND_NOTICE_BUSINESS_DAYS,
  REFUND_WITHIN_BUSINESS_DAYS,
} from "./policy-notice";

export interface PolicyInput {
  /** When the appointment starts. */
  appointmentStart: Date;
  now: Date;
  /** What was taken for this booking, in pence (0 when free or not paid). */
  paidPence: number;
  /** A sample was taken, or a result exists: the booking is the clinic's record now. */
  sampleTakenOrResult: boolean;
}

export type Refusal = "started" | "sample-taken";

export type CancelTerms =
  | { allowed: false; reason: Refusal }
  | {
      allowed: true;
      /** What goes back to the payer, in pence (0 when nothing was paid or it is too late). */
      refundPence: number;
      /** The London day by which the refund reaches him, when there is one. */
      refundBy: string | null;
      /** A paid booking cancelled too late for a refund: what he paid is kept. */
      chargedInFull: boolean;
      /** The last London day on which cancelling still gives a full refund (paid bookings). */
      fullRefundUntil: string | null;
    };

export type ChangeTerms =
  | { allowed: true; until: Date }
  | { allowed: false; reason: Refusal | "too-late"; until: Date | null };

function refusal(input: PolicyInput): Refusal | null {
  if (input.sampleTakenOrResult) return "sample-taken";
  if (input.now.getTime() >= input.appointmentStart.getTime()) return "started";
  return null;
}

const endOfLondonDay = (day: string) => londonInstant(addLondonDays(day, 1), "00:00");

/** The last London day on which cancelling still gives a full refund, for an appointment on `appointmentDay`. */
export function lastFullRefundDay(appointmentDay: string): string {
  return lastDayWithBusinessDaysBefore(appointmentDay, REFUND_NOTICE_BUSINESS_DAYS + 1);
}

export function cancellationTerms(input: PolicyInput): CancelTerms {
  const refused = refusal(input);
  if (refused) return { allowed: false, reason: refused };
  const today = londonDate(input.now);
  const appointmentDay = londonDate(input.appointmentStart);
  const paid = input.paidPence > 0;
  const refunded = paid && businessDaysBetween(today, appointmentDay) > REFUND_NOTICE_BUSINESS_DAYS;
  return {
    allowed: true,
    refundPence: refunded ? input.paidPence : 0,
    refundBy: refunded ? addBusinessDays(today, REFUND_WITHIN_BUSINESS_DAYS) : null,
    chargedInFull: paid && !refunded,
    fullRefundUntil: paid ? lastFullRefundDay(appointmentDay) : null,
  };
}

/**
 * The terms when the charity chooses to give back everything he paid, whatever the notice (a
 * coordinator cancelling for him, D-189). A refusal stays a refusal: no choice of refund lets a
 * booking with a sample, or one already begun, be cancelled.
 */
export function withFullRefund(terms: CancelTerms, paidPence: number, now: Date): CancelTerms {
  if (!terms.allowed || paidPence <= 0 || terms.refundPence === paidPence) return terms;
  return {
    ...terms,
    refundPence: paidPence,
    refundBy: addBusinessDays(londonDate(now), REFUND_WITHIN_BUSINESS_DAYS),
    chargedInFull: false,
  };
}

/** The last instant at which the booking can still be moved to another time. */
export function changeDeadline(appointmentStart: Date): Date {
  const byHours = appointmentStart.getTime() - CHANGE_NOTICE_HOURS * 3_600_000;
  const lastDay = lastDayWithBusinessDaysBefore(
    londonDate(appointmentStart),
    CHANGE_NOTICE_BUSINESS_DAYS,
  );
  // "More than 48 hours ahead": the deadline instant itself is already too late.
  return new Date(Math.min(byHours, endOfLondonDay(lastDay).getTime()));
}

export function changeTerms(input: PolicyInput): ChangeTerms {
  const refused = refusal(input);
  const until = changeDeadline(input.appointmentStart);
  if (refused) return { allowed: false, reason: refused, until: null };
  if (input.now.getTime() >= until.getTime()) return { allowed: false, reason: "too-late", until };
  return { allowed: true, until };
}
