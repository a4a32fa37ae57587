import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import { booking, paymentTransaction } from "#app/db/schema";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { bookingStage, canTake, isHoldLive, renewedHoldEnd } from "#app/domain/booking-lifecycle";
import { eventsChanged } from "../events.server";
import { log } from "../log.server";
import {
  approvalUrl,
  PayPalError,
  PayPalNetworkError,
  type PayPalOrder,
} from "../payments/paypal.server";
import { paymentProvider, type PaymentProvider } from "../payments/provider.server";
import { errorRecord, recordTransaction } from "../payments/transactions.server";
import { canBringBack, lockBooking, lockEvent, lockPerson } from "./places.server";
import { selectBookingViews } from "./view.server";

/** Checkout: the third step of a paid booking, a payment order made with PayPal (or the simulated provider). */

/** The spec's payment messages. */
export const PAYMENT_MESSAGES = {
  couldNotStart: (reason: string) => `Could not initiate PayPal Checkout...${reason}`,
  noResponse: "No response from PayPal",
  inProgress:
    "We are still waiting to hear from PayPal about a payment you made for this booking, so we have not taken another. We will e-mail you as soon as it is confirmed. If it does not go through, you can pay again here.",
  amountMismatch:
    "Your payment was not the price of this booking, so we have not booked it. The money you paid is being refunded in full, to the card or PayPal account you paid with.",
  eventCancelled:
    "This event has been cancelled, so your booking could not be made. Your payment is being refunded in full.",
  afterEvent:
    "Your payment came through only after the event had ended, so no appointment was booked with it. It is being refunded in full, to the card or PayPal account you paid with.",
  declined:
    "Your payment was not completed. Please try again, or choose another card or payment method.",
  failed:
    "Sorry, your transaction could not be processed. Please try again later or with a different payment card.",
  pending: (status: string, id: string) =>
    `Transaction ${status}: ${id}. Please wait while we process your payment.`,
} as const;

/** DD/MM/YYYY, as the spec's order description has it. */
function ukDate(date: string): string {
  const [year, month, day] = date.split("-");
  return `${day}/${month}/${year}`;
}

export type StartPaymentResult =
  /** send the browser to `approvalUrl` (PayPal, or the simulated page), or give `orderId` to the PayPal buttons */
  | {
      outcome: "redirect";
      orderId: string;
      approvalUrl: string;
      provider: PaymentProvider["name"];
    }
  /** already confirmed: nothing to pay */
  | { outcome: "confirmed"; reference: string }
  /** a capture is pending at PayPal: wait */
  | { outcome: "pending"; reference: string }
  /** consent first */
  | { outcome: "consent-required"; reference: string }
  /** the hold ran out and the place has gone */
  | { outcome: "expired"; reference: string }
  /** a capture of an earlier order is still unanswered: no second order until it is settled */
  | { outcome: "in-progress"; reference: string }
  /** "Could not initiate PayPal Checkout...{reason}" */
  | { outcome: "error"; message: string }
  | { outcome: "not-found" };

/**
 * Creates a payment order for a booking awaiting payment, priced from the booking (never from
 * the browser), described as the spec says ("{product}, DD/MM/YYYY, event {id}").
 */
