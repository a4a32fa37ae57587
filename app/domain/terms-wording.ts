import { organisation } from "#app/content/organisation";
import { changeDeadlineLabel } from "./booking-change";
import {
  CHANGE_NOTICE_BUSINESS_DAYS,
  CHANGE_NOTICE_HOURS,
  REFUND_NOTICE_BUSINESS_DAYS,
  cancellationTerms,
  changeDeadline,
  changeTerms,
  lastFullRefundDay,
  type PolicyInput,
} from "./cancellation-policy";
import { formatLongDate } from "./date-labels";
import { londonDate } from "./london-time";
import { formatPounds } from "./pricing";

/**
 * The cancellation and change terms in words: one source for every place that states them (the
 * booking page, the consent form, the refund policy, the calendar entry, the e-mails and "My
 * bookings"), true to the rule in `cancellation-policy.ts`. The general sentences describe the
 * rule; `bookingTermsSentences` gives one booking's own dates. Money is spoken of only where there
 * is a price.
 */

const helpline = organisation.phones.booking;
const refundDaysLeft = REFUND_NOTICE_BUSINESS_DAYS + 1;

export const WORKING_DAYS_EXPLAINED =
  "Working days are Monday to Friday, not counting bank holidays.";

export const CANCEL_ANY_TIME = "You can cancel at any time before your appointment.";

/** The refund rule, for a paid appointment. The Monday example is checked against the rule. */
export const REFUND_TERMS = `To get back everything you paid, cancel while at least ${refundDaysLeft} full working days are left before the day of your appointment: for a Monday appointment, by the end of the Tuesday before. If you cancel later, nothing is refunded.`;

/** The change rule. The Monday example is checked against the rule. */
export const CHANGE_TERMS = `You can change the time online while at least ${CHANGE_NOTICE_BUSINESS_DAYS} full working days are left before the day of your appointment, and it is more than ${CHANGE_NOTICE_HOURS} hours away: for a Monday appointment, until the end of the Wednesday before.`;

/** The whole rule, in the order a person needs it; the refund only when there is a price. */
export function generalTermsSentences(paid: boolean): string[] {
  return [CANCEL_ANY_TIME, ...(paid ? [REFUND_TERMS] : []), CHANGE_TERMS, WORKING_DAYS_EXPLAINED];
}

/** The same, as one paragraph (the consent wording, the calendar entry). */
export function generalTerms(paid: boolean): string {
  return generalTermsSentences(paid).join(" ");
}

/** After the change deadline: call us. */
export const CHANGE_BY_PHONE = `After that, please call our ${helpline.label.toLowerCase()} on ${helpline.display}.`;

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
