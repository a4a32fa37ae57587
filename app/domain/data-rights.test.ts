import { describe, expect, it } from "vitest";
import {
  consentAnswersDue,
  consentShreddingCutoff,
  erasedAccountEmail,
  isErasedAccount,
  isNeverDelivered,
  erasureBlockers,
  resultRetainedUntil,
  retainedResultDue,
  wholeAddressPattern,
  type BookingForErasure,
} from "./data-rights";

// 10 June 2026, 10:00 in London (British Summer Time, UTC+1).
const now = new Date("2026-06-10T09:00:00Z");

const base: BookingForErasure = {
  reference: "MHAT-AAAA-BBBB",
  eventName: "Chelmsford screening",
  eventDate: "2026-05-01",
  slotEnd: "10:15",
  status: "confirmed",
  paymentStatus: "not_required",
  paymentOrderId: null,
  refundOwed: false,
  cancelledBy: null,
  refundTries: { failedAttempts: 0, refusedForGood: false },
  holdExpiresAt: null,
  arrivedAt: null,
  noShowAt: null,
  sampleId: null,
  sampleTakenAt: null,
  resultReleased: false,
};

describe("erasureBlockers", () => {
  it.each<[string, Partial<BookingForErasure>, string | null]>([
    ["a past appointment he missed", {}, null],
    ["a confirmed appointment next week", { eventDate: "2026-06-17" }, "upcoming-booking"],
    [
      "a confirmed appointment later today",
      { eventDate: "2026-06-10", slotEnd: "10:15" },
      "upcoming-booking",
    ],
    ["an appointment that ended a minute ago", { eventDate: "2026-06-10", slotEnd: "09:59" }, null],
    [
      "arrived this morning, appointment not over",
      { eventDate: "2026-06-10", slotEnd: "10:30", arrivedAt: now },
      "upcoming-booking",
    ],
    [
      "an order with PayPal",
      {
        status: "awaiting_payment",
        paymentStatus: "unpaid",
        paymentOrderId: "ORDER-1",
        eventDate: "2026-07-01",
      },
      "payment",
    ],
    [
      "a capture PayPal is reviewing, even for a past event",
      { status: "awaiting_payment", paymentStatus: "pending" },
      "payment",
    ],
    [
      "a refund still owed",
      { status: "cancelled", paymentStatus: "paid", refundOwed: true },
      "payment",
    ],
    [
      "cancelled, money not yet given back",
      { status: "cancelled", paymentStatus: "paid" },
      "payment",
    ],
    ["cancelled and refunded", { status: "cancelled", paymentStatus: "refunded" }, null],
    [
      "he cancelled too late for a refund: the money is kept, nothing on its way",
      { status: "cancelled", paymentStatus: "paid", cancelledBy: "patient" },
      null,
    ],
    [
      "a coordinator cancelled it when he asked, with the policy's no refund: kept",
      { status: "cancelled", paymentStatus: "paid", cancelledBy: "staff" },
      null,
    ],
    [
      "a coordinator cancelled it when he asked, refund still owed",
      { status: "cancelled", paymentStatus: "paid", cancelledBy: "staff", refundOwed: true },
      "payment",
    ],
    [
      "he cancelled in time, refund still owed",
      { status: "cancelled", paymentStatus: "paid", cancelledBy: "patient", refundOwed: true },
      "payment",
    ],
    [
      "his refund failed 13 times: the server still retries",
      {
        status: "cancelled",
        paymentStatus: "paid",
        cancelledBy: "patient",
        refundOwed: true,
        refundTries: { failedAttempts: 13, refusedForGood: false },
      },
      "payment",
    ],
    [
      "his refund failed 14 times: the server has stopped retrying",
      {
        status: "cancelled",
        paymentStatus: "paid",
        cancelledBy: "patient",
        refundOwed: true,
        refundTries: { failedAttempts: 14, refusedForGood: false },
      },
      "refund-stalled",
    ],
    [
      "his refund failed once, refused for good by PayPal",
      {
        status: "cancelled",
        paymentStatus: "paid",
        cancelledBy: "patient",
        refundOwed: true,
        refundTries: { failedAttempts: 1, refusedForGood: true },
      },
      "refund-stalled",
    ],
    [
      "the event was cancelled, its refund failed 14 times",
      {
        status: "cancelled",
        paymentStatus: "paid",
        refundTries: { failedAttempts: 14, refusedForGood: false },
      },
      "refund-stalled",
    ],
    [
      "a hold nobody is paying for yet",
      {
        status: "held",
        paymentStatus: "unpaid",
        holdExpiresAt: new Date(now.getTime() + 600_000),
        eventDate: "2026-07-01",
      },
      null,
    ],
    [
      "consented, no order yet",
      {
        status: "awaiting_payment",
        paymentStatus: "unpaid",
        holdExpiresAt: new Date(now.getTime() + 600_000),
        eventDate: "2026-07-01",
      },
      null,
    ],
    ["an expired hold", { status: "expired", paymentStatus: "unpaid" }, null],
    [
      "a sample taken, result not released",
      { sampleId: "S-1", sampleTakenAt: now },
      "result-awaited",
    ],
    [
      "a sample taken, result released",
      { sampleId: "S-1", sampleTakenAt: now, resultReleased: true },
      null,
    ],
  ])("%s", (_label, overrides, expected) => {
    const blockers = erasureBlockers([{ ...base, ...overrides }], now);
    expect(blockers.map((blocker) => blocker.kind)).toEqual(expected ? [expected] : []);
  });

  it("names each booking that stands in the way, once", () => {
    const blockers = erasureBlockers(
      [
        { ...base, reference: "MHAT-1111-1111", eventDate: "2026-06-20" },
        { ...base, reference: "MHAT-2222-2222" },
        {
          ...base,
          reference: "MHAT-3333-3333",
          status: "awaiting_payment",
          paymentStatus: "pending",
          eventDate: "2026-06-20",
        },
      ],
      now,
    );
    expect(blockers).toEqual([
      {
        kind: "upcoming-booking",
        reference: "MHAT-1111-1111",
        eventName: "Chelmsford screening",
        eventDate: "2026-06-20",
      },
      {
        kind: "payment",
        reference: "MHAT-3333-3333",
        eventName: "Chelmsford screening",
        eventDate: "2026-06-20",
      },
    ]);
  });
});

