import { describe, expect, it } from "vitest";
import {
  cancelTermsSentences,
  compareMyBookings,
  isListedBooking,
  myBookingState,
  paidLine,
} from "./my-bookings";

const at = (iso: string) => new Date(iso);
const now = at("2026-06-10T12:00:00Z");

describe("which bookings are listed", () => {
  it.each([
    ["confirmed", null, "paid", true],
    ["cancelled", at("2026-05-01T10:00:00Z"), "refunded", true],
    ["cancelled", null, "unpaid", false],
    ["cancelled", null, "paid", true],
    ["cancelled", null, "refunded", true],
    ["held", null, "unpaid", false],
    ["awaiting_payment", null, "unpaid", false],
    ["awaiting_payment", null, "pending", true],
    ["expired", null, "unpaid", false],
  ] as const)(
    "%s (confirmed at %s, payment %s): %s",
    (status, confirmedAt, paymentStatus, listed) => {
      expect(isListedBooking({ status, confirmedAt, paymentStatus })).toBe(listed);
    },
  );
});

describe("a booking's state", () => {
  it.each([
    ["confirmed", "2026-06-10T12:30:00Z", "upcoming"],
    ["confirmed", "2026-06-10T12:00:00Z", "past"],
    ["confirmed", "2026-06-09T10:00:00Z", "past"],
    ["cancelled", "2026-07-01T10:00:00Z", "cancelled"],
    ["awaiting_payment", "2026-07-01T10:00:00Z", "payment-checking"],
    ["awaiting_payment", "2026-06-10T11:00:00Z", "payment-checking-ended"],
  ] as const)("%s ending %s is %s", (status, end, state) => {
    expect(
      myBookingState(
        { status, confirmedAt: now, paymentStatus: "paid", appointmentEnd: at(end) },
        now,
      ),
    ).toBe(state);
  });
});

describe("the order", () => {
  it("puts upcoming ones first, soonest first, then the rest, latest first", () => {
    const rows = [
      { id: "past-old", state: "past", appointmentStart: at("2025-01-01T10:00:00Z") },
      { id: "later", state: "upcoming", appointmentStart: at("2026-08-01T10:00:00Z") },
      { id: "cancelled", state: "cancelled", appointmentStart: at("2026-07-01T10:00:00Z") },
      { id: "soon", state: "upcoming", appointmentStart: at("2026-06-11T10:00:00Z") },
      { id: "past-recent", state: "past", appointmentStart: at("2026-06-01T10:00:00Z") },
      { id: "checking", state: "payment-checking", appointmentStart: at("2026-06-12T10:00:00Z") },
      {
        id: "checking-ended",
        state: "payment-checking-ended",
        appointmentStart: at("2026-06-05T10:00:00Z"),
      },
    ] as const;
    expect([...rows].sort(compareMyBookings).map((row) => row.id)).toEqual([
      "soon",
      "checking",
      "later",
      "cancelled",
      "checking-ended",
      "past-recent",
      "past-old",
    ]);
  });
});

describe("what cancelling means, in words", () => {
  const refund = {
    allowed: true as const,
    refundPence: 2500,
    refundBy: "2026-06-19",
    chargedInFull: false,
    fullRefundUntil: "2026-06-04",
  };
  const tooLate = {
    allowed: true as const,
    refundPence: 0,
    refundBy: null,
    chargedInFull: true,
    fullRefundUntil: "2026-05-29",
  };
  const free = {
    allowed: true as const,
    refundPence: 0,
    refundBy: null,
    chargedInFull: false,
    fullRefundUntil: null,
  };

  it("speaks of no money for a free booking", () => {
    const words = cancelTermsSentences(free, 0, "before").join(" ");
    expect(words).toBe(
      "If you cancel, your place is given up and someone else can book it. This booking was free, so there is nothing to pay back.",
    );
  });

  it("says how much comes back and by when, before and after", () => {
    expect(cancelTermsSentences(refund, 2500, "before")[1]).toBe(
      "You will get back £25.00, the full amount you paid. It will reach the card or PayPal account you paid with by Friday, 19 June 2026, within 14 working days.",
    );
    expect(cancelTermsSentences(refund, 2500, "done")[1]).toMatch(
      /^We are giving you back £25\.00/,
    );
  });

  it("says plainly when nothing comes back", () => {
    expect(cancelTermsSentences(tooLate, 2500, "before")[1]).toBe(
      "The last day to cancel with a full refund was Friday, 29 May 2026. If you cancel now, the £25.00 you paid is not refunded.",
    );
    expect(cancelTermsSentences(tooLate, 2500, "done")[1]).toBe(
      "The last day to cancel with a full refund was Friday, 29 May 2026. The £25.00 you paid was not refunded.",
    );
  });

  it("says nothing when it cannot be cancelled", () => {
    expect(cancelTermsSentences({ allowed: false, reason: "started" }, 2500, "before")).toEqual([]);
  });
});

describe("the Paid line", () => {
  it("is the amount while the booking stands", () => {
    expect(paidLine(2500, null)).toBe("£25.00");
  });

  it("says what became of the money once it is cancelled", () => {
    expect(paidLine(2500, "made")).toBe("£25.00, given back to you");
    expect(paidLine(2500, "owed")).toBe("£25.00, to be given back to you");
    expect(paidLine(2500, "stalled")).toBe("£25.00, to be given back to you");
    expect(paidLine(2500, "kept")).toBe("£25.00, not refunded");
  });
});
