import { addDays, addYears } from "date-fns";
import { bookingStage, type BookingState } from "./booking-lifecycle";
import { londonDate, londonInstant } from "./london-time";
import { refundRetriesStopped, type RefundTries } from "./refund-retries";

/**
 * The patient's data rights (UK GDPR Articles 15 and 17): what stops an account being erased,
 * how long the clinic keeps a released result after it, and when consent answers are shredded.
 * Pure rules; `app/services/my-data.server.ts` applies them.
 */

/** One of the person's bookings, as far as erasing his account cares. */
export interface BookingForErasure extends BookingState {
  reference: string;
  refundOwed: boolean;
  cancelledBy: "patient" | "staff" | "payment" | null;
  /** how his refund has gone, if one is owed (the worker stops retrying at `refundRetriesStopped`) */
  refundTries: RefundTries;
  holdExpiresAt: Date | null;
  eventName: string;
  /** "yyyy-MM-dd" and "HH:mm", London wall-clock. */
  eventDate: string;
  slotEnd: string;
  /** a result exists and has been released to him */
  resultReleased: boolean;
}

export type ErasureBlocker =
  /** a confirmed appointment still ahead (or going on now): cancel it first */
  | { kind: "upcoming-booking"; reference: string; eventName: string; eventDate: string }
  /** money on its way: an order with PayPal, a capture under review, a refund still owed */
  | { kind: "payment"; reference: string; eventName: string; eventDate: string }
  /** a refund still owed that the server has stopped retrying by itself: staff must make it */
  | { kind: "refund-stalled"; reference: string; eventName: string; eventDate: string }
  /** a sample was taken and its result is not released yet: he must be able to read it */
  | { kind: "result-awaited"; reference: string; eventName: string; eventDate: string };

/**
 * A booking cancelled at his wish (by him, or by a coordinator when he asked) too late for a
 * refund: the money paid is kept for good, so nothing about it is still on its way (the same rule
 * as My bookings' "kept"). A cancelled event or a payment that booked nothing is always refunded.
 */
export function paymentKept(row: Pick<BookingForErasure, "cancelledBy" | "refundOwed">): boolean {
  return (row.cancelledBy === "patient" || row.cancelledBy === "staff") && !row.refundOwed;
}

/**
 * What stops the account being erased now, one entry per booking (the first reason that applies).
 * A hold nobody is paying for yet does not: erasing the account lets it go.
 */
export function erasureBlockers(
  bookings: readonly BookingForErasure[],
  now: Date,
): ErasureBlocker[] {
  const blockers: ErasureBlocker[] = [];
  for (const row of bookings) {
    const about = { reference: row.reference, eventName: row.eventName, eventDate: row.eventDate };
    const stage = bookingStage(row);
    const ahead = londonInstant(row.eventDate, row.slotEnd).getTime() > now.getTime();
    // cancelled, and the money taken not given back yet (unless it is kept for good)
    const refundDue =
      row.refundOwed ||
      (stage === "cancelled" && row.paymentStatus === "paid" && !paymentKept(row));
    if (refundDue && refundRetriesStopped(row.refundTries))
      blockers.push({ kind: "refund-stalled", ...about });
    else if (stage === "awaiting_payment" || row.paymentStatus === "pending" || refundDue)
      blockers.push({ kind: "payment", ...about });
    else if ((stage === "confirmed" || stage === "checked_in") && ahead)
      blockers.push({ kind: "upcoming-booking", ...about });
    else if (stage === "sample_taken" && !row.resultReleased)
      blockers.push({ kind: "result-awaited", ...about });
  }
  return blockers;
}

/**
 * How long the clinic keeps a result after its patient erased his account: RESULT_RETENTION_YEARS
 * from the day it was released to him (D-120 in docs/DECISIONS.md). A result never released
 * counts from the erasure.
 */
export function resultRetainedUntil(
  releasedAt: Date | null,
  erasedAt: Date,
  retentionYears: number,
): Date {
  return addYears(releasedAt ?? erasedAt, retentionYears);
}

/** A retained result is erased once its period is over. */
export function retainedResultDue(retainUntil: Date, now: Date): boolean {
  return retainUntil.getTime() <= now.getTime();
}

/**
 * Consent answers are needed until the test and its result are dealt with; they are shredded
 * CONSENT_RETENTION_DAYS after both the agreement and the test day (a consent given well before
 * the test is kept until that long after the test). `agreedBefore` and `testDateBefore` are what
 * the shredding job compares in SQL.
 */
export function consentShreddingCutoff(now: Date, retentionDays: number) {
  const agreedBefore = addDays(now, -retentionDays);
  // The test day has ended (London midnight after it) at or before the cutoff.
  return { agreedBefore, testDateBefore: londonDate(agreedBefore) };
}

export function consentAnswersDue(
  consent: { agreedAt: Date; testDate: string },
  now: Date,
  retentionDays: number,
): boolean {
  const cutoff = consentShreddingCutoff(now, retentionDays);
  return (
    consent.agreedAt.getTime() < cutoff.agreedBefore.getTime() &&
    consent.testDate < cutoff.testDateBefore
  );
}

/** The anonymised account's name and address: nothing that identifies him, and never deliverable. */
export const ERASED_ACCOUNT_NAME = "Deleted account";
export const erasedAccountEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/** Whether this account is one its owner deleted (`deleteMyAccount` anonymised it). */
export const isErasedAccount = (account: { id: string; email: string }) =>
  account.email === erasedAccountEmail(account.id);

/** An address in `.invalid`, the domain reserved never to exist (RFC 2606): an erased account's. */
export const isNeverDelivered = (address: string) => /\.invalid\.?$/i.test(address.trim());

/**
 * A regular expression (Postgres's `~` on lower-cased text, and JavaScript's alike) that finds
 * this address in a text as a whole address only: every other character of it escaped (so `_`,
 * `%`, `.` and `\` mean themselves), and neither preceded nor followed by a character that would
 * make it part of another address (bob@x.com is not in jimbob@x.com nor in bob@x.com.evil.org; a
 * full stop ending a sentence is allowed). Erasing a person's mail must never take another's.
 */
export function wholeAddressPattern(email: string): string {
  // ASCII punctuation only: Postgres refuses an escaped letter it does not know.
  const escaped = email.toLowerCase().replace(/[!-/:-@[-`{-~]/g, "\\$&");
  const notPart = "[^a-z0-9._%+-]";
  return `(^|${notPart})${escaped}($|${notPart}|\\.($|${notPart}))`;
}
