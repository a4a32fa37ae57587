/**
 * When the server tries again, by itself, a refund of a cancelled event's booking that failed
 * (PayPal down, an answer lost, a capture still under review). Staff can always press "Retry
 * refunds" sooner; this is so that nobody's money waits on someone remembering to.
 *
 * Waits double from one minute up to six hours, and it stops after REFUND_AUTO_ATTEMPTS tries
 * (about a day and a half); the event's page keeps listing what is still owed.
 */
export const REFUND_AUTO_ATTEMPTS = 14;

const FIRST_WAIT_MS = 60_000;
const LONGEST_WAIT_MS = 6 * 60 * 60_000;

export function refundRetryWaitMs(failedAttempts: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, failedAttempts - 1));
}

/** Whether the server has stopped retrying a refund by itself: only staff can make it now. */
export function refundRetriesStopped(failedAttempts: number): boolean {
  return failedAttempts >= REFUND_AUTO_ATTEMPTS;
}

/**
 * Whether a booking still to refund is due another try now. One never tried (the server stopped
 * part-way through a cancellation) is due at once.
 */
export function refundRetryDue(
  failedAttempts: number,
  lastAttemptAt: Date | null,
  now: Date,
): boolean {
  if (failedAttempts === 0 || !lastAttemptAt) return true;
  if (refundRetriesStopped(failedAttempts)) return false;
  return now.getTime() - lastAttemptAt.getTime() >= refundRetryWaitMs(failedAttempts);
}
