import { and, eq, inArray, or, isNotNull, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, event, screeningProduct, testResult } from "#app/db/schema";
import { bookingStage, canTake } from "#app/domain/booking-lifecycle";
import { mapLink } from "#app/domain/map-view";
import { appointmentInstants } from "#app/domain/calendar";
import { addBusinessDays } from "#app/domain/business-days";
import { londonDate } from "#app/domain/london-time";
import {
  REFUND_WITHIN_BUSINESS_DAYS,
  cancellationTerms,
  changeTerms,
  lastFullRefundDay,
  type CancelTerms,
  type PolicyInput,
} from "#app/domain/cancellation-policy";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import {
  compareMyBookings,
  isListedBooking,
  MONEY_TAKEN_STATUSES,
  myBookingState,
  type MyBookingState,
  type RefundState,
} from "#app/domain/my-bookings";
import { refundRetriesStopped, type RefundTries } from "#app/domain/refund-retries";
import { paymentKept } from "#app/domain/data-rights";
import { bookingTermsSentences } from "#app/domain/terms-wording";
import { checkBookingLink } from "../booking-links.server";
import {
  failedRefundAttempts,
  refundMadeByHandColumn,
  refundRefusedForGoodColumn,
} from "../payments/refunds.server";
import { calendarEntryFor } from "./calendar.server";
import type { Booking } from "./places.server";
import {
  selectBookingViews,
  toBookingView,
  viewColumns,
  type BookingView,
  type ViewRow,
} from "./view.server";

/**
 * "My bookings": the signed-in person's own bookings, read by his user id only (another
 * account's reference is simply not found, so pages answer 404).
 */

export interface MyBooking extends BookingView {
  /** the booking's id: for signed links only, never shown */
  id: string;
  userId: string;
  state: MyBookingState;
  appointmentStart: Date;
  mapUrl: string;
  /** what cancelling now would mean (refused once it has started or a sample is taken) */
  cancel: CancelTerms;
  /** whether the patient may cancel it himself now (lifecycle, policy and no result) */
  canCancel: boolean;
  /** whether the time may still be changed online ("Change time") */
  canChange: boolean;
  cancelledAt: Date | null;
  cancelledBy: Booking["cancelledBy"];
  /** what he paid, in pence (0: free, or not paid) */
  paidPence: number;
  /** for a cancelled paid booking: the money given back, on its way, or kept */
  refund: RefundNote | null;
  /** this booking's own dates for changing and cancelling, in words, at `now` */
  terms: string[];
}

export interface RefundNote {
  /**
   * made: PayPal has it; owed: still to be made (the worker keeps trying); stalled: owed, and the
   * worker has stopped trying (staff see it on the dashboard); kept: too late for one
   */
  state: RefundState;
  pence: number;
  /** the London day by which a refund reaches him; none once that day has passed */
  by: string | null;
  /** the last London day on which cancelling gave a full refund */
  lastFullRefundDay: string;
}

/**
 * Where the money of a cancelled booking stands. The day a refund should arrive by is counted
 * from the cancellation; a refund made or reopened long after (PayPal failed it) is not given a
 * day that has passed.
 */
function refundNote(
  row: Booking,
  eventDate: string,
  refundTries: RefundTries,
  madeByHand: boolean,
  now: Date,
): RefundNote | null {
  if (row.status !== "cancelled" || row.pricePence <= 0) return null;
  const due = row.cancelledAt
    ? addBusinessDays(londonDate(row.cancelledAt), REFUND_WITHIN_BUSINESS_DAYS)
    : null;
  const by = due && due >= londonDate(now) ? due : null;
  const note = { pence: row.pricePence, lastFullRefundDay: lastFullRefundDay(eventDate) };
  // Given back outside PayPal (a bank transfer, say): PayPal's timing says nothing of it.
  if (row.paymentStatus === "refunded")
    return { state: "made", by: madeByHand ? null : by, ...note };
  if (row.paymentStatus !== "paid") return null;
  // Cancelled at his wish too late for a refund: kept; any other cancellation is refunded.
  if (paymentKept(row)) return { state: "kept", by: null, ...note };
  return { state: refundRetriesStopped(refundTries) ? "stalled" : "owed", by, ...note };
}

/** What a page shows of a booking: everything but its internal ids. */
export function shownBooking({ id: _id, userId: _userId, ...shown }: MyBooking) {
  return shown;
}

/** "A result exists" for a booking, as one column of the select. */
const hasResult = sql<boolean>`exists (select 1 from ${testResult} where ${testResult.bookingId} = ${booking.id})`;

/** What was taken for the booking, in pence: what a refund would give back. */
export function paidPence(row: Pick<Booking, "paymentStatus" | "pricePence">): number {
  return row.paymentStatus === "paid" ? row.pricePence : 0;
}

/** The cancellation policy's input for a booking. */
export function policyInput(
  row: Booking,
  appointmentStart: Date,
  resultExists: boolean,
  now: Date,
): PolicyInput {
  const stage = bookingStage(row);
  return {
    appointmentStart,
    now,
    paidPence: paidPence(row),
    sampleTakenOrResult: stage === "sample_taken" || resultExists,
  };
}

