import { describe, expect, it } from "vitest";
import {
  bookingStage,
  canExtendHold,
  canTake,
  extendedHoldEnd,
  holdWarningDue,
  isHoldLive,
  renewedHoldEnd,
  takesPlace,
  type BookingStage,
  type BookingState,
} from "./booking-lifecycle";

const base: BookingState = {
  status: "held",
  paymentStatus: "unpaid",
  paymentOrderId: null,
  arrivedAt: null,
  noShowAt: null,
  sampleId: null,
  sampleTakenAt: null,
};
const when = new Date("2026-06-10T09:00:00Z");

describe("bookingStage", () => {
  it.each<[string, Partial<BookingState>, string]>([
    ["a hold", {}, "held"],
    ["consented, no order yet", { status: "awaiting_payment" }, "consented"],
    [
      "an order at PayPal",
      { status: "awaiting_payment", paymentOrderId: "5O190127TN364715T" },
      "awaiting_payment",
    ],
    [
      "a capture PayPal is reviewing",
      { status: "awaiting_payment", paymentStatus: "pending" },
      "awaiting_payment",
    ],
    ["confirmed", { status: "confirmed", paymentStatus: "paid" }, "confirmed"],
    ["arrived", { status: "confirmed", arrivedAt: when }, "checked_in"],
    ["did not come", { status: "confirmed", noShowAt: when }, "no_show"],
    ["sample taken", { status: "confirmed", arrivedAt: when, sampleTakenAt: when }, "sample_taken"],
    ["sample id recorded", { status: "confirmed", sampleId: "S-1" }, "sample_taken"],
    ["expired", { status: "expired" }, "expired"],
    [
      "cancelled, money still to give back",
      { status: "cancelled", paymentStatus: "paid" },
      "cancelled",
    ],
    ["cancelled and refunded", { status: "cancelled", paymentStatus: "refunded" }, "refunded"],
  ])("reads %s as %s", (_label, row, stage) => {
    expect(bookingStage({ ...base, ...row })).toBe(stage);
  });
});

describe("canTake", () => {
  it("never cancels a booking whose sample is taken", () => {
    expect(canTake("sample_taken", "cancel")).toBe(false);
    expect(canTake("confirmed", "cancel")).toBe(true);
    expect(canTake("checked_in", "cancel")).toBe(true);
  });

  it("lets a patient cancel only a booked place he has not come to yet", () => {
    const allowed: Record<BookingStage, boolean> = {
      held: false,
      consented: false,
      awaiting_payment: false,
      confirmed: true,
      checked_in: false,
      no_show: false,
      sample_taken: false,
      expired: false,
      cancelled: false,
      refunded: false,
    };
    for (const [stage, expected] of Object.entries(allowed))
      expect(canTake(stage as BookingStage, "patient-cancel"), stage).toBe(expected);
  });

  it("checks in only a booked place", () => {
    expect(canTake("held", "check-in")).toBe(false);
    expect(canTake("awaiting_payment", "check-in")).toBe(false);
    expect(canTake("cancelled", "check-in")).toBe(false);
    expect(canTake("confirmed", "check-in")).toBe(true);
    expect(canTake("sample_taken", "check-in")).toBe(true);
  });

  it.each([
    ["confirmed", true],
    ["held", false],
    ["consented", false],
    ["awaiting_payment", false],
    ["checked_in", false],
    ["no_show", false],
    ["sample_taken", false],
    ["expired", false],
    ["cancelled", false],
    ["refunded", false],
  ] as const)("lets the patient change a %s booking's time: %s", (stage, allowed) => {
    expect(canTake(stage, "patient-change")).toBe(allowed);
  });

  it.each([
    ["confirmed", true],
    ["held", false],
    ["awaiting_payment", false],
    ["checked_in", false],
    ["no_show", false],
    ["sample_taken", false],
    ["cancelled", false],
  ] as const)("lets a coordinator move a %s booking to another time: %s", (stage, allowed) => {
    expect(canTake(stage, "staff-move")).toBe(allowed);
  });

  it("refunds only a cancelled booking, once", () => {
    expect(canTake("cancelled", "refund")).toBe(true);
    expect(canTake("refunded", "refund")).toBe(false);
    expect(canTake("confirmed", "refund")).toBe(false);
  });

  it("expires only what is still waiting", () => {
    for (const stage of ["held", "consented", "awaiting_payment"] as const)
      expect(canTake(stage, "expire")).toBe(true);
    for (const stage of ["confirmed", "cancelled", "expired"] as const)
      expect(canTake(stage, "expire")).toBe(false);
  });
});

