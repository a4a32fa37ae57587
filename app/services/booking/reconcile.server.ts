import { and, asc, eq, inArray, isNotNull, lte, notInArray, or, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { noteDatabaseError } from "#app/db/health.server";
import { booking } from "#app/db/schema";
import { isHoldLive } from "#app/domain/booking-lifecycle";
import { config } from "#app/config.server";
import { eventsChanged } from "../events.server";
import { log } from "../log.server";
import { eraseEndedRetainedResults, shredExpiredConsentAnswers } from "../my-data.server";
import { PayPalError, PayPalNetworkError, type PayPalOrder } from "../payments/paypal.server";
import { paymentProvider } from "../payments/provider.server";
import { checkPendingRefunds, retryDueRefunds } from "../payments/refunds.server";
import { capturePayment, settle, type CaptureResult } from "./capture.server";
import { lockBooking, lockEvent } from "./places.server";
import { offerPlacesFromWaitingLists } from "../waitlist.server";
import { pruneRateLimits } from "../rate-limit.server";
import { emailReminderChannel } from "./reminder-email.server";
import { sendDueReminders } from "./reminders.server";

/**
 * The booking worker: no payment is lost and no hold outlives its end. It runs every minute on
 * every server; each change it makes goes through the same locks as the pages', so running on
 * several servers at once is safe.
 */

/** How long the browser gets to come back from PayPal before the worker looks at an order itself. */
export const RECONCILE_GRACE_MS = 60_000;

export interface ReconcileSummary {
  /** held rows (and unpaid rows without an order) whose hold ran out, marked expired */
  expiredHolds: number;
  /** orders looked up at the provider */
  checked: number;
  confirmed: number;
  pending: number;
  /** unapproved orders whose hold ran out: released */
  expired: number;
  failed: number;
  /** no answer from the provider: tried again next time */
  unanswered: number;
}

/**
 * No payment is lost: finds bookings awaiting payment with an order and settles each with the
 * provider. A completed order confirms its booking, an approved one is captured, and an unapproved
 * one whose hold has run out is released. Also marks plain expired holds `expired` (their places
 * were already free: only unexpired holds count).
 */
export async function reconcilePayments(db: Db, now = new Date()): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = {
    expiredHolds: 0,
    checked: 0,
    confirmed: 0,
    pending: 0,
    expired: 0,
    failed: 0,
    unanswered: 0,
  };
  // Rows a page is changing right now are skipped (that page decides them), so the worker never
  // waits on a booking's lock while holding others, in whatever order it met them.
  const tidied = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: booking.id })
      .from(booking)
      .where(
        and(
          lte(booking.holdExpiresAt, now),
          or(
            eq(booking.status, "held"),
            and(
              eq(booking.status, "awaiting_payment"),
              sql`${booking.paymentOrderId} is null`,
              sql`${booking.paymentStatus} <> 'pending'`,
            ),
          ),
        ),
      )
      .orderBy(booking.id)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(booking)
      .set({ status: "expired", updatedAt: now })
      .where(
        inArray(
          booking.id,
          due.map((row) => row.id),
        ),
      )
      .returning({ id: booking.id });
  });
  summary.expiredHolds = tidied.length;

  const graceEdge = new Date(now.getTime() - RECONCILE_GRACE_MS);
  const waiting = await db
    .select()
    .from(booking)
    .where(
      or(
        and(
          eq(booking.status, "awaiting_payment"),
          isNotNull(booking.paymentOrderId),
          or(
            lte(booking.updatedAt, graceEdge),
            lte(booking.holdExpiresAt, now),
            eq(booking.paymentStatus, "pending"),
          ),
        ),
        // A capture sent and never answered, on a booking that has ended since (its event was
        // cancelled, say): PayPal may have taken the money all the same (D-164). Not one whose
        // payment was recorded before it ended: he paid, then cancelled, and that stands.
        and(
          inArray(booking.status, ["expired", "cancelled"]),
          isNotNull(booking.paymentOrderId),
          isNotNull(booking.captureRequestId),
          notInArray(booking.paymentStatus, ["paid", "refunded"]),
          lte(booking.updatedAt, graceEdge),
        ),
      ),
    )
    .orderBy(asc(booking.updatedAt))
    .limit(200);

  const provider = paymentProvider();
  for (const row of waiting) {
    summary.checked++;
    const orderId = row.paymentOrderId!;
    try {
      let order: PayPalOrder | null;
      try {
        order = await provider.getOrder(orderId);
      } catch (error) {
        // An order PayPal does not know (or a simulated one from before a restart) was never paid.
        if (error instanceof PayPalError && error.status === 404) order = null;
        else throw error;
      }
      let outcome: CaptureResult["outcome"] | "waiting";
      if (order?.status === "COMPLETED") {
        outcome = (
          await settle(db, provider, row, order, { kind: "reconcile", requestId: null }, now)
        ).outcome;
      } else if (row.status !== "awaiting_payment") {
        // Ended, and PayPal took nothing for it: nothing is waiting on that capture any more.
        await clearCaptureMark(db, row.id, orderId);
        outcome = "waiting";
      } else if (order?.status === "APPROVED") {
        outcome = (await capturePayment(db, { orderId }, now)).outcome;
      } else {
        // Not approved, so not captured: a capture sent for it holds nothing up (he may pay again).
        if (row.captureRequestId) await clearCaptureMark(db, row.id, orderId);
        const lapsed = !isHoldLive(row, now) && row.paymentStatus !== "pending";
        outcome = lapsed && (await expireUnpaid(db, row.id, orderId, now)) ? "expired" : "waiting";
      }
      if (outcome === "confirmed") summary.confirmed++;
      else if (outcome === "pending") summary.pending++;
      else if (outcome === "expired") summary.expired++;
      else if (outcome === "failed") summary.failed++;
      else if (outcome === "no-response") summary.unanswered++;
    } catch (error) {
      if (
        error instanceof PayPalNetworkError ||
        (error instanceof PayPalError && error.status >= 500)
      ) {
        summary.unanswered++;
        continue;
      }
      log.error(
        { err: error, code: "payment_reconcile_failed", bookingId: row.id },
        "payment: reconcile failed for one booking",
      );
    }
  }
  if (summary.expiredHolds > 0) eventsChanged();
  return summary;
}

