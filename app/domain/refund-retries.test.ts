import { describe, expect, it } from "vitest";
import {
  REFUND_AUTO_ATTEMPTS,
  refundProblemInWords,
  refundRefusedForGood,
  refundRetriesStopped,
  refundRetryDue,
  refundRetryWaitMs,
} from "./refund-retries";

const at = new Date("2026-11-22T10:00:00Z");
const later = (ms: number) => new Date(at.getTime() + ms);
const MINUTE = 60_000;
const failed = (failedAttempts: number) => ({ failedAttempts, refusedForGood: false });

describe("automatic refund retries", () => {
  it("wait 1, 2, 4 … minutes, never more than six hours", () => {
    expect([1, 2, 3, 4].map(refundRetryWaitMs)).toEqual([
      MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
    ]);
    expect(refundRetryWaitMs(12)).toBe(360 * MINUTE);
    expect(refundRetryWaitMs(40)).toBe(360 * MINUTE);
  });

  it("try a booking never tried at once", () => {
    expect(refundRetryDue(failed(0), null, at)).toBe(true);
  });

  it("try again only once the wait is over", () => {
    expect(refundRetryDue(failed(3), at, later(4 * MINUTE - 1))).toBe(false);
    expect(refundRetryDue(failed(3), at, later(4 * MINUTE))).toBe(true);
  });

  it("stop after the last automatic try, however long ago", () => {
    expect(refundRetryDue(failed(REFUND_AUTO_ATTEMPTS - 1), at, later(360 * MINUTE))).toBe(true);
    expect(refundRetryDue(failed(REFUND_AUTO_ATTEMPTS), at, later(30 * 24 * 60 * MINUTE))).toBe(
      false,
    );
  });

  it("give up after about a day and a half of waiting in all", () => {
    let total = 0;
    for (let attempt = 1; attempt < REFUND_AUTO_ATTEMPTS; attempt++)
      total += refundRetryWaitMs(attempt);
    expect(total / (60 * MINUTE)).toBeGreaterThan(24);
    expect(total / (60 * MINUTE)).toBeLessThan(48);
  });

  it("stop at once when PayPal refuses the refund for good", () => {
    const refused = { failedAttempts: 1, refusedForGood: true };
    expect(refundRetriesStopped(refused)).toBe(true);
    expect(refundRetryDue(refused, at, later(30 * 24 * 60 * MINUTE))).toBe(false);
  });
});

describe("PayPal's refusals of a refund", () => {
  it.each([
    "REFUND_TIME_LIMIT_EXCEEDED",
    "TRANSACTION_DISPUTED",
    "REFUND_NOT_PERMITTED_DUE_TO_CHARGEBACK",
    "PAYER_ACCOUNT_LOCKED_OR_CLOSED",
    "REFUND_NOT_ALLOWED",
  ])("%s is for good", (issue) => {
    expect(refundRefusedForGood(issue)).toBe(true);
  });

  it.each([
    "NO_RESPONSE",
    "PENDING_CAPTURE",
    "REFUND_FAILED_INSUFFICIENT_FUNDS",
    "PAYEE_ACCOUNT_RESTRICTED",
    "INTERNAL_SERVER_ERROR",
    "toString",
  ])("%s is worth another try", (issue) => {
    expect(refundRefusedForGood(issue)).toBe(false);
  });

  it("are put to staff in words, with PayPal's issue for its support", () => {
    expect(refundProblemInWords("REFUND_TIME_LIMIT_EXCEEDED")).toBe(
      "PayPal will not refund a payment this old (its time limit has passed): give the money back another way. (REFUND_TIME_LIMIT_EXCEEDED)",
    );
    expect(refundProblemInWords("NO_RESPONSE")).toBe("PayPal did not answer. (NO_RESPONSE)");
    expect(refundProblemInWords("SOMETHING_NEW")).toBe("SOMETHING_NEW");
    expect(refundProblemInWords("constructor")).toBe("constructor");
  });
});
