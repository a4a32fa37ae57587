import { describe, expect, it } from "vitest";
import { newsletterConfirmRefusal } from "./newsletter-confirm";

const issuedAt = new Date("2026-03-01T12:00:00Z");
const later = (ms: number) => new Date(issuedAt.getTime() + ms);
const DAY = 24 * 60 * 60_000;

describe("newsletterConfirmRefusal", () => {
  it("accepts a link for 7 days, then calls it expired", () => {
    expect(newsletterConfirmRefusal({ issuedAt }, undefined, later(7 * DAY))).toBeNull();
    expect(newsletterConfirmRefusal({ issuedAt }, undefined, later(7 * DAY + 1))).toBe("expired");
  });

  it("refuses a link made before the address was unsubscribed", () => {
    expect(
      newsletterConfirmRefusal({ issuedAt }, { unsubscribedAt: later(60_000) }, later(DAY)),
    ).toBe("stale");
    expect(newsletterConfirmRefusal({ issuedAt }, { unsubscribedAt: issuedAt }, later(DAY))).toBe(
      "stale",
    );
  });

  it("accepts a link made after an unsubscribe, or for an address still subscribed", () => {
    expect(
      newsletterConfirmRefusal({ issuedAt }, { unsubscribedAt: later(-60_000) }, later(DAY)),
    ).toBeNull();
    expect(newsletterConfirmRefusal({ issuedAt }, { unsubscribedAt: null }, later(DAY))).toBeNull();
  });
});
