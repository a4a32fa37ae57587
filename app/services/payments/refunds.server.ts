import { and, asc, desc, eq, inArray, isNotNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { booking, event, paymentTransaction, testResult } from "#app/db/schema";
import {
  REFUND_ISSUES_REFUSED_FOR_GOOD,
  refundAnswerLost,
  refundRefusedForGood,
  refundRetryDue,
  refundRetriesStopped,
} from "#app/domain/refund-retries";
import { isEventId } from "../events.server";
import { log, logError } from "../log.server";
import { PayPalError, PayPalNetworkError, type PayPalRefund } from "./paypal.server";
import { paymentProvider, type PaymentProvider } from "./provider.server";
import { createSimulatedProvider } from "./simulated.server";
import { errorRecord } from "./transactions.server";

/**
 * Giving money back, in one place for everyone who refunds: the back office cancelling an event,
 * a patient cancelling his own booking in time (`refundOwed`), and the booking worker retrying
 * what failed. Each refund is made once however often it is asked for, and PayPal is called once
 * for it at a time: a refund runs inside a transaction holding an advisory lock on the booking
 * (`claimRefund`), so a second caller (a second press, the worker, another server) waits for
 * nobody and does nothing; the PayPal-Request-Id is the booking's own (`refund-<booking id>`), and
 * the database keeps one completed refund per booking.
 */

type BookingRow = typeof booking.$inferSelect;

export interface RefundFailure {
  reference: string;
  /** PayPal's issue (e.g. PENDING_CAPTURE), or what went wrong here */
  reason: string;
}

export interface RefundRun {
  /** refunds made by this run */
  refunded: number;
  /** bookings already refunded before this run (nothing sent to PayPal again) */
  alreadyRefunded: number;
  failed: number;
  failures: RefundFailure[];
  /**
   * The answer was given before the run finished (PayPal was slow): it goes on by itself, and the
   * booking worker tries again any refund that is still owed.
   */
  unfinished: boolean;
}

const emptyRun = (): RefundRun => ({
  refunded: 0,
  alreadyRefunded: 0,
  failed: 0,
  failures: [],
  unfinished: false,
});

/** Bookings of a cancelled event whose money is still with us: paid, or a capture PayPal holds. */
function stillToRefund(eventId: string) {
  return and(
    eq(booking.eventId, eventId),
    eq(booking.status, "cancelled"),
    inArray(booking.paymentStatus, ["paid", "pending"]),
  );
}

/**
 * Refunds, in full, every paid booking of a cancelled event that is not refunded yet, one at a
 * time. Each refund is made once however often this runs (or runs at once twice): the
 * PayPal-Request-Id is the booking's own (`refund-<booking id>`), so PayPal answers a repeat with
 * the first refund instead of making another, and the database keeps one completed refund per
 * booking (a unique index). A refund whose answer was lost is asked again with the same id.
 */
export async function refundCancelledEvent(
  db: Db,
  eventId: string,
  now = new Date(),
  run: RefundRun = emptyRun(),
): Promise<RefundRun> {
  if (!isEventId(eventId)) return run;
  const [ev] = await db.select({ status: event.status }).from(event).where(eq(event.id, eventId));
  if (ev?.status !== "cancelled") return run;
  const targets = await db
    .select()
    .from(booking)
    .where(stillToRefund(eventId))
    .orderBy(asc(booking.createdAt));
  for (const row of targets) addToRun(run, row.reference, await refundBooking(db, row, now));
  return run;
}

/**
 * `refundCancelledEvent` for a request that must answer in time: what it has done after
 * `timeBudgetMs`, marked unfinished, while the run goes on by itself (the booking worker tries
 * again any refund still owed, should this process stop). A run that fails within the time fails
 * here; one that fails later is logged.
 */
export async function refundCancelledEventWithin(
  db: Db,
  eventId: string,
  now: Date,
  timeBudgetMs: number,
): Promise<RefundRun> {
  const progress = emptyRun();
  const running = refundCancelledEvent(db, eventId, now, progress);
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    running.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeBudgetMs))),
  ]);
  clearTimeout(timer);
  if (finished) return running;
  running.catch((error: unknown) => logError(error, { code: "refund_run_failed", eventId }));
  return { ...progress, failures: [...progress.failures], unfinished: true };
}

