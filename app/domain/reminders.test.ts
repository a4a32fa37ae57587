import { describe, expect, it } from "vitest";
import type { BookingStatus, PaymentStatus } from "./booking-lifecycle";
import { isReminderDue, remindedByMove, reminderWindow, type ReminderInput } from "./reminders";

// Instants are written in UTC with the London time beside them. British Summer Time began on
// Sunday 29 March 2026 (UTC+1) and ends on Sunday 25 October 2026; in November London is on UTC.

/** Friday 27 November 2026, 10:00 in London. */
const APPOINTMENT = "2026-11-27T10:00:00Z";
/** Booked weeks ahead. */
const EARLY = "2026-11-01T12:00:00Z";

function confirmed(more: Partial<ReminderInput> = {}): ReminderInput {
  return {
    status: "confirmed",
    paymentStatus: "paid",
    paymentOrderId: "ORDER-1",
    arrivedAt: null,
    noShowAt: null,
    sampleId: null,
    sampleTakenAt: null,
    appointmentStart: new Date(APPOINTMENT),
    confirmedAt: new Date(EARLY),
    reminderSentAt: null,
    ...more,
  };
}

const due = (booking: ReminderInput, now: string, hoursBefore = 48) =>
  isReminderDue(booking, new Date(now), hoursBefore);

describe("is a reminder due, for a booking confirmed weeks ahead (48 hours before)", () => {
  it.each([
    ["a week before", "2026-11-20T10:00:00Z", false],
    ["a millisecond before the window opens", "2026-11-25T09:59:59.999Z", false],
    ["exactly 48 hours before (Wednesday 10:00)", "2026-11-25T10:00:00Z", true],
    ["the day before", "2026-11-26T18:00:00Z", true],
    ["a millisecond over an hour before", "2026-11-27T08:59:59.999Z", true],
    ["exactly an hour before (he may be on his way)", "2026-11-27T09:00:00Z", false],
    ["ten minutes before", "2026-11-27T09:50:00Z", false],
    ["at the start", "2026-11-27T10:00:00Z", false],
    ["after the appointment", "2026-11-27T15:00:00Z", false],
    ["a week after the appointment", "2026-12-04T10:00:00Z", false],
  ])("%s: %s → %s", (_label, now, expected) => {
    expect(due(confirmed(), now)).toBe(expected);
  });

  it("opens the window at the configured number of hours (24)", () => {
    expect(due(confirmed(), "2026-11-26T09:59:59Z", 24)).toBe(false);
    expect(due(confirmed(), "2026-11-26T10:00:00Z", 24)).toBe(true);
  });

  it("is never due once sent", () => {
    const sent = confirmed({ reminderSentAt: new Date("2026-11-25T10:00:30Z") });
    expect(due(sent, "2026-11-25T10:01:00Z")).toBe(false);
    expect(due(sent, "2026-11-26T18:00:00Z")).toBe(false);
  });
});

describe("is a reminder due, for a booking not waiting for its appointment", () => {
  const inWindow = "2026-11-26T10:00:00Z";
  it.each<[string, Partial<ReminderInput>]>([
    ["cancelled", { status: "cancelled", paymentStatus: "paid" }],
    ["cancelled and refunded", { status: "cancelled", paymentStatus: "refunded" }],
    ["expired", { status: "expired", paymentStatus: "unpaid", confirmedAt: null }],
    ["still held", { status: "held", paymentStatus: "unpaid", confirmedAt: null }],
    [
      "awaiting payment",
      { status: "awaiting_payment", paymentStatus: "unpaid", confirmedAt: null },
    ],
    ["checked in early", { arrivedAt: new Date("2026-11-26T09:00:00Z") }],
    ["marked as not coming", { noShowAt: new Date("2026-11-26T09:00:00Z") }],
    ["sample taken", { sampleId: "S-1", sampleTakenAt: new Date("2026-11-26T09:00:00Z") }],
  ])("%s: not due", (_label, more) => {
    expect(due(confirmed(more), inWindow)).toBe(false);
  });

  it("is due for a free booking as for a paid one", () => {
    const free = confirmed({
      paymentStatus: "not_required" satisfies PaymentStatus,
      paymentOrderId: null,
      status: "confirmed" satisfies BookingStatus,
    });
    expect(due(free, inWindow)).toBe(true);
  });
});

