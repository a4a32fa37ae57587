/**
 * When the server tries again, by itself, a refund that failed (PayPal down, an answer lost, a
 * capture still under review). Staff can always press "Try again" sooner; this is so that nobody's
 * money waits on someone remembering to.
 *
 * Waits double from one minute up to six hours, and it stops after REFUND_AUTO_ATTEMPTS tries
 * (about a day and a half), or at once when PayPal refuses the refund for good; the refunds page
 * keeps listing what is still owed.
 */
export const REFUND_AUTO_ATTEMPTS = 14;

const FIRST_WAIT_MS = 60_000;
const LONGEST_WAIT_MS = 6 * 60 * 60_000;

/**
 * PayPal's refusals of a refund (Payments v2's documented issues) that no later try can change
 * without a person: the payment is too old, disputed or charged back, the payer's account is
 * closed, or part of it was refunded some other way. Each is put to staff at once, in words.
 */
const REFUSED_FOR_GOOD: Record<string, string> = {
  REFUND_TIME_LIMIT_EXCEEDED:
    "PayPal will not refund a payment this old (its time limit has passed): give the money back another way.",
  TRANSACTION_DISPUTED:
    "He has opened a case with PayPal about this payment: settle it in PayPal's Resolution Center.",
  REFUND_NOT_PERMITTED_DUE_TO_CHARGEBACK:
    "His card issuer or bank has taken the payment back (a chargeback): check in PayPal before giving anything back.",
  PAYER_ACCOUNT_LOCKED_OR_CLOSED:
    "His PayPal account is closed or locked: give the money back another way.",
  REFUND_NOT_ALLOWED: "PayPal will not refund this payment: give the money back another way.",
  REFUND_IS_RESTRICTED:
    "Only the account that took this payment can refund it: refund it from that account.",
  MAX_NUMBER_OF_REFUNDS_EXCEEDED:
    "PayPal allows no more refunds of this payment: give the money back another way.",
  REFUND_AMOUNT_EXCEEDED:
    "Part of this payment has been refunded already, outside the site: check in PayPal what is still owed.",
};

/** Failures a later try may mend by itself (or once the charity's own account is put right). */
const WORTH_ANOTHER_TRY: Record<string, string> = {
  NO_RESPONSE: "PayPal did not answer.",
  PENDING_CAPTURE: "PayPal is still reviewing the payment.",
  REFUND_FAILED_INSUFFICIENT_FUNDS:
    "The charity's PayPal balance is too low for this refund: add funds, then try again.",
  PAYEE_ACCOUNT_RESTRICTED: "The charity's PayPal account is restricted: sort it out with PayPal.",
  PAYEE_ACCOUNT_LOCKED_OR_CLOSED: "The charity's PayPal account is locked or closed.",
};

/** Whether PayPal's answer to a refund means no automatic try will ever make it. */
export function refundRefusedForGood(issue: string | null | undefined): boolean {
  return issue !== null && issue !== undefined && Object.hasOwn(REFUSED_FOR_GOOD, issue);
}

/** The issues `refundRefusedForGood` accepts, for a query over recorded tries. */
export const REFUND_ISSUES_REFUSED_FOR_GOOD: readonly string[] = Object.keys(REFUSED_FOR_GOOD);

/**
 * The last failed try's reason for staff: in words where we know PayPal's issue, followed by the
 * issue itself (which PayPal's support asks for), else as it was recorded.
 */
export function refundProblemInWords(reason: string): string {
  const words = Object.hasOwn(REFUSED_FOR_GOOD, reason)
    ? REFUSED_FOR_GOOD[reason]
    : Object.hasOwn(WORTH_ANOTHER_TRY, reason)
      ? WORTH_ANOTHER_TRY[reason]
      : undefined;
  return words ? `${words} (${reason})` : reason;
}

/**
 * Whether a refund try's answer leaves open that PayPal made it: none came (NO_RESPONSE), we could
 * not read it (ERROR), or PayPal failed on its side (a 5xx). Only asking again with the same
 * request id tells; until then the money must not be given back another way.
 */
export function refundAnswerLost(status: string, httpStatus: number | null): boolean {
  return status === "NO_RESPONSE" || status === "ERROR" || (httpStatus ?? 0) >= 500;
}

/** How a booking's refund has gone so far: its failed tries, and whether PayPal said never. */
export interface RefundTries {
  failedAttempts: number;
  /** the latest try was refused for good (`refundRefusedForGood`) */
  refusedForGood: boolean;
}

export function refundRetryWaitMs(failedAttempts: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, failedAttempts - 1));
}

/** Whether the server has stopped retrying a refund by itself: only staff can make it now. */
export function refundRetriesStopped(tries: RefundTries): boolean {
  return tries.refusedForGood || tries.failedAttempts >= REFUND_AUTO_ATTEMPTS;
}

/**
 * Whether a booking still to refund is due another try now. One never tried (the server stopped
 * part-way through a cancellation) is due at once.
 */
export function refundRetryDue(tries: RefundTries, lastAttemptAt: Date | null, now: Date): boolean {
  if (refundRetriesStopped(tries)) return false;
  if (tries.failedAttempts === 0 || !lastAttemptAt) return true;
  return now.getTime() - lastAttemptAt.getTime() >= refundRetryWaitMs(tries.failedAttempts);
}