describe("live holds", () => {
  const later = new Date(when.getTime() + 60_000);
  it("counts a hold until its end, and never an expired or cancelled row", () => {
    expect(isHoldLive({ status: "held", holdExpiresAt: later }, when)).toBe(true);
    expect(isHoldLive({ status: "held", holdExpiresAt: when }, when)).toBe(false);
    expect(isHoldLive({ status: "awaiting_payment", holdExpiresAt: later }, when)).toBe(true);
    expect(isHoldLive({ status: "expired", holdExpiresAt: later }, when)).toBe(false);
    expect(isHoldLive({ status: "held", holdExpiresAt: null }, when)).toBe(false);
  });

  it("takes a place when confirmed whatever its hold says", () => {
    expect(takesPlace({ status: "confirmed", holdExpiresAt: null }, when)).toBe(true);
    expect(takesPlace({ status: "cancelled", holdExpiresAt: later }, when)).toBe(false);
  });
});

describe("renewedHoldEnd", () => {
  const start = new Date("2026-06-01T09:00:00Z");
  const minutes = (n: number) => new Date(start.getTime() + n * 60_000);

  it("gives HOLD_MINUTES from the step", () => {
    expect(renewedHoldEnd(start, minutes(5), 15)).toEqual(minutes(20));
  });

  it("never goes past twice HOLD_MINUTES from the first choice", () => {
    expect(renewedHoldEnd(start, minutes(25), 15)).toEqual(minutes(30));
  });

  it("gives nothing once the whole life is over", () => {
    expect(renewedHoldEnd(start, minutes(30), 15)).toBeNull();
    expect(renewedHoldEnd(start, minutes(90), 15)).toBeNull();
  });
});

describe("the hold's warning and 'I need more time'", () => {
  const start = new Date("2026-06-01T09:00:00Z");
  const minutes = (n: number) => new Date(start.getTime() + n * 60_000);

  it("warns from three minutes before the end", () => {
    expect(holdWarningDue(minutes(15), minutes(11))).toBe(false);
    expect(holdWarningDue(minutes(15), minutes(12))).toBe(true);
    expect(holdWarningDue(minutes(15), minutes(16))).toBe(true);
  });

  it("gives fifteen minutes from now", () => {
    expect(
      extendedHoldEnd({ createdAt: start, holdExpiresAt: minutes(15) }, minutes(12), 15),
    ).toEqual({ ok: true, holdExpiresAt: minutes(27) });
  });

  it("stops at twice HOLD_MINUTES from the first choice, and then says it cannot", () => {
    expect(
      extendedHoldEnd({ createdAt: start, holdExpiresAt: minutes(27) }, minutes(25), 15),
    ).toEqual({ ok: true, holdExpiresAt: minutes(30) });
    expect(
      extendedHoldEnd({ createdAt: start, holdExpiresAt: minutes(30) }, minutes(28), 15),
    ).toEqual({ ok: false, reason: "capped" });
    expect(canExtendHold({ createdAt: start, holdExpiresAt: minutes(30) }, 15)).toBe(false);
    expect(canExtendHold({ createdAt: start, holdExpiresAt: minutes(27) }, 15)).toBe(true);
  });

  it("does not creep on by seconds when pressed again at once", () => {
    const end = new Date(minutes(27).getTime());
    expect(
      extendedHoldEnd(
        { createdAt: start, holdExpiresAt: end },
        new Date(minutes(12).getTime() + 5_000),
        15,
      ),
    ).toEqual({ ok: false, reason: "not-needed" });
  });

  it("extends only a hold nobody is paying for yet", () => {
    expect(canTake("held", "extend")).toBe(true);
    expect(canTake("consented", "extend")).toBe(true);
    expect(canTake("awaiting_payment", "extend")).toBe(false);
    expect(canTake("expired", "extend")).toBe(false);
  });
});