describe("is a reminder due, for a booking confirmed after its window opened", () => {
  it("waits 12 hours after the confirmation (booked 30 hours ahead: due 18 hours before)", () => {
    // Confirmed Thursday 04:00 for Friday 10:00.
    const late = confirmed({ confirmedAt: new Date("2026-11-26T04:00:00Z") });
    expect(due(late, "2026-11-26T04:01:00Z")).toBe(false);
    expect(due(late, "2026-11-26T15:59:59Z")).toBe(false);
    expect(due(late, "2026-11-26T16:00:00Z")).toBe(true);
    expect(due(late, "2026-11-27T08:59:00Z")).toBe(true);
    expect(due(late, "2026-11-27T09:00:00Z")).toBe(false);
  });

  it.each([
    ["booked at 22:00 the night before (12 hours ahead)", "2026-11-26T22:00:00Z"],
    ["booked exactly 13 hours ahead", "2026-11-26T21:00:00Z"],
    ["booked an hour ahead", "2026-11-27T09:00:00Z"],
  ])("never sends one when %s: the confirmation is enough", (_label, confirmedAt) => {
    const late = confirmed({ confirmedAt: new Date(confirmedAt) });
    const hours = ["2026-11-26T21:00:00Z", "2026-11-27T08:00:00Z", "2026-11-27T08:59:00Z"];
    for (const now of hours) expect(due(late, now)).toBe(false);
  });

  it("sends one the morning of the appointment when booked at 20:00 the evening before", () => {
    const late = confirmed({ confirmedAt: new Date("2026-11-26T20:00:00Z") });
    expect(due(late, "2026-11-27T07:59:59Z")).toBe(false);
    expect(due(late, "2026-11-27T08:00:00Z")).toBe(true);
  });

  it("sends one when booked 13 hours and a minute ahead, in the minute before the last hour", () => {
    const late = confirmed({ confirmedAt: new Date("2026-11-26T20:59:00Z") });
    expect(reminderWindow(late, 48)).toEqual({
      from: new Date("2026-11-27T08:59:00Z"),
      until: new Date("2026-11-27T09:00:00Z"),
    });
    expect(due(late, "2026-11-27T08:59:30Z")).toBe(true);
  });

  it("uses the window alone when the confirmation time is not known", () => {
    const unknown = confirmed({ confirmedAt: null });
    expect(due(unknown, "2026-11-25T10:00:00Z")).toBe(true);
  });
});

describe("is a reminder due, across a change of the clocks (48 real hours)", () => {
  it("spring: for Monday 30 March 10:00 BST, opens at Saturday 09:00 GMT", () => {
    // 10:00 BST is 09:00 UTC; 48 hours earlier is Saturday 28 March 09:00 UTC, which London
    // calls 09:00 (GMT): a wall-clock reckoning ("Saturday 10:00") would be an hour late.
    const booking = confirmed({
      appointmentStart: new Date("2026-03-30T09:00:00Z"),
      confirmedAt: new Date("2026-03-01T12:00:00Z"),
    });
    expect(due(booking, "2026-03-28T08:59:59Z")).toBe(false);
    expect(due(booking, "2026-03-28T09:00:00Z")).toBe(true);
  });

  it("autumn: for Monday 26 October 10:00 GMT, opens at Saturday 11:00 BST", () => {
    // 10:00 GMT is 10:00 UTC; 48 hours earlier is Saturday 24 October 10:00 UTC, 11:00 in London.
    const booking = confirmed({
      appointmentStart: new Date("2026-10-26T10:00:00Z"),
      confirmedAt: new Date("2026-10-01T12:00:00Z"),
    });
    expect(due(booking, "2026-10-24T09:59:59Z")).toBe(false);
    expect(due(booking, "2026-10-24T10:00:00Z")).toBe(true);
    // The last hour is real time too: 09:00 UTC on the Monday is 09:00 GMT.
    expect(due(booking, "2026-10-26T08:59:59Z")).toBe(true);
    expect(due(booking, "2026-10-26T09:00:00Z")).toBe(false);
  });
});

describe("a booking moved to a new time", () => {
  // His new time: 10:00 on Wednesday 10 June 2026 (09:00 UTC); reminders 48 hours before.
  const newTime = new Date("2026-06-10T09:00:00Z");
  const hoursBefore = (hours: number) => new Date(newTime.getTime() - hours * 3_600_000);

  it("is reminded by the move's own e-mail when moved on the day, or inside the window", () => {
    expect(remindedByMove(newTime, hoursBefore(1), 48)).toBe(true);
    expect(remindedByMove(newTime, hoursBefore(30), 48)).toBe(true);
  });

  it("is reminded by it until 12 hours before the window opens", () => {
    expect(remindedByMove(newTime, hoursBefore(59), 48)).toBe(true);
    expect(remindedByMove(newTime, hoursBefore(60), 48)).toBe(false);
  });

  it("is reminded as usual when moved days ahead", () => {
    expect(remindedByMove(newTime, hoursBefore(24 * 7), 48)).toBe(false);
  });
});
