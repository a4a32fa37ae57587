import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import { booking } from "#app/db/schema";
import { bookingStage, canTake, isHoldLive } from "#app/domain/booking-lifecycle";
import { captureErrorMeaning } from "#app/domain/capture-errors";
import { formatLongDate } from "#app/domain/date-labels";
import { eventEnd } from "#app/domain/events";
import { enqueueEmail } from "../email.server";
import { eventsChanged } from "../events.server";
import { log, logError } from "../log.server";
import {
  PayPalError,
  PayPalNetworkError,
  type PayPalCapture,
  type PayPalOrder,
} from "../payments/paypal.server";
import { paymentProvider, type PaymentProvider } from "../payments/provider.server";
import { refundCancelledEventWithin, refundOwedBooking } from "../payments/refunds.server";

/** How long his return from PayPal waits for the refund of an event cancelled meanwhile. */
const REFUND_WAIT_AT_CAPTURE_MS = 5_000;
import { errorRecord, recordTransaction } from "../payments/transactions.server";
import { PAYMENT_MESSAGES } from "./checkout.server";
import { confirmLocked } from "./confirm.server";
import {
  canBringBack,
  expireBooking,
  lockBooking,
  lockEvent,
  lockPerson,
  type Booking,
  type EventRow,
} from "./places.server";
import { bookingForOrder, bookingRecipient } from "./view.server";

/**
 * Capture: the last step of a paid booking. The money for an approved order is taken and the
 * booking confirmed, exactly once however many times (or however concurrently) it is asked.
 */

export type CaptureResult =
  /** paid and booked ("paid by card"): on to the success page */
  | { outcome: "confirmed"; reference: string }
  /** PayPal is holding the capture for review: the place is kept until it decides */
  | { outcome: "pending"; reference: string; message: string }
  /** INSTRUMENT_DECLINED or PAYER_ACTION_REQUIRED (or not approved yet): the hold is kept; start again */
  | { outcome: "recoverable"; reference: string; message: string }
  /** "Non-recoverable error: {description} ({debug id})": no booking, the place is released */
  | {
      outcome: "failed";
      reference: string;
      message: string;
      debugId: string | null;
      /** money was taken, and is being given back (the event was cancelled, or the amount was wrong) */
      refunding?: true;
    }
  /** the hold ran out and the place has gone; no money was taken */
  | { outcome: "expired"; reference: string }
  /** no answer from PayPal: the booking waits, and the reconciler settles it */
  | { outcome: "no-response"; reference: string; message: string }
  /**
   * another order's capture for this booking is still unanswered: this one is not captured, so
   * that the person cannot pay twice; the reconciler settles the other
   */
  | { outcome: "in-progress"; reference: string; message: string }
  | { outcome: "not-found" };

/**
 * Takes the money for an approved order and confirms the booking, exactly once however many times
 * (or however concurrently) it is called: the booking's row lock, the stored PayPal-Request-Id
 * (replayed by PayPal) and a unique capture id see to that. `userId` is checked when given (the
 * return page); the worker calls it without.
 */