function addToRun(run: RefundRun, reference: string, outcome: RefundOutcome) {
  if (outcome.outcome === "refunded") run.refunded++;
  else if (outcome.outcome === "already") run.alreadyRefunded++;
  else if (outcome.outcome === "busy") return;
  else {
    run.failed++;
    run.failures.push({ reference, reason: outcome.reason });
  }
}

/** Refund statuses that mean the money is on its way back; any other refund row is a failed try. */
const REFUND_MADE = ["COMPLETED", "PENDING"];
/** A refund PayPal made that did not go through: the money is still with us. */
const REFUND_UNDONE = ["FAILED", "CANCELLED"];

/** A booking's failed refund attempts, as one column of a select over `booking`. */
export const failedRefundAttempts =
  sql<number>`(select count(*) from ${paymentTransaction} where ${paymentTransaction.bookingId} = ${booking.id} and ${paymentTransaction.kind} = 'refund' and ${notInArray(paymentTransaction.status, REFUND_MADE)})`.mapWith(
    Number,
  );

/**
 * Whether PayPal refused a booking's latest refund try for good (`refundRefusedForGood`), as one
 * column of a select over `booking`: the worker stops trying, and staff are asked to act. Only the
 * latest: a refusal that a later try (after a dispute was closed, say) has overtaken stops nothing.
 */
export const refundRefusedForGoodColumn =
  sql<boolean>`coalesce((select ${inArray(paymentTransaction.issue, [...REFUND_ISSUES_REFUSED_FOR_GOOD])} from ${paymentTransaction} where ${paymentTransaction.bookingId} = ${booking.id} and ${paymentTransaction.kind} = 'refund' order by ${paymentTransaction.createdAt} desc limit 1), false)`.mapWith(
    Boolean,
  );

/**
 * Capture statuses under which the money was taken (later refunds leave the capture's amount):
 * the capture a refund gives back, and what `amountPaidColumn` reads.
 */
const MONEY_TAKEN = ["COMPLETED", "PENDING", "PARTIALLY_REFUNDED", "REFUNDED"];

/**
 * What he paid for a booking, as one column of a select over `booking`: the latest capture's
 * amount (a payment that was not the price is given back as it was taken), else the price.
 */
export const amountPaidColumn =
  sql<number>`coalesce((select ${paymentTransaction.amountPence} from ${paymentTransaction} where ${paymentTransaction.bookingId} = ${booking.id} and ${paymentTransaction.kind} = 'capture' and ${paymentTransaction.captureId} is not null and ${inArray(paymentTransaction.status, MONEY_TAKEN)} order by ${paymentTransaction.createdAt} desc limit 1), ${booking.pricePence})`.mapWith(
    Number,
  );

/**
 * Every refund still owed, over `booking` joined to its `event`: a cancelled booking whose money
 * is still with us (paid, or a capture PayPal holds), of a cancelled event, or one cancelled in
 * time by him or for him (`refundOwed`). The worker retries these and staff see the same list.
 */
export const refundStillOwed = and(
  or(eq(event.status, "cancelled"), eq(booking.refundOwed, true)),
  eq(booking.status, "cancelled"),
  inArray(booking.paymentStatus, ["paid", "pending"]),
);

/**
 * The booking worker's pass over refunds: tries again every refund still owed
 * (`refundStillOwed`) whose wait is over (`refundRetryDue`), so that a PayPal outage during a
 * cancellation heals by itself. Safe beside a coordinator's "Retry refunds" or another server
 * doing the same: each refund is made once (see refundCancelledEvent).
 */
