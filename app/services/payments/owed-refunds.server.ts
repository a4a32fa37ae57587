import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, event, paymentTransaction } from "#app/db/schema";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { refundRetriesStopped } from "#app/domain/refund-retries";
import { recordAudit } from "../audit.server";
import {
  amountPaidColumn,
  failedRefundAttempts,
  recordRefundByHand,
  refundBooking,
  refundRefusedForGoodColumn,
  refundStillOwed,
  type RefundOutcome,
} from "./refunds.server";

/**
 * Refunds still owed to patients (`refundStillOwed`): who cancelled in time, whom a coordinator
 * cancelled for with a refund (D-189), and whose event was cancelled. The worker retries each
 * until it is made, then stops after a number of failed tries. Staff see them all on the
 * dashboard (a patient's own cancellation appears on no event's page, and a cancelled event
 * leaves the dashboard), and can try one again, for instance after refunding it in PayPal by hand
 * (PayPal then answers that it is refunded).
 */

export interface OwedRefund {
  reference: string;
  eventName: string;
  eventDate: string;
  amountPence: number;
  cancelledAt: Date | null;
  failedAttempts: number;
  /** PayPal's issue or our reason, from the last failed try */
  lastReason: string | null;
  /** the worker has stopped trying: someone must act */
  retriesStopped: boolean;
  /**
   * PayPal is still reviewing the payment (a PENDING capture): nothing can be refunded until it
   * accepts it, and then the booking worker refunds it by itself
   */
  underReview: boolean;
}

export async function owedPatientRefunds(db: Db): Promise<OwedRefund[]> {
  return selectOwedRefunds(db, refundStillOwed);
}

/** One refund still owed, by its booking's reference; none for a reference that is not one. */
export async function owedPatientRefund(db: Db, reference: string): Promise<OwedRefund | null> {
  const normalised = normaliseBookingReference(reference);
  if (!normalised) return null;
  const [row] = await selectOwedRefunds(
    db,
    and(eq(booking.reference, normalised), refundStillOwed),
  );
  return row ?? null;
}

async function selectOwedRefunds(db: Db, where: SQL | undefined): Promise<OwedRefund[]> {
  const rows = await db
    .select({
      reference: booking.reference,
      eventName: event.name,
      eventDate: event.eventDate,
      amountPence: amountPaidColumn,
      cancelledAt: booking.cancelledAt,
      paymentStatus: booking.paymentStatus,
      failedAttempts: failedRefundAttempts,
      refusedForGood: refundRefusedForGoodColumn,
      lastReason: sql<
        string | null
      >`(select coalesce(${paymentTransaction.issue}, ${paymentTransaction.status}) from ${paymentTransaction} where ${paymentTransaction.bookingId} = ${booking.id} and ${paymentTransaction.kind} = 'refund' order by ${paymentTransaction.createdAt} desc limit 1)`,
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .where(where)
    .orderBy(asc(booking.cancelledAt), desc(booking.reference));
  return rows.map(({ paymentStatus, refusedForGood, ...row }) => {
    const underReview = paymentStatus === "pending";
    return {
      ...row,
      underReview,
      retriesStopped:
        !underReview &&
        refundRetriesStopped({ failedAttempts: row.failedAttempts, refusedForGood }),
    };
  });
}

export type OwedRefundRetry = RefundOutcome | { outcome: "not-found" };

/** A staff member tries one owed refund again now, whatever the worker's wait; audited. */
export async function retryOwedRefund(
  db: Db,
  actor: StaffActor,
  reference: string,
  now = new Date(),
): Promise<OwedRefundRetry> {
  assertCan(actor, "event:cancel");
  const normalised = normaliseBookingReference(reference);
  if (!normalised) return { outcome: "not-found" };
  const [found] = await db
    .select({ booking })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .where(and(eq(booking.reference, normalised), refundStillOwed));
  if (!found) return { outcome: "not-found" };
  const row = found.booking;
  const outcome = await refundBooking(db, row, now);
  await recordAudit(db, actor, {
    action: "refund.retry",
    subjectUserId: row.userId,
    entityType: "booking",
    entityId: row.id,
    details: { outcome: outcome.outcome },
  });
  return outcome;
}

export type RefundByHandRecord =
  | { outcome: "recorded" }
  /** a refund was made meanwhile (through PayPal, or recorded by someone else) */
  | { outcome: "already" }
  /** a refund is being made at this moment */
  | { outcome: "busy" }
  /** PayPal may have made the latest try (its answer was lost): Try again asks it first */
  | { outcome: "answer-lost" }
  /** the site is still trying through PayPal (or PayPal is reviewing the payment): wait */
  | { outcome: "still-trying" }
  | { outcome: "not-found" };

/**
 * A staff member records that a refund PayPal would not make was given back another way (a bank
 * transfer, say): the booking is marked refunded and leaves the list; audited. Only once the site
 * has stopped trying through PayPal, so that he is never given his money back twice.
 */
export async function recordOwedRefundByHand(
  db: Db,
  actor: StaffActor,
  reference: string,
  now = new Date(),
): Promise<RefundByHandRecord> {
  assertCan(actor, "event:cancel");
  const owed = await owedPatientRefund(db, reference);
  if (!owed) return { outcome: "not-found" };
  if (!owed.retriesStopped) return { outcome: "still-trying" };
  const [row] = await db.select().from(booking).where(eq(booking.reference, owed.reference));
  if (!row) return { outcome: "not-found" };
  const outcome = await recordRefundByHand(db, row, owed.amountPence, now, (tx) =>
    recordAudit(tx, actor, {
      action: "refund.by-hand",
      subjectUserId: row.userId,
      entityType: "booking",
      entityId: row.id,
      details: { amountPence: owed.amountPence },
    }),
  );
  return { outcome };
}