export async function startPayment(
  db: Db,
  input: { userId: string; reference: string; returnUrl: string; cancelUrl: string },
  now = new Date(),
): Promise<StartPaymentResult> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return { outcome: "not-found" };
  const [found] = await selectBookingViews(db).where(
    and(eq(booking.reference, reference), eq(booking.userId, input.userId)),
  );
  if (!found) return { outcome: "not-found" };
  const row = found.booking;
  if (row.status === "confirmed") return { outcome: "confirmed", reference };
  if (row.status === "held") return { outcome: "consent-required", reference };
  if (row.paymentStatus === "pending") return { outcome: "pending", reference };
  // A capture still unanswered may have taken the money: no second order until it is settled.
  if (row.captureRequestId) return { outcome: "in-progress", reference };
  if (!canTake(bookingStage(row), "start-payment")) return { outcome: "expired", reference };

  if (!isHoldLive(row, now)) {
    // Renewed if its place is still free, within the hold's whole life; otherwise it ends here.
    const renewed = await db.transaction(async (tx) => {
      await lockPerson(tx, row.userId);
      const ev = (await lockEvent(tx, row.eventId))!;
      const locked = await lockBooking(tx, row.id);
      if (locked.status !== "awaiting_payment") return false;
      if (isHoldLive(locked, now)) return true;
      const end = renewedHoldEnd(locked.createdAt, now, config().HOLD_MINUTES);
      if (!end || !(await canBringBack(tx, ev, locked, now))) return false;
      await tx
        .update(booking)
        .set({ holdExpiresAt: end, updatedAt: now })
        .where(eq(booking.id, locked.id));
      return true;
    });
    eventsChanged();
    if (!renewed) return { outcome: "expired", reference };
  }

  const provider = paymentProvider();
  const requestId = `create-${row.id}-${crypto.randomUUID()}`;
  const order = {
    referenceId: row.reference,
    // PayPal shows this on his statement and history: a booking and a day, never what the test is
    // for (health data).
    description: `Booking ${row.reference}, ${ukDate(found.event.eventDate)}`,
    amountPence: row.pricePence,
    currency: "GBP" as const,
    returnUrl: input.returnUrl,
    cancelUrl: input.cancelUrl,
    requestId,
    brandName: organisation.name,
  };
  let created: PayPalOrder;
  try {
    try {
      created = await provider.createOrder(order);
    } catch (error) {
      // No answer: the order may exist. The same request id gets it back instead of a second one.
      if (!(error instanceof PayPalNetworkError)) throw error;
      created = await provider.createOrder(order);
    }
  } catch (error) {
    if (error instanceof PayPalError) {
      await recordTransaction(db, {
        bookingId: row.id,
        kind: "create",
        provider: provider.name,
        requestId,
        amountPence: row.pricePence,
        createdAt: now,
        ...errorRecord(error),
      });
      log.warn(
        { code: "payment_create_failed", issue: error.issue, debugId: error.debugId },
        "payment: could not create an order",
      );
      return { outcome: "error", message: PAYMENT_MESSAGES.couldNotStart(error.message) };
    }
    if (error instanceof PayPalNetworkError)
      return { outcome: "error", message: PAYMENT_MESSAGES.couldNotStart(error.message) };
    throw error;
  }
  const link = approvalUrl(created);
  await db.transaction(async (tx) => {
    await recordTransaction(tx, {
      bookingId: row.id,
      kind: "create",
      provider: provider.name,
      orderId: created.id,
      status: created.status,
      requestId,
      amountPence: created.amountPence ?? row.pricePence,
      raw: created,
      createdAt: now,
    });
    await tx
      .update(booking)
      .set({ paymentOrderId: created.id, paymentProvider: provider.name, updatedAt: now })
      .where(
        and(
          eq(booking.id, row.id),
          eq(booking.status, "awaiting_payment"),
          // A capture begun meanwhile keeps its order current (and this one is not captured).
          isNull(booking.captureRequestId),
        ),
      );
  });
  if (!link) {
    return {
      outcome: "error",
      message: PAYMENT_MESSAGES.couldNotStart("Unexpected error occurred, please try again."),
    };
  }
  return { outcome: "redirect", orderId: created.id, approvalUrl: link, provider: provider.name };
}

/** Whether this person's booking made this payment order (its creation is recorded for it). */
export async function isOwnPaymentOrder(db: Db, userId: string, orderId: string): Promise<boolean> {
  if (!orderId) return false;
  const [found] = await db
    .select({ id: paymentTransaction.id })
    .from(paymentTransaction)
    .innerJoin(booking, eq(booking.id, paymentTransaction.bookingId))
    .where(
      and(
        eq(paymentTransaction.orderId, orderId),
        eq(paymentTransaction.kind, "create"),
        eq(booking.userId, userId),
      ),
    )
    .limit(1);
  return found !== undefined;
}