describe("resultRetainedUntil", () => {
  it.each<[string, Date | null, number, string]>([
    ["eight years from release", new Date("2026-03-01T12:00:00Z"), 8, "2034-03-01T12:00:00.000Z"],
    [
      "a 29 February release ends on 28 February",
      new Date("2028-02-29T12:00:00Z"),
      1,
      "2029-02-28T12:00:00.000Z",
    ],
    ["never released: from the erasure", null, 8, "2034-06-10T09:00:00.000Z"],
  ])("%s", (_label, releasedAt, years, expected) => {
    expect(resultRetainedUntil(releasedAt, now, years).toISOString()).toBe(expected);
  });
});

describe("retainedResultDue", () => {
  it.each<[string, string, boolean]>([
    ["the period ended yesterday", "2026-06-09T09:00:00Z", true],
    ["the period ends this instant", "2026-06-10T09:00:00Z", true],
    ["the period ends in a second", "2026-06-10T09:00:01Z", false],
  ])("%s", (_label, until, due) => {
    expect(retainedResultDue(new Date(until), now)).toBe(due);
  });
});

describe("consent answers", () => {
  it("are due after the period from the agreement, once the test day is over that long too", () => {
    expect(consentShreddingCutoff(now, 365)).toEqual({
      agreedBefore: new Date("2025-06-10T09:00:00Z"),
      testDateBefore: "2025-06-10",
    });
  });

  it.each<[string, string, string, boolean]>([
    ["agreed and tested 400 days ago", "2025-05-06T10:00:00Z", "2025-05-06", true],
    ["agreed 366 days ago, tested the next day", "2025-06-09T08:00:00Z", "2025-06-09", true],
    [
      "tested exactly 365 days ago today (the day not yet a full period past)",
      "2025-06-01T10:00:00Z",
      "2025-06-10",
      false,
    ],
    ["agreed 400 days ago for a test 300 days ago", "2025-05-06T10:00:00Z", "2025-08-14", false],
    ["agreed yesterday", "2026-06-09T10:00:00Z", "2026-06-20", false],
  ])("%s", (_label, agreedAt, testDate, due) => {
    expect(consentAnswersDue({ agreedAt: new Date(agreedAt), testDate }, now, 365)).toBe(due);
  });

  it("counts London days across the clock change (the cutoff in winter is GMT)", () => {
    // 20 January 2026 00:30 in London is 00:30 UTC; 30 days before is 21 December 2025.
    const winter = new Date("2026-01-20T00:30:00Z");
    expect(consentShreddingCutoff(winter, 30).testDateBefore).toBe("2025-12-21");
  });
});

describe("the erased account's address", () => {
  it("is not deliverable and carries only the account's id", () => {
    expect(erasedAccountEmail("b7c1")).toBe("deleted-b7c1@deleted.invalid");
    expect(isNeverDelivered(erasedAccountEmail("b7c1"))).toBe(true);
    expect(isErasedAccount({ id: "b7c1", email: "deleted-b7c1@deleted.invalid" })).toBe(true);
    expect(isErasedAccount({ id: "b7c1", email: "deleted-a000@deleted.invalid" })).toBe(false);
    expect(isErasedAccount({ id: "b7c1", email: "b7c1@example.org" })).toBe(false);
    expect(isNeverDelivered("Someone@Example.INVALID.")).toBe(true);
    expect(isNeverDelivered("someone@invalid.example.org")).toBe(false);
    expect(isNeverDelivered("someone@example.org")).toBe(false);
  });
});

describe("wholeAddressPattern", () => {
  it.each<[string, string, string, boolean]>([
    ["his own address, alone", "bob@x.com", "bob@x.com", true],
    ["his address in a sentence", "bob@x.com", "Reply to bob@x.com, please.", true],
    ["his address ending a sentence", "bob@x.com", "Write to bob@x.com.", true],
    ["his address in angle brackets", "bob@x.com", "Bob <bob@x.com>", true],
    ["his address in capitals", "bob@x.com", "From: BOB@X.COM", true],
    ["another address ending with his", "bob@x.com", "From: jimbob@x.com", false],
    ["another address starting with his", "bob@x.com", "bob@x.com.evil.org", false],
    ["a dot before his", "smith@x.com", "j.smith@x.com", false],
    ["_ is not a wildcard", "j_smith@x.com", "j.smith@x.com", false],
    ["_ matches itself", "j_smith@x.com", "To j_smith@x.com", true],
    ["% is not a wildcard", "a%b@x.com", "axxb@x.com", false],
    ["a backslash means itself", "a\\b@x.com", "ab@x.com", false],
    ["a plus means itself", "bob+1@x.com", "bobb1@x.com", false],
  ])("%s", (_label, address, text, expected) => {
    const pattern = new RegExp(wholeAddressPattern(address));
    expect(pattern.test(text.toLowerCase())).toBe(expected);
  });
});
