import { describe, expect, it } from "vitest";
import { MAX_DELIVERY_ATTEMPTS, nextAttemptDelayMs, shouldGiveUp } from "./backoff";

describe("delivery back-off", () => {
  it("doubles from 30 seconds", () => {
    expect(nextAttemptDelayMs(1)).toBe(30_000);
    expect(nextAttemptDelayMs(2)).toBe(60_000);
    expect(nextAttemptDelayMs(3)).toBe(120_000);
  });
  it("never waits more than an hour", () => {
    expect(nextAttemptDelayMs(20)).toBe(3_600_000);
  });
  it("gives up after the last attempt only", () => {
    expect(shouldGiveUp(MAX_DELIVERY_ATTEMPTS - 1)).toBe(false);
    expect(shouldGiveUp(MAX_DELIVERY_ATTEMPTS)).toBe(true);
  });
});