export async function capturePayment(
  db: Db,
  input: { userId?: string; orderId: string },
  now = new Date(),
): Promise<CaptureResult> {
  const found = await bookingForOrder(db, input.orderId);
  if (!found || (input.userId !== undefined && found.userId !== input.userId))
    return { outcome: "not-found" };
  const reference = found.reference;
  if (found.status === "confirmed") return { outcome: "confirmed", reference };
  if (found.status === "held") return { outcome: "not-found" };
  if (found.status !== "awaiting_payment") return { outcome: "expired", reference };
  const provider = paymentProvider();

  // A capture already pending at PayPal: look it up instead of capturing again.
  if (found.paymentStatus === "pending") {
    return lookUpAndSettle(db, provider, found, input.orderId, now);
  }

  // The hold ran out while the payer was at PayPal. Only an order PayPal says is approved may
  // bring it back (the payer has agreed to pay); asking to capture an unapproved order must not
  // keep a place, or calling this again and again would hold one for ever.
  let approvedAfterLapse = false;
  if (!isHoldLive(found, now)) {
    let current: PayPalOrder | null;
    try {
      current = await provider.getOrder(input.orderId);
    } catch (error) {
      // PayPal does not know the order: it was never approved. Any other failure to read it
      // (down, busy, our credentials refused) says nothing about whether it was paid.
      if (error instanceof PayPalError && error.status === 404) current = null;
      else if (error instanceof PayPalNetworkError || error instanceof PayPalError)
        return { outcome: "no-response", reference, message: PAYMENT_MESSAGES.noResponse };
      else throw error;
    }
    if (current?.status === "COMPLETED")
      return settle(db, provider, found, current, { kind: "reconcile", requestId: null }, now);
    approvedAfterLapse = current?.status === "APPROVED";
  }

  let changed = false;
  const prepared = await db.transaction(async (tx) => {
    await lockPerson(tx, found.userId);
    const ev = (await lockEvent(tx, found.eventId))!;
    const row = await lockBooking(tx, found.id);
    if (row.status === "confirmed") return { done: { outcome: "confirmed", reference } as const };
    if (row.status !== "awaiting_payment" || !canTake(bookingStage(row), "capture"))
      return { done: { outcome: "expired", reference } as const };
    const sameOrder = row.paymentOrderId === input.orderId;
    // One capture at a time: another order's capture still unanswered may have taken the money,
    // so this one is not captured, and the booking is not let go (the worker settles the other).
    if (row.captureRequestId && !sameOrder)
      return {
        done: { outcome: "in-progress", reference, message: PAYMENT_MESSAGES.inProgress } as const,
      };
    let holdExpiresAt = row.holdExpiresAt;
    if (!isHoldLive(row, now) && row.paymentStatus !== "pending") {
      // Approved: take the money if the place is still free and the event still open to this
      // person. (The hold's life cap does not apply: it stops places being kept without paying,
      // and this is the paying.) Not approved: the hold has ended, and so has this booking.
      // A capture sent and not answered may have taken his money: only the worker, once PayPal
      // says what it did, may let this booking go (D-204).
      if (row.captureRequestId && !approvedAfterLapse)
        return {
          done: {
            outcome: "no-response",
            reference,
            message: PAYMENT_MESSAGES.noResponse,
          } as const,
        };
      if (!approvedAfterLapse || !(await canBringBack(tx, ev, row, now))) {
        await expireBooking(tx, row.id, now);
        changed = true;
        return { done: { outcome: "expired", reference } as const };
      }
      holdExpiresAt = new Date(now.getTime() + config().HOLD_MINUTES * 60_000);
      changed = true;
    }
    // The same id for every attempt at this order until PayPal answers: a retry after no
    // response, or a concurrent call, is then replayed by PayPal rather than captured twice.
    const requestId =
      (sameOrder ? row.captureRequestId : null) ?? `capture-${row.id}-${crypto.randomUUID()}`;
    await tx
      .update(booking)
      .set({
        paymentOrderId: input.orderId,
        captureRequestId: requestId,
        holdExpiresAt,
        updatedAt: now,
      })
      .where(eq(booking.id, row.id));
    return { requestId };
  });
  if (changed) eventsChanged();
  if (prepared.done) return prepared.done;
  const requestId = prepared.requestId!;

  let order: PayPalOrder;
  try {
    order = await provider.captureOrder(input.orderId, { requestId });
  } catch (error) {
    if (error instanceof PayPalNetworkError) {
      log.warn({ code: "payment_no_response", bookingId: found.id }, "payment: no response");
      return { outcome: "no-response", reference, message: PAYMENT_MESSAGES.noResponse };
    }
    if (!(error instanceof PayPalError)) throw error;
    await recordTransaction(db, {
      bookingId: found.id,
      kind: "capture",
      provider: provider.name,
      orderId: input.orderId,
      requestId,
      createdAt: now,
      ...errorRecord(error),
    });
    const meaning = captureErrorMeaning(error);
    if (meaning === "already-captured") {
      // Captured before (an earlier attempt whose answer we lost): use that capture.
      return lookUpAndSettle(db, provider, found, input.orderId, now);
    }
    if (meaning === "unknown") {
      // PayPal failed on its side, is still working on this request, refused our credentials,
      // or answered in a way we could not read: whether it captured is unknown, so the place is
      // kept and the same request id goes next time (the worker's, or his own retry).
      log.warn(
        {
          code: "payment_capture_unknown",
          status: error.status,
          issue: error.issue,
          debugId: error.debugId,
        },
        "payment: capture outcome unknown",
      );
      return { outcome: "no-response", reference, message: PAYMENT_MESSAGES.noResponse };
    }
    if (meaning === "refused") {
      // Final for this payment, unless an earlier attempt whose answer was lost captured it.
      const captured = await capturedAfterAll(db, provider, found, input.orderId, now);
      if (captured) return captured;
    }
    // PayPal answered: a new attempt needs a new request id. After a decline he can put right,
    // only he may try this order again (from PayPal, with another card): the worker, which
    // captures approved orders left behind, would decline him again every minute and keep his
    // hold alive, so the order is no longer the booking's for it (his own retry still finds it).
    await db
      .update(booking)
      .set({
        captureRequestId: null,
        ...(meaning === "payer-can-retry" ? { paymentOrderId: null } : {}),
        updatedAt: now,
      })
      .where(and(eq(booking.id, found.id), eq(booking.paymentOrderId, input.orderId)));
    if (meaning === "payer-can-retry") {
      log.warn(
        { code: "payment_recoverable", issue: error.issue, debugId: error.debugId },
        "Recoverable Payment",
      );
      return { outcome: "recoverable", reference, message: PAYMENT_MESSAGES.declined };
    }
    log.error(
      { code: "payment_failed", issue: error.issue, debugId: error.debugId },
      "Non-recoverable Payment",
    );
    const released = await releaseAfterRefusal(db, found, input.orderId, now);
    if (released === "confirmed") return { outcome: "confirmed", reference };
    return { outcome: "failed", reference, message: error.message, debugId: error.debugId ?? null };
  }
  return settle(db, provider, found, order, { kind: "capture", requestId }, now);
}

