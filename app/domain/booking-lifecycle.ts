/**
 * A booking's life, as one table of stages and the steps between them. Every service that changes
 * a booking asks `canTake(stage, step)` before it writes, so a step that the table does not allow
 * (cancelling a booking whose sample is taken, checking in a hold) is refused wherever it comes
 * from: a page, the API, the worker or a later feature.
 *
 * The database keeps a booking's `status` (held, awaiting_payment, confirmed, expired, cancelled)
 * beside its payment status, its payment order and its check-in times; `bookingStage` reads the
 * stage from them.
 */

import { checkInState, type CheckInFields, type CheckInState } from "./check-in";

/** The `booking.status` column's values. */
export const BOOKING_STATUSES = [
  "held",
  "awaiting_payment",
  "confirmed",
  "expired",
  "cancelled",
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** The `booking.payment_status` column's values. */
export const PAYMENT_STATUSES = ["not_required", "unpaid", "pending", "paid", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Statuses that keep a place while the hold lasts (until `hold_expires_at`). */
export const HOLD_STATUSES = ["held", "awaiting_payment"] as const satisfies BookingStatus[];

/** Statuses that can take a place: a confirmed booking always, a hold while it lasts. */
export const PLACE_STATUSES = [...HOLD_STATUSES, "confirmed"] as const satisfies BookingStatus[];

export type BookingStage =
  /** a time chosen; consent not given yet */
  | "held"
  /** consented to a paid event; nothing sent to PayPal yet */
  | "consented"
  /** an order is with PayPal (approved, captured and pending review, or not yet) */
  | "awaiting_payment"
  /** booked, paid or free */
  | "confirmed"
  /** arrived on the day */
  | "checked_in"
  /** did not come */
  | "no_show"
  /** the nurse took the sample: from here on the booking carries health data */
  | "sample_taken"
  /** the hold ran out, or the payment was never made */
  | "expired"
  /** cancelled by a refused payment or by staff; money taken is still to be given back */
  | "cancelled"
  /** cancelled and the money given back */
  | "refunded";

export interface BookingState extends CheckInFields {
  status: BookingStatus;
  paymentStatus: PaymentStatus;
  paymentOrderId: string | null;
}

/** A confirmed booking's stage is its check-in on the day (`app/domain/check-in.ts`). */
const STAGE_OF_CHECK_IN: Record<CheckInState, BookingStage> = {
  waiting: "confirmed",
  arrived: "checked_in",
  no_show: "no_show",
  sample_taken: "sample_taken",
};

export function bookingStage(row: BookingState): BookingStage {
  switch (row.status) {
    case "held":
      return "held";
    case "awaiting_payment":
      return row.paymentOrderId === null && row.paymentStatus !== "pending"
        ? "consented"
        : "awaiting_payment";
    case "confirmed":
      return STAGE_OF_CHECK_IN[checkInState(row)];
    case "expired":
      return "expired";
    case "cancelled":
      return row.paymentStatus === "refunded" ? "refunded" : "cancelled";
  }
}

/** The steps that change a booking, each with the stages it may start from. */
export const BOOKING_STEPS = {
  /** choose another time of the same event while holding */
  move: ["held"],
  /** give consent: a free booking is confirmed, a paid one goes on to payment */
  consent: ["held", "consented"],
  /** "I need more time": a hold not yet being paid for (see `extendedHoldEnd`) */
  extend: ["held", "consented"],
  /** create a payment order with PayPal (again, after a declined card) */
  "start-payment": ["consented", "awaiting_payment"],
  /** take the money for an approved order */
  capture: ["consented", "awaiting_payment"],
  /** the hold ran out, or the order was never approved */
  expire: ["held", "consented", "awaiting_payment"],
  /** PayPal refused the payment for good, or the person gave up at checkout */
  "release-unpaid": ["held", "consented", "awaiting_payment"],
  /**
   * staff cancel it (with its event): never once a sample is taken, so that a result is never
   * lost with a cancelled booking
   */
  cancel: ["held", "consented", "awaiting_payment", "confirmed", "checked_in", "no_show"],
  /**
   * the patient cancels his own booking (`cancelOwnBooking`): only a booked place he has not yet
   * come to; never once checked in, marked as not come, or a sample taken (a booking with a
   * result is refused by the service as well)
   */
  "patient-cancel": ["confirmed"],
  /**
   * the patient moves his own booked place to another time (of this event or another like it):
   * only before the day's check-in has begun; the notice it needs is `changeTerms`
   * (`cancellation-policy.ts`)
   */
  "patient-change": ["confirmed"],
  /**
   * a coordinator moves his booked place to another time when he asks (D-190): only
   * a place he has not yet come to, so never once checked in, marked as not come, or sampled
   */
  "staff-move": ["confirmed"],
  /** give back the money of a cancelled booking */
  refund: ["cancelled"],
  /**
   * anything on the day (arrived, no-show, sample, and undoing a mistaken tap): only a booked
   * place; which marks may follow which is `applyCheckIn` in `check-in.ts`
   */
  "check-in": ["confirmed", "checked_in", "no_show", "sample_taken"],
} as const satisfies Record<string, readonly BookingStage[]>;

export type BookingStep = keyof typeof BOOKING_STEPS;

export function canTake(stage: BookingStage, step: BookingStep): boolean {
  return (BOOKING_STEPS[step] as readonly BookingStage[]).includes(stage);
}

/**
 * The one test of "this hold still keeps its place": held or awaiting payment, and its end is
 * still ahead. The SQL twin is `liveHoldWhere` in `app/services/booking/places.server.ts`.
 */
export function isHoldLive(
  row: { status: BookingStatus; holdExpiresAt: Date | null },
  now: Date,
): boolean {
  return (
    (HOLD_STATUSES as readonly BookingStatus[]).includes(row.status) &&
    row.holdExpiresAt !== null &&
    row.holdExpiresAt.getTime() > now.getTime()
  );
}

/**
 * A booking takes a place when confirmed, while its hold is live, or while a capture sent for it
 * is unanswered (PayPal may have taken his money: the place is his until the worker knows).
 */
export function takesPlace(
  row: { status: BookingStatus; holdExpiresAt: Date | null; captureRequestId?: string | null },
  now: Date,
): boolean {
  return (
    row.status === "confirmed" ||
    isHoldLive(row, now) ||
    (row.status === "awaiting_payment" && Boolean(row.captureRequestId))
  );
}

/**
 * A hold lasts HOLD_MINUTES from each step the person takes (choosing a time, consenting,
 * starting to pay), but never longer than HOLD_LIFE_MULTIPLE times that from when the time was
 * first chosen: posting again, or going back and forth, cannot keep a place for ever. After that
 * the person chooses a time again, which is a new hold (and new holds are limited per address).
 */
export const HOLD_LIFE_MULTIPLE = 2;

/** When a hold started at `heldSince` and renewed at `now` ends; null once its whole life is over. */
export function renewedHoldEnd(heldSince: Date, now: Date, holdMinutes: number): Date | null {
  const holdMs = holdMinutes * 60_000;
  const lastEnd = heldSince.getTime() + HOLD_LIFE_MULTIPLE * holdMs;
  if (now.getTime() >= lastEnd) return null;
  return new Date(Math.min(now.getTime() + holdMs, lastEnd));
}

/** How long before a hold ends the page warns (WCAG 2.2.1: time to ask for more). */
export const HOLD_WARNING_MINUTES = 3;

/** An extension shorter than this is no extension: the page says it cannot give more time. */
export const SMALLEST_EXTENSION_MS = 60_000;

/** Whether the page should be warning now that the hold ends at `end`. */
export function holdWarningDue(end: Date, now: Date): boolean {
  return end.getTime() - now.getTime() <= HOLD_WARNING_MINUTES * 60_000;
}

export type HoldExtension =
  | { ok: true; holdExpiresAt: Date }
  /** the hold's whole life (`renewedHoldEnd`) leaves no more time to give */
  | { ok: false; reason: "capped" }
  /** it already has (about) HOLD_MINUTES ahead of it */
  | { ok: false; reason: "not-needed" };

/**
 * "I need more time": HOLD_MINUTES from now, within the hold's whole life, and only when that
 * moves its end by at least a minute (pressing again cannot creep it on by seconds).
 */
export function extendedHoldEnd(
  hold: { createdAt: Date; holdExpiresAt: Date },
  now: Date,
  holdMinutes: number,
): HoldExtension {
  const lastEnd = hold.createdAt.getTime() + HOLD_LIFE_MULTIPLE * holdMinutes * 60_000;
  const end = renewedHoldEnd(hold.createdAt, now, holdMinutes);
  if (end && end.getTime() - hold.holdExpiresAt.getTime() >= SMALLEST_EXTENSION_MS)
    return { ok: true, holdExpiresAt: end };
  return lastEnd - hold.holdExpiresAt.getTime() < SMALLEST_EXTENSION_MS
    ? { ok: false, reason: "capped" }
    : { ok: false, reason: "not-needed" };
}

/**
 * Whether "I need more time" can be given now (`moreTimeFor`): it can; the hold's whole life is
 * reached; a payment has started; or the hold has ended.
 */
export type MoreTimeState = "offered" | "capped" | "paying" | "ended";

/** What asking for more time came to: given, not needed yet, or why not. */
export type MoreTimeAnswer = "extended" | "not-needed" | Exclude<MoreTimeState, "offered">;

/** Whether "I need more time" can still give any: false once the whole life is reached. */
export function canExtendHold(
  hold: { createdAt: Date; holdExpiresAt: Date },
  holdMinutes: number,
): boolean {
  const lastEnd = hold.createdAt.getTime() + HOLD_LIFE_MULTIPLE * holdMinutes * 60_000;
  return lastEnd - hold.holdExpiresAt.getTime() >= SMALLEST_EXTENSION_MS;
}
