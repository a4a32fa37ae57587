import { describe, expect, it } from "vitest";
import { REFUND_AUTO_ATTEMPTS, refundRetryDue, refundRetryWaitMs } from "./refund-retries";

const at = new Date("2026-11-22T10:00:00Z");
const later = (ms: number) => new Date(at.getTime() + ms);
const MINUTE = 60_000;

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
    expect(refundRetryDue(0, null, at)).toBe(true);
  });

  it("try again only once the wait is over", () => {
    expect(refundRetryDue(3, at, later(4 * MINUTE - 1))).toBe(false);
    expect(refundRetryDue(3, at, later(4 * MINUTE))).toBe(true);
  });

  it("stop after the last automatic try, however long ago", () => {
    expect(refundRetryDue(REFUND_AUTO_ATTEMPTS - 1, at, later(360 * MINUTE))).toBe(true);
    expect(refundRetryDue(REFUND_AUTO_ATTEMPTS, at, later(30 * 24 * 60 * MINUTE))).toBe(false);
  });

  it("give up after about a day and a half of waiting in all", () => {
    let total = 0;
    for (let attempt = 1; attempt < REFUND_AUTO_ATTEMPTS; attempt++)
      total += refundRetryWaitMs(attempt);
    expect(total / (60 * MINUTE)).toBeGreaterThan(24);
    expect(total / (60 * MINUTE)).toBeLessThan(48);
  });
});