/** Forgets a capture of `orderId` sent and unanswered, once PayPal shows it took nothing. */
async function clearCaptureMark(db: Db, bookingId: string, orderId: string) {
  await db
    .update(booking)
    .set({ captureRequestId: null })
    .where(
      and(
        eq(booking.id, bookingId),
        eq(booking.paymentOrderId, orderId),
        isNotNull(booking.captureRequestId),
      ),
    );
}

/** Releases an unpaid booking whose hold ran out, if nothing changed since it was read. */
async function expireUnpaid(db: Db, bookingId: string, orderId: string, now: Date) {
  const [row] = await db
    .select({ eventId: booking.eventId })
    .from(booking)
    .where(eq(booking.id, bookingId));
  if (!row) return false;
  const expired = await db.transaction(async (tx) => {
    await lockEvent(tx, row.eventId);
    const locked = await lockBooking(tx, bookingId);
    if (
      locked.status !== "awaiting_payment" ||
      locked.paymentOrderId !== orderId ||
      locked.paymentStatus === "pending" ||
      isHoldLive(locked, now)
    )
      return false;
    await tx
      .update(booking)
      .set({ status: "expired", updatedAt: now })
      .where(eq(booking.id, bookingId));
    return true;
  });
  if (expired) eventsChanged();
  return expired;
}

export interface BookingWorker {
  /** Runs one pass now (or waits for the one running). */
  runOnce(): Promise<ReconcileSummary | undefined>;
  stop(): Promise<void>;
}

/**
 * One of the worker's jobs, run on every pass in turn: it returns counts of what it did (all zero
 * when there was nothing to do). Each must be safe with another server running it at the same
 * moment: it claims its rows with locks, so that two servers never do the same thing twice.
 */
export interface WorkerJob {
  /** The log code of a pass that did something, such as "refunds_retried". */
  code: string;
  run(db: Db, now: Date): Promise<Record<string, number>>;
}

/** The jobs after the payment reconciliation, in order. Add a job here to run it on every server. */
export const WORKER_JOBS: WorkerJob[] = [
  {
    code: "refunds_retried",
    async run(db, now) {
      const { refunded, alreadyRefunded, failed } = await retryDueRefunds(db, now);
      return { refunded, alreadyRefunded, failed };
    },
  },
  {
    // Refunds PayPal accepted but had not finished: asked about again, at most hourly each.
    code: "pending_refunds_checked",
    run: (db, now) => checkPendingRefunds(db, now),
  },
  {
    // UK GDPR storage limitation: consent answers after CONSENT_RETENTION_DAYS (answers only).
    code: "consent_answers_shredded",
    run: (db, now) => shredExpiredConsentAnswers(db, now, config().CONSENT_RETENTION_DAYS),
  },
  {
    // Results kept after an account was deleted, once RESULT_RETENTION_YEARS are over.
    code: "retained_results_erased",
    run: (db, now) => eraseEndedRetainedResults(db, now),
  },
  {
    // Lapses waiting-list offers whose time is up and offers places freed without a patient's
    // cancellation or change (a hold running out, staff cancelling, an offer lapsing).
    code: "waitlist_offers",
    async run(db, now) {
      return offerPlacesFromWaitingLists(db, now);
    },
  },
  {
    // The limits' counters whose window is over (otherwise one row per address for ever).
    code: "rate_limits_pruned",
    run: (db, now) => pruneRateLimits(db, now),
  },
  {
    code: "reminders_sent",
    async run(db, now) {
      const { sent } = await sendDueReminders(db, emailReminderChannel, now);
      return { sent };
    },
  },
];

/**
 * Every `intervalMs`, one pass at a time: `reconcilePayments`, then each of `WORKER_JOBS`. A job
 * that fails is logged and the next one still runs.
 */
export function startBookingWorker(options: {
  db: Db;
  intervalMs: number;
  jobs?: WorkerJob[];
}): BookingWorker {
  const jobs = options.jobs ?? WORKER_JOBS;
  let running: Promise<ReconcileSummary | undefined> | undefined;
  const runJob = async (job: WorkerJob) => {
    try {
      const counts = await job.run(options.db, new Date());
      if (Object.values(counts).some((count) => count > 0))
        log.info({ code: job.code, ...counts }, `worker: ${job.code}`);
    } catch (error) {
      noteDatabaseError(error);
      log.error({ err: error, code: "worker_job_failed", job: job.code }, "worker: job failed");
    }
  };
  const runOnce = () => {
    running ??= reconcilePayments(options.db)
      .then(async (summary) => {
        if (summary.confirmed + summary.expired + summary.failed + summary.pending > 0)
          log.info({ code: "payment_reconciled", ...summary }, "payments reconciled");
        return summary;
      })
      .catch((error: unknown) => {
        noteDatabaseError(error);
        log.error({ err: error, code: "booking_worker_failed" }, "booking worker: pass failed");
        return undefined;
      })
      .then(async (summary) => {
        for (const job of jobs) await runJob(job);
        return summary;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