export async function retryDueRefunds(db: Db, now = new Date()): Promise<RefundRun> {
  const run = emptyRun();
  const candidates = await db
    .select({
      booking,
      failedAttempts: sql<number>`count(${paymentTransaction.id})`.mapWith(Number),
      refusedForGood: refundRefusedForGoodColumn,
      lastAttemptAt: sql<Date | null>`max(${paymentTransaction.createdAt})`.mapWith(
        (value: string | Date | null) => (value === null ? null : new Date(value)),
      ),
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .leftJoin(
      paymentTransaction,
      and(
        eq(paymentTransaction.bookingId, booking.id),
        eq(paymentTransaction.kind, "refund"),
        notInArray(paymentTransaction.status, REFUND_MADE),
      ),
    )
    .where(refundStillOwed)
    .groupBy(booking.id)
    .orderBy(asc(booking.createdAt));
  for (const candidate of candidates) {
    if (!refundRetryDue(candidate, candidate.lastAttemptAt, now)) continue;
    const outcome = await refundBooking(db, candidate.booking, now);
    addToRun(run, candidate.booking.reference, outcome);
    const triesNow = {
      failedAttempts: candidate.failedAttempts + 1,
      refusedForGood: outcome.outcome === "failed" && refundRefusedForGood(outcome.reason),
    };
    if (outcome.outcome === "failed" && refundRetriesStopped(triesNow))
      // The last automatic try: from here a person must act (the dashboard lists it).
      log.error(
        { code: "refund_retries_stopped", bookingId: candidate.booking.id },
        "refund: automatic retries stopped",
      );
  }
  return run;
}

export type RefundOutcome =
  | { outcome: "refunded" }
  | { outcome: "already" }
  | { outcome: "failed"; reason: string }
  /** another caller is refunding this booking at this moment: nothing done here */
  | { outcome: "busy" };

/**
 * The note PayPal shows the payer, in his history and its e-mails: why the money comes back,
 * never what the appointment was for (health data).
 */
function refundNote(row: Pick<BookingRow, "cancelledBy">): string {
  switch (row.cancelledBy) {
    case "patient":
      return "You cancelled your appointment in good time: a full refund.";
    case "payment":
      return "Nothing was booked with your payment: a full refund.";
    case "staff":
      return "We cancelled your appointment as you asked: a refund of what you paid.";
    default:
      return "The event you booked was cancelled: a full refund.";
  }
}

/** A simulated provider kept for refunding simulated bookings while the site uses PayPal (never in production). */
let simulatedForRefunds: PaymentProvider | undefined;

/** Who refunds a payment: the provider that took it, or why nobody can. */
function refundProvider(name: string): PaymentProvider | string {
  const current = paymentProvider();
  if (current.name === name) return current;
  if (name === "simulated") {
    if (config().isProduction)
      return "Paid through the simulated provider, which took no money; nothing to refund in production";
    simulatedForRefunds ??= createSimulatedProvider();
    return simulatedForRefunds;
  }
  return "PayPal is not set up on this server (PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET)";
}

async function markRefunded(db: Db, bookingId: string, now: Date) {
  await db
    .update(booking)
    .set({ paymentStatus: "refunded", refundOwed: false, updatedAt: now })
    .where(and(eq(booking.id, bookingId), inArray(booking.paymentStatus, ["paid", "pending"])));
}

/**
 * Takes this booking's refund for the caller's transaction, or says another transaction has it:
 * an advisory lock on the booking's id, released at commit. The caller then checks again what is
 * done (the other may have just finished) before calling PayPal.
 */
async function claimRefund(tx: Db, bookingId: string): Promise<boolean> {
  const key = `refund:${bookingId}`;
  const [row] = await tx
    .select({ claimed: sql<boolean>`pg_try_advisory_xact_lock(hashtextextended(${key}, 0))` })
    .from(booking)
    .where(eq(booking.id, bookingId));
  return row?.claimed === true;
}

/**
 * Refunds one booking in full, once: under `claimRefund`, so that only one caller at a time can
 * reach PayPal for it (the transaction is held open for that one call, at most PayPal's timeout).
 */
export async function refundBooking(db: Db, row: BookingRow, now: Date): Promise<RefundOutcome> {
  return db.transaction(async (tx) => {
    if (!(await claimRefund(tx, row.id))) return { outcome: "busy" };
    return refundClaimed(tx, row, now);
  });
}

/** The provider recorded for money given back outside PayPal (a bank transfer, say). */
export const REFUNDED_BY_HAND = "by hand";

/** Whether a booking's refund was given back outside PayPal, as one column of a select over `booking`. */
export const refundMadeByHandColumn = sql<boolean>`exists (select 1 from ${paymentTransaction} where ${paymentTransaction.bookingId} = ${booking.id} and ${paymentTransaction.kind} = 'refund' and ${paymentTransaction.provider} = ${REFUNDED_BY_HAND} and ${paymentTransaction.status} = 'COMPLETED')`;

/**
 * Records that staff gave a booking's money back outside PayPal (what he paid, `amountPence`),
 * under the same lock as a refund through PayPal (`claimRefund`), so that the two cannot both
 * happen: "already" if a refund was made meanwhile, "answer-lost" while PayPal may have made the
 * latest try (`refundAnswerLost`: Try again asks it). `audit` is written in the same transaction.
 * The caller has checked that the automatic tries have stopped.
 */
export async function recordRefundByHand(
  db: Db,
  row: BookingRow,
  amountPence: number,
  now: Date,
  audit: (tx: Db) => Promise<void>,
): Promise<"recorded" | "already" | "busy" | "answer-lost"> {
  return db.transaction(async (tx) => {
    if (!(await claimRefund(tx, row.id))) return "busy";
    if ((await refundRowsOf(tx, row.id, inArray(paymentTransaction.status, REFUND_MADE))) > 0) {
      await markRefunded(tx, row.id, now);
      return "already";
    }
    const [latest] = await tx
      .select({ status: paymentTransaction.status, raw: paymentTransaction.raw })
      .from(paymentTransaction)
      .where(and(eq(paymentTransaction.bookingId, row.id), eq(paymentTransaction.kind, "refund")))
      .orderBy(desc(paymentTransaction.createdAt))
      .limit(1);
    const httpStatus = (latest?.raw as { status?: unknown } | null)?.status;
    if (
      latest &&
      refundAnswerLost(latest.status, typeof httpStatus === "number" ? httpStatus : null)
    )
      return "answer-lost";
    await tx.insert(paymentTransaction).values({
      bookingId: row.id,
      kind: "refund",
      provider: REFUNDED_BY_HAND,
      orderId: row.paymentOrderId,
      status: "COMPLETED",
      amountPence,
      createdAt: now,
    });
    await markRefunded(tx, row.id, now);
    await audit(tx);
    return "recorded";
  });
}

/**
 * The refund a cancelled booking owes (`refundOwed`: a patient's own cancellation in time, or a
 * payment that was not the booking's price), right after it commits. If it fails, the booking
 * stays owed and the worker's `retryDueRefunds` tries again.
 */
export async function refundOwedBooking(
  db: Db,
  bookingId: string,
  now = new Date(),
): Promise<RefundOutcome> {
  const [row] = await db.select().from(booking).where(eq(booking.id, bookingId));
  if (!row || row.status !== "cancelled" || !row.refundOwed) return { outcome: "already" };
  return refundBooking(db, row, now);
}

/** How many refund rows of this booking have a status as `status` says. */
async function refundRowsOf(db: Db, bookingId: string, status: SQL | undefined): Promise<number> {
  const [rows] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(paymentTransaction)
    .where(
      and(
        eq(paymentTransaction.bookingId, bookingId),
        eq(paymentTransaction.kind, "refund"),
        status,
      ),
    );
  return rows?.count ?? 0;
}

async function refundClaimed(db: Db, row: BookingRow, now: Date): Promise<RefundOutcome> {
  const [done] = await db
    .select({ id: paymentTransaction.id })
    .from(paymentTransaction)
    .where(
      and(
        eq(paymentTransaction.bookingId, row.id),
        eq(paymentTransaction.kind, "refund"),
        inArray(paymentTransaction.status, REFUND_MADE),
      ),
    )
    .limit(1);
  if (done) {
    // Refunded before, but the booking was not marked (a crash between the two): mark it now.
    await markRefunded(db, row.id, now);
    return { outcome: "already" };
  }

  const [capture] = await db
    .select()
    .from(paymentTransaction)
    .where(
      and(
        eq(paymentTransaction.bookingId, row.id),
        eq(paymentTransaction.kind, "capture"),
        isNotNull(paymentTransaction.captureId),
        inArray(paymentTransaction.status, MONEY_TAKEN),
      ),
    )
    .orderBy(desc(paymentTransaction.createdAt))
    .limit(1);
  const providerName = capture?.provider ?? row.paymentProvider ?? "paypal";
  // The same request id for every try, so that PayPal refunds once; but a refund PayPal made and
  // then failed or cancelled would be replayed as it is, so each such one moves the id on.
  const undone = await refundRowsOf(db, row.id, inArray(paymentTransaction.status, REFUND_UNDONE));
  const requestId = undone ? `refund-${row.id}-${undone + 1}` : `refund-${row.id}`;
  const base = {
    bookingId: row.id,
    kind: "refund" as const,
    provider: providerName,
    orderId: capture?.orderId ?? row.paymentOrderId,
    requestId,
    createdAt: now,
  };
  const fail = async (
    reason: string,
    record: { status: string; issue?: string | null; debugId?: string | null; raw?: unknown },
  ): Promise<RefundOutcome> => {
    await db
      .insert(paymentTransaction)
      .values({ ...base, captureId: capture?.captureId ?? null, ...record });
    log.warn(
      { code: "refund_failed", bookingId: row.id, issue: record.issue ?? record.status },
      "refund: not made",
    );
    return { outcome: "failed", reason };
  };

  const provider = refundProvider(providerName);
  if (typeof provider === "string") return fail(provider, { status: "NOT_CONFIGURED" });
  // A simulated booking seeded as demo data has no capture: the simulated provider refunds it anyway.
  const captureId =
    capture?.captureId ??
    (providerName === "simulated" ? `SIMCAP${row.id.replaceAll("-", "").toUpperCase()}` : null);
  if (!captureId)
    return fail("No capture is recorded for this booking: refund it in PayPal by hand", {
      status: "NO_CAPTURE",
    });

  let refund: PayPalRefund;
  try {
    refund = await provider.refundCapture(captureId, {
      requestId,
      noteToPayer: refundNote(row),
      // The simulated provider may not hold the capture (it keeps orders in memory): say how much.
      ...(provider.name === "simulated"
        ? { amountPence: capture?.amountPence ?? row.pricePence }
        : {}),
    });
  } catch (error) {
    if (error instanceof PayPalError) {
      const record = errorRecord(error);
      if (error.issue === "CAPTURE_FULLY_REFUNDED") {
        // The money is back already (refunded at PayPal by hand, say): record it and mark the booking.
        await db.insert(paymentTransaction).values({ ...base, captureId, ...record });
        await markRefunded(db, row.id, now);
        return { outcome: "already" };
      }
      return fail(error.issue ?? error.name, record);
    }
    if (error instanceof PayPalNetworkError) {
      // PayPal may have made it: the same request id next time gets that refund, not a second one.
      return fail("No response from PayPal", { status: "NO_RESPONSE" });
    }
    log.error({ err: error, code: "refund_error", bookingId: row.id }, "refund: unexpected error");
    return fail("Unexpected error", { status: "ERROR" });
  }

  await db.transaction(async (tx) => {
    // One completed refund per booking (a unique index): a concurrent run's row wins, this one is dropped.
    await tx
      .insert(paymentTransaction)
      .values({
        ...base,
        captureId,
        status: refund.status,
        amountPence: refund.amountPence,
        raw: refund,
      })
      .onConflictDoNothing();
    if (refund.status === "COMPLETED" || refund.status === "PENDING") {
      await markRefunded(tx, row.id, now);
    }
  });
  if (refund.status === "COMPLETED" || refund.status === "PENDING") return { outcome: "refunded" };
  return { outcome: "failed", reason: `Refund ${refund.status}` };
}

/** PayPal's issue, or what kind of failure it was: for the log, never the message's text. */
function failureCode(error: unknown): string {
  if (error instanceof PayPalError) return error.issue ?? error.name;
  if (error instanceof PayPalNetworkError) return "NO_RESPONSE";
  return "ERROR";
}

/** How long a server waits before asking PayPal again about a refund it has not finished. */
export const PENDING_REFUND_CHECK_MS = 60 * 60_000;
/** How many pending refunds one pass of the worker asks about at most. */
const PENDING_REFUNDS_PER_PASS = 20;
/** When this server last asked about each pending refund (its transaction's id). */
const pendingRefundAsked = new Map<string, number>();

/**
 * Asks PayPal again, at most hourly each, about the refunds it accepted but had not finished
 * (PENDING, usually an eCheck that has not cleared; PayPal sends us no word when they finish).
 * COMPLETED is recorded. FAILED or CANCELLED means the money is still with us: the booking is paid
 * again and owed a refund, so the worker tries again and the dashboard lists it. Another server
 * doing the same at once changes nothing twice: each change is made only from PENDING.
 */
export async function checkPendingRefunds(
  db: Db,
  now = new Date(),
): Promise<{ completed: number; failed: number; stillPending: number }> {
  const counts = { completed: 0, failed: 0, stillPending: 0 };
  const pending = await db
    .select({
      id: paymentTransaction.id,
      bookingId: paymentTransaction.bookingId,
      provider: paymentTransaction.provider,
      raw: paymentTransaction.raw,
    })
    .from(paymentTransaction)
    .where(and(eq(paymentTransaction.kind, "refund"), eq(paymentTransaction.status, "PENDING")))
    .orderBy(asc(paymentTransaction.createdAt));
  // Only the refunds still pending are remembered.
  const stillListed = new Set(pending.map((row) => row.id));
  for (const id of pendingRefundAsked.keys())
    if (!stillListed.has(id)) pendingRefundAsked.delete(id);

  let asked = 0;
  for (const row of pending) {
    // A few each pass, so that a slow PayPal does not hold up the worker's other jobs.
    if (asked === PENDING_REFUNDS_PER_PASS) break;
    const last = pendingRefundAsked.get(row.id);
    if (last !== undefined && now.getTime() - last < PENDING_REFUND_CHECK_MS) continue;
    const refundId = (row.raw as { id?: unknown } | null)?.id;
    const provider = refundProvider(row.provider);
    if (typeof refundId !== "string" || typeof provider === "string") continue;
    pendingRefundAsked.set(row.id, now.getTime());
    asked++;
    let refund: PayPalRefund;
    try {
      refund = await provider.getRefund(refundId);
    } catch (error) {
      log.warn(
        { code: "refund_check_failed", bookingId: row.bookingId, issue: failureCode(error) },
        "refund: could not ask PayPal about a pending refund",
      );
      // PayPal is not answering: the rest can wait for the next pass.
      if (error instanceof PayPalNetworkError) break;
      continue;
    }
    if (refund.status === "PENDING") {
      counts.stillPending++;
      continue;
    }
    const changed = await db.transaction(async (tx) => {
      // The booking's refund lock, as a refund being made holds it: otherwise one under way could
      // mark the booking refunded again just after this reopens it.
      if (!(await claimRefund(tx, row.bookingId))) return "busy";
      const [updated] = await tx
        .update(paymentTransaction)
        .set({ status: refund.status, raw: refund })
        .where(and(eq(paymentTransaction.id, row.id), eq(paymentTransaction.status, "PENDING")))
        .returning({ id: paymentTransaction.id });
      if (!updated) return "done elsewhere";
      if (refund.status !== "COMPLETED")
        await tx
          .update(booking)
          .set({ paymentStatus: "paid", refundOwed: true, updatedAt: now })
          .where(and(eq(booking.id, row.bookingId), eq(booking.paymentStatus, "refunded")));
      return "changed";
    });
    if (changed === "busy") pendingRefundAsked.delete(row.id);
    if (changed !== "changed") continue;
    pendingRefundAsked.delete(row.id);
    if (refund.status === "COMPLETED") {
      counts.completed++;
      continue;
    }
    counts.failed++;
    log.warn(
      { code: "refund_reversed", bookingId: row.bookingId, issue: refund.status },
      "refund: PayPal did not finish a pending refund; the booking is owed one again",
    );
    const failedAttempts = await refundRowsOf(
      db,
      row.bookingId,
      notInArray(paymentTransaction.status, REFUND_MADE),
    );
    // A refund PayPal made and then undid was not refused: the worker tries again.
    if (refundRetriesStopped({ failedAttempts, refusedForGood: false }))
      // The worker will not try again by itself: a person must act (the dashboard lists it).
      log.error(
        { code: "refund_retries_stopped", bookingId: row.bookingId },
        "refund: owed again after the automatic tries stopped",
      );
  }
  return counts;
}

export interface RefundSummary {
  /** paid bookings of the cancelled event now refunded */
  refunded: number;
  /**
   * of those, refunds PayPal accepted but has not finished (PENDING, usually an eCheck that has
   * not cleared); PayPal completes them by itself, and we do not hear when (no webhooks)
   */
  pendingAtPayPal: number;
  /** when the first of those was accepted */
  pendingSince: Date | null;
  /** paid bookings still to refund, with the last failure of each (if one was tried) */
  outstanding: number;
  failures: RefundFailure[];
  /** bookings that became active after the event was cancelled (a payment already on its way) */
  activeAfterCancel: number;
  /** bookings the cancellation left as they were: a sample was taken or a result exists */
  keptWithSample: number;
}

/** A booking a cancellation leaves alone (the lifecycle's `cancel` never starts from a sample). */
const keptThroughCancel = sql`(${booking.sampleTakenAt} is not null or exists (select 1 from ${testResult} where ${testResult.bookingId} = ${booking.id}))`;

/** Where an event's refunds stand, for its page. */
export async function refundSummary(db: Db, eventId: string): Promise<RefundSummary> {
  const [counts] = await db
    .select({
      refunded: sql<number>`count(*) filter (where ${booking.paymentStatus} = 'refunded')`.mapWith(
        Number,
      ),
      outstanding:
        sql<number>`count(*) filter (where ${booking.status} = 'cancelled' and ${booking.paymentStatus} in ('paid', 'pending'))`.mapWith(
          Number,
        ),
      active:
        sql<number>`count(*) filter (where ${booking.status} in ('held', 'awaiting_payment', 'confirmed') and ${event.status} = 'cancelled' and not (${keptThroughCancel}))`.mapWith(
          Number,
        ),
      kept: sql<number>`count(*) filter (where ${booking.status} = 'confirmed' and ${event.status} = 'cancelled' and ${keptThroughCancel})`.mapWith(
        Number,
      ),
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .where(eq(booking.eventId, eventId));
  const failures: RefundFailure[] = [];
  if ((counts?.outstanding ?? 0) > 0) {
    const rows = await db
      .select({
        reference: booking.reference,
        status: paymentTransaction.status,
        issue: paymentTransaction.issue,
      })
      .from(booking)
      .innerJoin(
        paymentTransaction,
        and(eq(paymentTransaction.bookingId, booking.id), eq(paymentTransaction.kind, "refund")),
      )
      .where(stillToRefund(eventId))
      .orderBy(asc(booking.reference), desc(paymentTransaction.createdAt));
    for (const row of rows) {
      if (failures.some((failure) => failure.reference === row.reference)) continue;
      failures.push({ reference: row.reference, reason: row.issue ?? row.status });
    }
  }
  const [pending] = await db
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      since: sql<Date | null>`min(${paymentTransaction.createdAt})`.mapWith(
        (value: string | Date | null) => (value === null ? null : new Date(value)),
      ),
    })
    .from(paymentTransaction)
    .innerJoin(booking, eq(booking.id, paymentTransaction.bookingId))
    .where(
      and(
        eq(booking.eventId, eventId),
        eq(paymentTransaction.kind, "refund"),
        eq(paymentTransaction.status, "PENDING"),
      ),
    );
  return {
    refunded: counts?.refunded ?? 0,
    pendingAtPayPal: pending?.count ?? 0,
    pendingSince: pending?.since ?? null,
    outstanding: counts?.outstanding ?? 0,
    failures,
    activeAfterCancel: counts?.active ?? 0,
    keptWithSample: counts?.kept ?? 0,
  };
}
