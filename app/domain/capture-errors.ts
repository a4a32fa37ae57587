/**
 * What PayPal's answer to a capture that failed means for the booking. Only a refusal PayPal
 * documents as final for this payment lets the place go; anything else (PayPal busy with the same
 * request, our credentials refused, a rate limit, an answer we could not read) leaves whether the
 * money was taken unknown, so the same request is sent again later and the place is kept.
 */
export type CaptureErrorMeaning =
  /** an earlier attempt captured it: read the order and use that capture */
  | "already-captured"
  /** he can try again: back to PayPal, or another card (the order stays his) */
  | "payer-can-retry"
  /** PayPal refused this payment for good (the order is read first, in case it was captured) */
  | "refused"
  /** not known whether it was captured: keep the request id and the place, and ask again */
  | "unknown";

/** A decline the payer can put right: back to PayPal, or another way to pay. */
export const PAYER_DECLINE_ISSUES: ReadonlySet<string> = new Set([
  "INSTRUMENT_DECLINED",
  "PAYER_ACTION_REQUIRED",
  "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING",
]);

/** The capture's 422 issues (Orders v2, `orders.capture-422`) that refuse this payment for good. */
const REFUSED_FOR_GOOD = new Set([
  "TRANSACTION_REFUSED",
  "PAYER_CANNOT_PAY",
  "PAYER_ACCOUNT_LOCKED_OR_CLOSED",
  "PAYER_ACCOUNT_RESTRICTED",
  "COMPLIANCE_VIOLATION",
  "MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED",
  "TRANSACTION_LIMIT_EXCEEDED",
  "TRANSACTION_RECEIVING_LIMIT_EXCEEDED",
  "PAYEE_BLOCKED_TRANSACTION",
  "TRANSACTION_BLOCKED_BY_PAYEE",
  "DECLINED_DUE_TO_RELATED_TXN",
  "CARD_BRAND_NOT_SUPPORTED",
  "DOMESTIC_TRANSACTION_REQUIRED",
]);

export function captureErrorMeaning(error: {
  status: number;
  issue: string | undefined;
}): CaptureErrorMeaning {
  if (error.issue === "ORDER_ALREADY_CAPTURED") return "already-captured";
  // Not approved yet: he has still to approve it at PayPal.
  if (error.issue === "ORDER_NOT_APPROVED") return "payer-can-retry";
  if (error.issue && PAYER_DECLINE_ISSUES.has(error.issue)) return "payer-can-retry";
  // The order is gone (never approved, and expired): nothing can have been captured on it.
  if (error.status === 404) return "refused";
  if (error.status === 422 && error.issue && REFUSED_FOR_GOOD.has(error.issue)) return "refused";
  return "unknown";
}
