import { changeDeadlineLabel } from "./booking-change";
import {
  cancellationTerms,
  changeDeadline,
  type CancelTerms,
  changeTerms,
  lastFullRefundDay,
  type PolicyInput,
} from "./cancellation-policy";
import { formatLongDate } from "./date-labels";
import { londonDate, londonInstant } from "./london-time";
import { formatPounds } from "./pricing";
import { BOOKING_HELPLINE, CHANGE_BY_PHONE } from "./terms-general";

export {
  CANCEL_ANY_TIME,
  CHANGE_BY_PHONE,
  CHANGE_TERMS,
  REFUND_TERMS,
  WORKING_DAYS_EXPLAINED,
  generalTerms,
  generalTermsSentences,
} from "./terms-general";

/**
 * The cancellation and change terms in words: one source for every place that states them (the
 * booking page, the consent form, the refund policy, the calendar entry, the e-mails and "My
 * bookings"), true to the rule in `cancellation-policy.ts`. The general sentences describe the
 * rule (terms-general.ts, light enough for the browser); `bookingTermsSentences` gives one
 * booking's own dates. Money is spoken of only where there is a price.
 */

/**
 * One booking's deadlines, true whenever they are read (the calendar entry): the last day for a
 * full refund (when he paid) and until when the time can be changed online.
 */
export function bookingDeadlineSentences(appointmentStart: Date, paidPence: number): string[] {
  return [
    ...(paidPence > 0
      ? [
          `For a full refund of the ${formatPounds(paidPence)} you paid, cancel by the end of ${formatLongDate(lastFullRefundDay(londonDate(appointmentStart)))}.`,
        ]
      : []),
    `You can change the time online until ${changeDeadlineLabel(changeDeadline(appointmentStart))}.`,
  ];
}

/** What he agrees to by booking now, in words: shown before the button that books (or pays). */
export interface TermsBeforeBooking {
  sentences: string[];
  /** cancelling would give nothing back already: said as a warning, not as a note */
  noRefund: boolean;
}

/**
 * A booking's own terms before he books it, with its dates: for a paid one whether, and until
 * when, cancelling gives the price back; for any, until when the time can be changed online.
 * Once booked the same rule speaks in the past tense (`bookingTermsSentences`); a man who books
 * late must not learn only then that his money cannot come back, or his time not be moved.
 */
export function termsBeforeBooking(input: {
  appointmentStart: Date;
  pricePence: number;
  now: Date;
}): TermsBeforeBooking {
  const policy: PolicyInput = {
    appointmentStart: input.appointmentStart,
    now: input.now,
    paidPence: input.pricePence,
    sampleTakenOrResult: false,
  };
  const cancel = cancellationTerms(policy);
  const change = changeTerms(policy);
  if (!cancel.allowed) return { sentences: [], noRefund: false };
  const paid = input.pricePence > 0;
  const sentences = [
    ...(paid ? [refundSentence(cancel, input.pricePence, "paying")] : []),
    change.allowed
      ? `You can change the time online until ${changeDeadlineLabel(change.until)}. ${CHANGE_BY_PHONE}`
      : `It is too late to change the time online. If you need another time, please call our ${BOOKING_HELPLINE}.`,
  ];
  return { sentences, noRefund: paid && cancel.refundPence === 0 };
}

/** Whether paying buys a refund if he cancels, and until when (a paid booking not yet made). */
function refundSentence(
  cancel: CancelTerms & { allowed: true },
  pricePence: number,
  step: "paying" | "choosing",
): string {
  const amount = formatPounds(pricePence);
  const lastDay = cancel.fullRefundUntil ? formatLongDate(cancel.fullRefundUntil) : null;
  if (cancel.refundPence > 0)
    return step === "paying"
      ? `If you cancel by the end of ${lastDay}, you get back the ${amount} you pay now. If you cancel later, nothing is refunded.`
      : `If you book and then cancel by the end of ${lastDay}, you get back the ${amount} you pay. If you cancel later, nothing is refunded.`;
  return step === "paying"
    ? `If you pay now and then cancel, the ${amount} is not refunded: the last day to cancel with a full refund was ${lastDay}.`
    : `If you book and pay, then cancel, the ${amount} is not refunded: this event is too soon, and the last day to cancel with a full refund was ${lastDay}.`;
}

/**
 * A paid event's refund while he is still choosing a time, with its date: the refund turns on the
 * appointment's day alone, so every time at the event gives the same answer. Said on the booking
 * step, before he fills in the consent form, so that a man booking a near event learns there, not
 * at checkout, that his money could not come back. Null for a free event, or once its day is over.
 */
export function refundBeforeChoosing(input: {
  eventDate: string;
  pricePence: number;
  now: Date;
}): TermsBeforeBooking | null {
  if (input.pricePence <= 0) return null;
  const cancel = cancellationTerms({
    // The day's last minute: a refusal only once the whole day has begun and gone.
    appointmentStart: londonInstant(input.eventDate, "23:59"),
    now: input.now,
    paidPence: input.pricePence,
    sampleTakenOrResult: false,
  });
  if (!cancel.allowed) return null;
  return {
    sentences: [refundSentence(cancel, input.pricePence, "choosing")],
    noRefund: cancel.refundPence === 0,
  };
}

/**
 * One booking's terms at `now`, with its own dates: until when he can change the time online and,
 * if he paid, until when cancelling gives his money back. When changing is closed it says so and
 * asks him to cancel if he cannot come, so that someone else can have the place (saying plainly
 * when the money is then not refunded). Nothing once the appointment has started or a sample is
 * taken.
 */
export function bookingTermsSentences(input: PolicyInput): string[] {
  const cancel = cancellationTerms(input);
  const change = changeTerms(input);
  if (!cancel.allowed) return [];
  const sentences: string[] = [];
  const paid = input.paidPence > 0;
  const amount = formatPounds(input.paidPence);
  if (paid && cancel.fullRefundUntil) {
    sentences.push(
      cancel.refundPence > 0
        ? `Cancel by the end of ${formatLongDate(cancel.fullRefundUntil)} and you get back the ${amount} you paid. If you cancel later, nothing is refunded.`
        : `The last day to cancel with a full refund was ${formatLongDate(cancel.fullRefundUntil)}.`,
    );
  }
  if (change.allowed) {
    sentences.push(
      `You can change the time online until ${changeDeadlineLabel(change.until)}. ${CHANGE_BY_PHONE}`,
    );
  } else if (change.reason === "too-late") {
    sentences.push(
      `It is too late to change the time online. If you cannot come, please cancel your booking so that someone else can have the place${cancel.chargedInFull ? `; the ${amount} you paid is not refunded` : ""}.`,
    );
  }
  return sentences;
}