function toMyBooking(
  row: ViewRow & {
    hasResult: boolean;
    failedRefunds: number;
    refundRefusedForGood: boolean;
    refundMadeByHand: boolean;
  },
  now: Date,
): MyBooking {
  const view = toBookingView(row, now);
  const { start, end } = appointmentInstants(
    row.event.eventDate,
    row.booking.slotTime,
    row.event.sessionDuration,
  );
  const input = policyInput(row.booking, start, row.hasResult, now);
  const cancel = cancellationTerms(input);
  const stage = bookingStage(row.booking);
  return {
    ...view,
    id: row.booking.id,
    userId: row.booking.userId,
    state: myBookingState(
      {
        status: row.booking.status,
        confirmedAt: row.booking.confirmedAt,
        paymentStatus: row.booking.paymentStatus,
        appointmentEnd: end,
      },
      now,
    ),
    appointmentStart: start,
    mapUrl: mapLink({
      latitude: row.event.latitude,
      longitude: row.event.longitude,
      address: view.address,
    }),
    cancel,
    canCancel: canTake(stage, "patient-cancel") && !row.hasResult && cancel.allowed,
    canChange: canTake(stage, "patient-change") && !row.hasResult && changeTerms(input).allowed,
    cancelledAt: row.booking.cancelledAt,
    cancelledBy: row.booking.cancelledBy,
    paidPence:
      row.booking.paymentStatus === "refunded" ? row.booking.pricePence : paidPence(row.booking),
    refund: refundNote(
      row.booking,
      row.event.eventDate,
      { failedAttempts: row.failedRefunds, refusedForGood: row.refundRefusedForGood },
      row.refundMadeByHand,
      now,
    ),
    terms: bookingTermsSentences(input),
  };
}

/** `isListedBooking` as a condition: what the query fetches, the rule then checks. */
const listedWhere = or(
  eq(booking.status, "confirmed"),
  and(
    eq(booking.status, "cancelled"),
    or(isNotNull(booking.confirmedAt), inArray(booking.paymentStatus, [...MONEY_TAKEN_STATUSES])),
  ),
  and(eq(booking.status, "awaiting_payment"), eq(booking.paymentStatus, "pending")),
);

/** `selectBookingViews` with whether a result exists. */
function selectMine(db: Db) {
  return db
    .select({
      ...viewColumns,
      hasResult,
      failedRefunds: failedRefundAttempts,
      refundRefusedForGood: refundRefusedForGoodColumn,
      refundMadeByHand: refundMadeByHandColumn,
    })
    .from(booking)
    .innerJoin(event, eq(booking.eventId, event.id))
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id));
}

/** The person's bookings: upcoming soonest first, then past and cancelled ones, latest first. */
export async function listMyBookings(db: Db, userId: string, now = new Date()) {
  const rows = await selectMine(db).where(and(eq(booking.userId, userId), listedWhere));
  return rows
    .filter((row) => isListedBooking(row.booking))
    .map((row) => toMyBooking(row, now))
    .sort(compareMyBookings);
}

/** One of the person's listed bookings by its reference, or null (also when it is another's). */
export async function findMyBooking(
  db: Db,
  input: { userId: string; reference: string },
  now = new Date(),
): Promise<MyBooking | null> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return null;
  const [row] = await selectMine(db).where(
    and(eq(booking.reference, reference), eq(booking.userId, input.userId), listedWhere),
  );
  return row ? toMyBooking(row, now) : null;
}

export type OpenedBooking =
  | { kind: "not-found" }
  /**
   * opened from a changed e-mail link (or one made for another booking or person), or from one
   * past its expiry: refused, and the page says so (with, for his own booking, the way to it)
   */
  | { kind: "link-refused"; reason: "invalid" | "expired"; reference: string }
  | { kind: "found"; booking: MyBooking; fromLink: boolean };

/**
 * One of the signed-in person's bookings, as its pages open it: not found (another's, or none),
 * or, when the address carries a signed link (`booking-links.server.ts`), refused unless the link
 * is ours, for this booking and its owner and still in date. An expired link is refused too (an
 * old e-mail's link is no way in), but as the booking is his, the page offers him the booking
 * itself: his session, not the link, is what shows it.
 */
export async function openMyBooking(
  db: Db,
  input: { userId: string; reference: string; query: URLSearchParams },
  now = new Date(),
): Promise<OpenedBooking> {
  const found = await findMyBooking(db, input, now);
  if (!found) return { kind: "not-found" };
  const link = checkBookingLink(input.query, found, now);
  if (link.kind === "invalid" || link.kind === "expired")
    return { kind: "link-refused", reason: link.kind, reference: found.reference };
  // The address carries a signature: its page keeps it out of Referer.
  return { kind: "found", booking: found, fromLink: link.kind !== "none" };
}

/** The calendar entry of one of the person's confirmed bookings (null: not his, or not booked). */
export async function myBookingCalendar(
  db: Db,
  input: { userId: string; reference: string },
  now = new Date(),
): Promise<{ reference: string; ics: string } | null> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return null;
  const [row] = await selectBookingViews(db).where(
    and(
      eq(booking.reference, reference),
      eq(booking.userId, input.userId),
      eq(booking.status, "confirmed"),
    ),
  );
  if (!row) return null;
  const view = toBookingView(row, now);
  return {
    reference: view.reference,
    ics: calendarEntryFor(row.booking, row.event, view.address, { stamp: now }),
  };
}