/**
 * Before a refused capture lets the place go: the order as PayPal has it, settled when it holds a
 * capture after all (an earlier attempt's, whose answer was lost). Null when it holds none; an
 * unknown outcome when PayPal cannot be asked.
 */
async function capturedAfterAll(
  db: Db,
  provider: PaymentProvider,
  found: Booking,
  orderId: string,
  now: Date,
): Promise<CaptureResult | null> {
  let order: PayPalOrder;
  try {
    order = await provider.getOrder(orderId);
  } catch (error) {
    // An order PayPal no longer has holds no capture.
    if (error instanceof PayPalError && error.status === 404) return null;
    return {
      outcome: "no-response",
      reference: found.reference,
      message: PAYMENT_MESSAGES.noResponse,
    };
  }
  if (!order.capture) return null;
  return settle(db, provider, found, order, { kind: "reconcile", requestId: null }, now);
}

/** Ends a booking whose payment PayPal refused for good, unless it was confirmed meanwhile. */
async function releaseAfterRefusal(
  db: Db,
  found: Booking,
  orderId: string,
  now: Date,
): Promise<"released" | "confirmed" | "unchanged"> {
  const outcome = await db.transaction(async (tx) => {
    await lockEvent(tx, found.eventId);
    const row = await lockBooking(tx, found.id);
    if (row.status === "confirmed") return "confirmed" as const;
    if (row.status !== "awaiting_payment" || row.paymentOrderId !== orderId)
      return "unchanged" as const;
    await tx
      .update(booking)
      .set({ status: "cancelled", cancelledAt: now, captureRequestId: null, updatedAt: now })
      .where(eq(booking.id, row.id));
    return "released" as const;
  });
  if (outcome === "released") eventsChanged();
  return outcome;
}

/** Reads the order from PayPal (after ORDER_ALREADY_CAPTURED, or for a pending capture) and acts on it. */
async function lookUpAndSettle(
  db: Db,
  provider: PaymentProvider,
  found: Booking,
  orderId: string,
  now: Date,
): Promise<CaptureResult> {
  let order: PayPalOrder;
  try {
    order = await provider.getOrder(orderId);
  } catch (error) {
    if (
      error instanceof PayPalNetworkError ||
      (error instanceof PayPalError && error.status >= 500)
    )
      return {
        outcome: "no-response",
        reference: found.reference,
        message: PAYMENT_MESSAGES.noResponse,
      };
    throw error;
  }
  return settle(db, provider, found, order, { kind: "reconcile", requestId: null }, now);
}

/** Money taken for a booking that cannot stand: cancelled, and the payment owed back in full. */
async function cancelForRefund(tx: Db, row: Booking, now: Date) {
  await tx
    .update(booking)
    .set({
      status: "cancelled",
      cancelledAt: now,
      cancelledBy: "payment",
      paymentStatus: "paid",
      refundOwed: true,
      captureRequestId: null,
      updatedAt: now,
    })
    .where(eq(booking.id, row.id));
}

/**
 * An e-mail about his payment: the greeting, what happened (one paragraph each), who to call
 * quoting the booking, and the charity's name. No health data.
 */
