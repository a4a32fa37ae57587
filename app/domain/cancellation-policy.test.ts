import { describe, expect, it } from "vitest";
import {
  cancellationTerms,
  changeTerms,
  withFullRefund,
  type PolicyInput,
} from "./cancellation-policy";

// Instants are written in UTC with the London time beside them: British Summer Time began on
// Sunday 29 March 2026 (UTC+1) and ends on Sunday 25 October 2026.
const paid = (
  appointmentStart: string,
  now: string,
  more: Partial<PolicyInput> = {},
): PolicyInput => ({
  appointmentStart: new Date(appointmentStart),
  now: new Date(now),
  paidPence: 2500,
  sampleTakenOrResult: false,
  ...more,
});

describe("cancelling a paid booking", () => {
  // Wednesday 8 April 2026, 10:00 BST; Good Friday and Easter Monday fall in the week before.
  const easterWeek = "2026-04-08T09:00:00Z";

  it("refunds in full with more than 2 business days' notice, and says by when", () => {
    // Tuesday 31 March: Wed 1, Thu 2 and Tue 7 April lie between (not Fri 3 or Mon 6).
    expect(cancellationTerms(paid(easterWeek, "2026-03-31T15:00:00Z"))).toEqual({
      allowed: true,
      refundPence: 2500,
      refundBy: "2026-04-22",
      chargedInFull: false,
      fullRefundUntil: "2026-03-31",
    });
  });

  it("keeps the payment with 2 business days' notice or less, bank holidays not counted", () => {
    // Wednesday 1 April: only Thu 2 and Tue 7 lie between.
    expect(cancellationTerms(paid(easterWeek, "2026-04-01T07:00:00Z"))).toEqual({
      allowed: true,
      refundPence: 0,
      refundBy: null,
      chargedInFull: true,
      fullRefundUntil: "2026-03-31",
    });
  });

  it("charges in full on the day", () => {
    expect(cancellationTerms(paid("2026-11-27T14:00:00Z", "2026-11-27T09:00:00Z"))).toMatchObject({
      allowed: true,
      refundPence: 0,
      chargedInFull: true,
    });
  });

  it("counts notice from the London day, across the spring clock change", () => {
    // 23:30 UTC on Sunday 29 March is 00:30 on Monday 30 March in London. For Thursday 2 April
    // only Tue 31 and Wed 1 lie between: no refund (a UTC date, Sunday, would wrongly give 3).
    expect(cancellationTerms(paid("2026-04-02T09:00:00Z", "2026-03-29T23:30:00Z"))).toMatchObject({
      refundPence: 0,
      chargedInFull: true,
    });
    // 22:30 UTC the same Sunday is 23:30 in London, still Sunday: Mon, Tue, Wed lie between.
    expect(cancellationTerms(paid("2026-04-02T09:00:00Z", "2026-03-29T22:30:00Z"))).toMatchObject({
      refundPence: 2500,
      chargedInFull: false,
    });
  });

  it("refunds nothing and charges nothing when nothing was paid", () => {
    expect(cancellationTerms(paid(easterWeek, "2026-03-01T09:00:00Z", { paidPence: 0 }))).toEqual({
      allowed: true,
      refundPence: 0,
      refundBy: null,
      chargedInFull: false,
      fullRefundUntil: null,
    });
  });

  it("is refused once the appointment has started, or once a sample or result exists", () => {
    expect(cancellationTerms(paid(easterWeek, easterWeek))).toEqual({
      allowed: false,
      reason: "started",
    });
    expect(
      cancellationTerms(paid(easterWeek, "2026-03-01T09:00:00Z", { sampleTakenOrResult: true })),
    ).toEqual({ allowed: false, reason: "sample-taken" });
  });
});

describe("the charity giving back everything he paid", () => {
  const easterWeek = "2026-04-08T09:00:00Z";

  it("refunds in full on the day, by 14 working days from today", () => {
    // Wednesday 1 April 2026, too late by the policy. Fourteen working days on, skipping Good
    // Friday (3 April) and Easter Monday (6 April): Thursday 23 April.
    const now = new Date("2026-04-01T07:00:00Z");
    expect(
      withFullRefund(cancellationTerms(paid(easterWeek, now.toISOString())), 2500, now),
    ).toEqual({
      allowed: true,
      refundPence: 2500,
      refundBy: "2026-04-23",
      chargedInFull: false,
      fullRefundUntil: "2026-03-31",
    });
  });

  it("changes nothing for a free booking, a refund already in full, or a refusal", () => {
    const early = new Date("2026-03-31T15:00:00Z");
    const free = cancellationTerms(paid(easterWeek, early.toISOString(), { paidPence: 0 }));
    expect(withFullRefund(free, 0, early)).toBe(free);
    const inTime = cancellationTerms(paid(easterWeek, early.toISOString()));
    expect(withFullRefund(inTime, 2500, early)).toBe(inTime);
    const begun = new Date(easterWeek);
    expect(withFullRefund(cancellationTerms(paid(easterWeek, easterWeek)), 2500, begun)).toEqual({
      allowed: false,
      reason: "started",
    });
  });
});

describe("changing the time", () => {
  // Thursday 9 April 2026, 10:00 BST: Tue 7 and Wed 8 must lie between, so the last day to change
  // is Easter Monday 6 April, until midnight London time (23:00 UTC).
  const appointment = "2026-04-09T09:00:00Z";

  it.each([
    ["on Easter Monday evening", "2026-04-06T22:30:00Z", true],
    ["at midnight after Easter Monday", "2026-04-06T23:00:00Z", false],
    ["a week before", "2026-04-02T09:00:00Z", true],
    ["the day before", "2026-04-08T09:00:00Z", false],
  ])("%s: allowed %s", (_, now, allowed) => {
    const terms = changeTerms(paid(appointment, now));
    expect(terms.allowed).toBe(allowed);
    expect(terms.until).toEqual(new Date("2026-04-06T23:00:00Z"));
  });

  it("ends at midnight London time, GMT before the spring clock change", () => {
    // Monday 30 March 2026, 10:00 BST: Thu 26 and Fri 27 lie between from Wednesday 25, whose end
    // (midnight GMT) is long before 48 hours ahead.
    expect(changeTerms(paid("2026-03-30T09:00:00Z", "2026-03-25T23:59:00Z"))).toEqual({
      allowed: true,
      until: new Date("2026-03-26T00:00:00Z"),
    });
  });

  it("is refused once a sample or result exists", () => {
    expect(
      changeTerms(paid(appointment, "2026-03-01T09:00:00Z", { sampleTakenOrResult: true })),
    ).toEqual({ allowed: false, reason: "sample-taken", until: null });
  });
});
