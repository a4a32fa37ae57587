import type { BookingStatus, PaymentStatus } from "./booking-lifecycle";
import { REFUND_WITHIN_BUSINESS_DAYS, type CancelTerms } from "./cancellation-policy";
import { formatLongDate } from "./date-labels";
import { formatPounds } from "./pricing";

/**
 * "My bookings": which of a person's bookings he sees, in what order, and where the map link
 * points. Pure rules; `app/services/booking/my-bookings.server.ts` reads the rows.
 */

/**
 * Where a booking stands for its person: still ahead, over, called off, or kept while PayPal
 * checks its payment (before its appointment, or still after it: PayPal can take days).
 */
export type MyBookingState =
  "upcoming" | "past" | "cancelled" | "payment-checking" | "payment-checking-ended";

export interface ListedBooking {
  status: BookingStatus;
  paymentStatus: PaymentStatus;
  /** when it was confirmed: a cancelled row that never was confirmed was never a booking */
  confirmedAt: Date | null;
  /** when the appointment ends */
  appointmentEnd: Date;
}

/** Payment statuses that mean PayPal took his money (kept, or since given back). */
export const MONEY_TAKEN_STATUSES = ["paid", "refunded"] as const satisfies PaymentStatus[];
const moneyTaken = (status: PaymentStatus) =>
  (MONEY_TAKEN_STATUSES as readonly PaymentStatus[]).includes(status);

/**
 * Only what was booked or paid for is listed: confirmed bookings; cancelled ones that had been
 * confirmed, or whose money was taken and is being or has been given back (the event cancelled
 * during the payment, or PayPal took another amount than the price), as history; and one whose
 * payment PayPal has taken but is still checking (its place is kept, and he has paid). A hold, a
 * payment not yet made, a lapsed hold or a refused payment is not a booking.
 */
export function isListedBooking(
  row: Pick<ListedBooking, "status" | "confirmedAt" | "paymentStatus">,
): boolean {
  return (
    row.status === "confirmed" ||
    (row.status === "cancelled" && (row.confirmedAt !== null || moneyTaken(row.paymentStatus))) ||
    (row.status === "awaiting_payment" && row.paymentStatus === "pending")
  );
}

export function myBookingState(row: ListedBooking, now: Date): MyBookingState {
  if (row.status === "cancelled") return "cancelled";
  const ahead = row.appointmentEnd.getTime() > now.getTime();
  if (row.status === "awaiting_payment")
    return ahead ? "payment-checking" : "payment-checking-ended";
  return ahead ? "upcoming" : "past";
}

/** Listed under "Coming up": ahead, booked or kept while its payment is checked. */
export function isComingUp(state: MyBookingState): boolean {
  return state === "upcoming" || state === "payment-checking";
}

/**
 * Upcoming bookings first (those whose payment is being checked among them), soonest first; then
 * the rest (past and cancelled), latest first.
 */
export function compareMyBookings(
  a: { state: MyBookingState; appointmentStart: Date },
  b: { state: MyBookingState; appointmentStart: Date },
): number {
  const aUpcoming = isComingUp(a.state);
  const bUpcoming = isComingUp(b.state);
  if (aUpcoming !== bUpcoming) return aUpcoming ? -1 : 1;
  const difference = a.appointmentStart.getTime() - b.appointmentStart.getTime();
  return aUpcoming ? difference : -difference;
}

/**
 * What cancelling means for the person, in plain words: before he confirms ("before") and in the
 * e-mail afterwards ("done"). Money is spoken of only when he paid something.
 */
export function cancelTermsSentences(
  terms: CancelTerms,
  paidPence: number,
  when: "before" | "done",
): string[] {
  if (!terms.allowed) return [];
  const before = when === "before";
  const sentences = [
    before
      ? "If you cancel, your place is given up and someone else can book it."
      : "Your place has been given up, so someone else can book it.",
  ];
  if (paidPence <= 0) {
    sentences.push("This booking was free, so there is nothing to pay back.");
    return sentences;
  }
  if (terms.refundPence > 0 && terms.refundBy) {
    sentences.push(
      `${before ? "You will get back" : "We are giving you back"} ${formatPounds(terms.refundPence)}, the full amount you paid. It will reach the card or PayPal account you paid with by ${formatLongDate(terms.refundBy)}, within ${REFUND_WITHIN_BUSINESS_DAYS} working days.`,
    );
  } else {
    sentences.push(
      `${terms.fullRefundUntil ? `The last day to cancel with a full refund was ${formatLongDate(terms.fullRefundUntil)}. ` : ""}${before ? "If you cancel now, the" : "The"} ${formatPounds(paidPence)} you paid ${before ? "is" : "was"} not refunded.`,
    );
  }
  return sentences;
}

/** Where the money of a cancelled paid booking stands (`my-bookings.server.ts` works it out). */
export type RefundState = "made" | "owed" | "stalled" | "kept";

/**
 * The "Paid" line of a booking's facts: the amount, and once the booking is cancelled what became
 * of it, so that "Paid £25.00" never stands alone above a refund.
 */
export function paidLine(paidPence: number, refund: RefundState | null): string {
  const amount = formatPounds(paidPence);
  switch (refund) {
    case "made":
      return `${amount}, given back to you`;
    case "owed":
    case "stalled":
      return `${amount}, to be given back to you`;
    case "kept":
      return `${amount}, not refunded`;
    default:
      return amount;
  }
}