function paymentEmail(
  person: { email: string; firstName: string },
  reference: string,
  subject: string,
  paragraphs: string[],
) {
  const helpline = organisation.phones.booking;
  return {
    to: person.email,
    subject,
    text: [
      `Hello ${person.firstName},`,
      ...paragraphs,
      `If you have any questions, call our ${helpline.label.toLowerCase()} on ${helpline.display}, quoting booking ${reference}.`,
      organisation.name,
    ].join("\n\n"),
  };
}

/** After "PayPal is checking your payment": it was not accepted, and the place has gone. */
function paymentNotAcceptedEmail(
  person: { email: string; firstName: string },
  reference: string,
  ev: EventRow,
) {
  return paymentEmail(person, reference, `Your payment for booking ${reference} was not accepted`, [
    `PayPal has finished checking the payment you made for ${ev.name} on ${formatLongDate(ev.eventDate)}, and did not accept it. No money has been taken, and the place we were keeping for you has been let go.`,
    `If you would still like to come, you can book again on our website, paying with another card or PayPal account: ${config().publicBaseUrl}/event/${ev.id}`,
  ]);
}

function paidAfterTheEventEmail(
  person: { email: string; firstName: string },
  reference: string,
  eventDate: string,
) {
  return paymentEmail(
    person,
    reference,
    `Your payment for booking ${reference} is being refunded`,
    [
      `PayPal was still checking your payment for the screening on ${formatLongDate(eventDate)}. It came through only after the event had ended, so no appointment was booked with it.`,
      "We are refunding it in full, to the card or PayPal account you paid with. You do not need to do anything. You are welcome to book another event on our website.",
    ],
  );
}

/**
 * Acts on an order PayPal has answered with: a COMPLETED capture confirms the booking ("paid by
 * card"); PENDING keeps the place; DECLINED or FAILED releases it. The capture is recorded once
 * (unique capture id), and the booking changes under its locks, so repeats do nothing.
 */
export async function settle(
  db: Db,
  provider: PaymentProvider,
  found: Booking,
  order: PayPalOrder,
  how: { kind: "capture" | "reconcile"; requestId: string | null },
  now: Date,
): Promise<CaptureResult> {
  const reference = found.reference;
  const capture: PayPalCapture | undefined = order.capture;
  if (!capture) {
    // Not captured (yet): nothing to settle.
    return { outcome: "no-response", reference, message: PAYMENT_MESSAGES.noResponse };
  }
  let changed = false;
  /** money taken that goes back once the transaction is done: the cancelled event's, or this booking's */
  let refund: "event" | "booking" | null = null;
  const result = await db.transaction(async (tx): Promise<CaptureResult> => {
    const ev = (await lockEvent(tx, found.eventId))!;
    const row = await lockBooking(tx, found.id);
    const record = {
      bookingId: row.id,
      provider: provider.name,
      orderId: order.id,
      captureId: capture.id,
      status: capture.status,
      issue: capture.statusReason ?? null,
      requestId: how.requestId,
      amountPence: capture.amountPence,
      raw: order,
      createdAt: now,
    };
    // The capture itself, once; a look-up that acted is recorded as a reconcile row as well.
    await recordTransaction(tx, { ...record, kind: "capture" });
    if (how.kind === "reconcile" && row.status !== "confirmed")
      await recordTransaction(tx, { ...record, kind: "reconcile" });

    if (capture.status === "COMPLETED") {
      if (row.status === "confirmed") return { outcome: "confirmed", reference };
      // Paid and recorded, then cancelled (by him, staff or a refused payment): this capture is
      // the one already counted, and books nothing again.
      if (row.paymentStatus === "paid" || row.paymentStatus === "refunded")
        return { outcome: "expired", reference };
      if (ev.status === "cancelled") {
        // Staff cancelled the event while this payment was on its way: the booking stays
        // cancelled, and the payment is marked taken so that it is refunded like the others.
        await tx
          .update(booking)
          .set({
            status: "cancelled",
            cancelledAt: row.cancelledAt ?? now,
            paymentStatus: "paid",
            captureRequestId: null,
            updatedAt: now,
          })
          .where(eq(booking.id, row.id));
        refund = "event";
        return {
          outcome: "failed",
          reference,
          message: PAYMENT_MESSAGES.eventCancelled,
          debugId: null,
          refunding: true,
        };
      }
      if (now.getTime() >= eventEnd(ev).getTime()) {
        // PayPal finished reviewing the payment only after the event: no appointment is left to
        // keep (he could not be checked in while it was under review), so the money goes back.
        log.warn(
          { code: "payment_after_event", bookingId: row.id },
          "payment: completed after the event ended; refunding it",
        );
        await cancelForRefund(tx, row, now);
        const person = await bookingRecipient(tx, row.userId);
        await enqueueEmail(tx, paidAfterTheEventEmail(person, reference, ev.eventDate));
        changed = true;
        refund = "booking";
        return {
          outcome: "failed",
          reference,
          message: PAYMENT_MESSAGES.afterEvent,
          debugId: null,
          refunding: true,
        };
      }
      if (capture.amountPence !== row.pricePence || capture.currency !== "GBP") {
        // Orders are priced here, so only an order changed at PayPal's end gets this far: the
        // money goes back, and nothing is booked for it.
        log.error(
          { code: "payment_amount_mismatch", bookingId: row.id },
          "payment: captured amount differs from the booking's price; refunding it",
        );
        await cancelForRefund(tx, row, now);
        changed = true;
        refund = "booking";
        return {
          outcome: "failed",
          reference,
          message: PAYMENT_MESSAGES.amountMismatch,
          debugId: null,
          refunding: true,
        };
      }
      if (row.status !== "awaiting_payment") {
        // Money was taken for a booking that had lost its hold: keep the payment, confirm the
        // place (one over capacity at worst), and let staff see it in the log.
        log.warn(
          { code: "payment_after_expiry", bookingId: row.id },
          "payment: captured after the hold ended; confirmed anyway",
        );
      }
      await confirmLocked(tx, ev, row, "paid", now);
      changed = true;
      return { outcome: "confirmed", reference };
    }
    if (capture.status === "PENDING") {
      if (row.status === "awaiting_payment" && row.paymentStatus !== "pending") {
        // Keep the place while PayPal reviews the payment, up to the end of the event.
        await tx
          .update(booking)
          .set({
            paymentStatus: "pending",
            holdExpiresAt: eventEnd({
              eventDate: ev.eventDate,
              startTime: ev.startTime,
              endTime: ev.endTime,
            }),
            updatedAt: now,
          })
          .where(eq(booking.id, row.id));
        changed = true;
      }
      return {
        outcome: "pending",
        reference,
        message: PAYMENT_MESSAGES.pending(capture.status, capture.id),
      };
    }
    if (capture.status === "DECLINED" || capture.status === "FAILED") {
      // A payment he was told PayPal was checking: it took nothing after all, so nothing is owed
      // back, nothing holds up deleting his account, and he is told the place has gone.
      const wasBeingChecked = row.paymentStatus === "pending";
      if (row.status === "awaiting_payment" || wasBeingChecked) {
        await tx
          .update(booking)
          .set({
            ...(row.status === "awaiting_payment"
              ? { status: "cancelled" as const, cancelledAt: now }
              : {}),
            ...(wasBeingChecked ? { paymentStatus: "unpaid" as const } : {}),
            captureRequestId: null,
            updatedAt: now,
          })
          .where(eq(booking.id, row.id));
        changed = true;
      }
      if (wasBeingChecked && row.status === "awaiting_payment") {
        const person = await bookingRecipient(tx, row.userId);
        await enqueueEmail(tx, paymentNotAcceptedEmail(person, reference, ev));
      }
      return {
        outcome: "failed",
        reference,
        message: `Non-recoverable error: the payment was ${capture.status.toLowerCase()} (${capture.id})`,
        debugId: null,
      };
    }
    // PARTIALLY_REFUNDED or REFUNDED: it was completed once; staff have handled it.
    return row.status === "confirmed"
      ? { outcome: "confirmed", reference }
      : { outcome: "expired", reference };
  });
  if (changed) eventsChanged();
  if (refund === "event") {
    // The payment is recorded; a refund that fails now is listed on the event's page to retry,
    // and one PayPal is slow to make goes on after he has his answer.
    await refundCancelledEventWithin(db, found.eventId, now, REFUND_WAIT_AT_CAPTURE_MS).catch(
      (error: unknown) =>
        logError(error, { code: "refund_after_cancel_failed", bookingId: found.id }),
    );
  }
  if (refund === "booking") {
    // Owed like a patient's cancellation: if this try fails, the worker tries again.
    await refundOwedBooking(db, found.id, now).catch((error: unknown) =>
      logError(error, { code: "refund_after_mismatch_failed", bookingId: found.id }),
    );
  }
  return result;
}
