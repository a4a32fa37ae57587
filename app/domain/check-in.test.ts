import { describe, expect, it } from "vitest";
import { parseForm } from "./forms";
import {
  applyCheckIn,
  CHECK_IN_MESSAGES,
  checkInOpen,
  checkInSchema,
  checkInState,
  closingTimeReached,
  type CheckInCommand,
  type CheckInFields,
} from "./check-in";

const BOOKING = "0b7c2a4e-1f0a-4c7e-9a55-3d2f8b6e1c11";
const now = new Date("2026-06-10T09:05:00Z");
const earlier = new Date("2026-06-10T08:50:00Z");
const waiting: CheckInFields = {
  arrivedAt: null,
  noShowAt: null,
  sampleId: null,
  sampleTakenAt: null,
};
const arrived: CheckInFields = { ...waiting, arrivedAt: earlier };
const noShow: CheckInFields = { ...waiting, noShowAt: earlier };
const sampled: CheckInFields = { ...arrived, sampleId: "S-1", sampleTakenAt: earlier };
/** `now` is on the appointment's day (10 June 2026, London). */
const ON_THE_DAY = { today: "2026-06-10", appointmentDate: "2026-06-10" };

const command = (value: Record<string, string>) => {
  const parsed = parseForm(checkInSchema, value);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
  return parsed.data as CheckInCommand;
};

describe("checkInState", () => {
  it("reads the state from the booking's columns", () => {
    expect(checkInState(waiting)).toBe("waiting");
    expect(checkInState(arrived)).toBe("arrived");
    expect(checkInState(noShow)).toBe("no_show");
    expect(checkInState(sampled)).toBe("sample_taken");
  });
});

describe("checkInSchema", () => {
  it("trims a scanned sample id", () => {
    expect(command({ intent: "sample", bookingId: BOOKING, sampleId: "  AB-12 \n" })).toEqual({
      intent: "sample",
      bookingId: BOOKING,
      sampleId: "AB-12",
    });
  });
  it.each([
    ["", CHECK_IN_MESSAGES.sampleIdMissing],
    ["   ", CHECK_IN_MESSAGES.sampleIdMissing],
    ["A".repeat(41), CHECK_IN_MESSAGES.sampleIdTooLong],
    ["AB 12", CHECK_IN_MESSAGES.sampleIdCharacters],
    ["=1+1", CHECK_IN_MESSAGES.sampleIdCharacters],
    ["-123", CHECK_IN_MESSAGES.sampleIdCharacters],
    ["AB_12", CHECK_IN_MESSAGES.sampleIdCharacters],
  ])("refuses the sample id %j", (sampleId, message) => {
    const parsed = parseForm(checkInSchema, { intent: "sample", bookingId: BOOKING, sampleId });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.fieldErrors.sampleId).toBe(message);
  });
  it("accepts 40 characters", () => {
    expect(
      command({ intent: "sample", bookingId: BOOKING, sampleId: "A".repeat(40) }),
    ).toMatchObject({
      sampleId: "A".repeat(40),
    });
  });
  it("refuses an unknown intent and a booking id that is not one", () => {
    const bad = parseForm(checkInSchema, { intent: "delete", bookingId: BOOKING });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.fieldErrors.intent).toBe(CHECK_IN_MESSAGES.intent);
    const badId = parseForm(checkInSchema, { intent: "arrived", bookingId: "1 or 1=1" });
    expect(badId.ok).toBe(false);
    if (!badId.ok) expect(badId.fieldErrors.bookingId).toBe(CHECK_IN_MESSAGES.booking);
  });
  it("needs the state an undo undoes", () => {
    expect(parseForm(checkInSchema, { intent: "undo", bookingId: BOOKING }).ok).toBe(false);
    expect(
      parseForm(checkInSchema, { intent: "undo", bookingId: BOOKING, from: "waiting" }).ok,
    ).toBe(false);
  });
});

describe("applyCheckIn", () => {
  const arrive = command({ intent: "arrived", bookingId: BOOKING });
  const miss = command({ intent: "no-show", bookingId: BOOKING, from: "waiting" });
  const missArrived = command({ intent: "no-show", bookingId: BOOKING, from: "arrived" });
  const sample = command({ intent: "sample", bookingId: BOOKING, sampleId: "S-2" });

  it("marks someone waiting as arrived", () => {
    expect(applyCheckIn(waiting, arrive, now, ON_THE_DAY)).toEqual({
      ok: true,
      from: "waiting",
      to: "arrived",
      changed: true,
      changes: { arrivedAt: now, noShowAt: null },
    });
  });
  it("turns a no-show into an arrival (he came late)", () => {
    expect(applyCheckIn(noShow, arrive, now, ON_THE_DAY)).toMatchObject({
      ok: true,
      to: "arrived",
      changes: { arrivedAt: now, noShowAt: null },
    });
  });
  it("changes nothing on a second tap", () => {
    expect(applyCheckIn(arrived, arrive, now, ON_THE_DAY)).toMatchObject({
      ok: true,
      changed: false,
    });
    expect(applyCheckIn(noShow, miss, now, ON_THE_DAY)).toMatchObject({ ok: true, changed: false });
    expect(applyCheckIn(sampled, arrive, now, ON_THE_DAY)).toMatchObject({
      ok: true,
      changed: false,
    });
  });
  it("marks a no-show, clearing an arrival the page showed", () => {
    expect(applyCheckIn(arrived, missArrived, now, ON_THE_DAY)).toMatchObject({
      ok: true,
      to: "no_show",
      changes: { noShowAt: now, arrivedAt: null },
    });
  });
  it("refuses a no-show before his time, unless he came and left (found by the event-day review)", () => {
    const at = (iso: string) => ({ ...ON_THE_DAY, appointmentStart: new Date(iso) });
    // Due 25 minutes after the tap.
    const dueLater = at(new Date(now.getTime() + 25 * 60_000).toISOString());
    expect(applyCheckIn(waiting, miss, now, dueLater)).toEqual({
      ok: false,
      error: CHECK_IN_MESSAGES.notDueYet(
        new Intl.DateTimeFormat("en-GB", {
          hour: "2-digit",
          minute: "2-digit",
          timeZone: "Europe/London",
        }).format(new Date(now.getTime() + 25 * 60_000)),
      ),
      field: "checkIn",
    });
    expect(applyCheckIn(arrived, missArrived, now, dueLater)).toMatchObject({ ok: true });
    const dueNow = at(now.toISOString());
    expect(applyCheckIn(waiting, miss, now, dueNow)).toMatchObject({ ok: true, to: "no_show" });
  });
  it("refuses a no-show from a page that showed him waiting, when he has since arrived", () => {
    expect(applyCheckIn(arrived, miss, now, ON_THE_DAY)).toEqual({
      ok: false,
      error: CHECK_IN_MESSAGES.changedMeanwhile,
      field: "checkIn",
    });
    expect(applyCheckIn(waiting, missArrived, now, ON_THE_DAY)).toMatchObject({ ok: false });
  });
  it("refuses, as changed, a no-show from a page that said nothing of what it showed", () => {
    const parsed = parseForm(checkInSchema, { intent: "no-show", bookingId: BOOKING });
    expect(parsed.ok).toBe(true);
    const old = command({ intent: "no-show", bookingId: BOOKING });
    expect(applyCheckIn(waiting, old, now, ON_THE_DAY)).toEqual({
      ok: false,
      error: CHECK_IN_MESSAGES.changedMeanwhile,
      field: "checkIn",
    });
  });
  it("refuses a no-show once a sample is taken", () => {
    expect(applyCheckIn(sampled, miss, now, ON_THE_DAY)).toEqual({
      ok: false,
      error: CHECK_IN_MESSAGES.noShowAfterSample,
      field: "checkIn",
    });
  });
  it("records a sample, which means he arrived", () => {
    expect(applyCheckIn(waiting, sample, now, ON_THE_DAY)).toMatchObject({
      ok: true,
      to: "sample_taken",
      changes: { sampleId: "S-2", sampleTakenAt: now, arrivedAt: now, noShowAt: null },
    });
    expect(applyCheckIn(arrived, sample, now, ON_THE_DAY)).toMatchObject({
      changes: { arrivedAt: earlier },
    });
  });
  it("accepts the same sample id again, but not a different one", () => {
    const same = command({ intent: "sample", bookingId: BOOKING, sampleId: "s-1" });
    expect(applyCheckIn(sampled, same, now, ON_THE_DAY)).toMatchObject({
      ok: true,
      changed: false,
    });
    expect(applyCheckIn(sampled, sample, now, ON_THE_DAY)).toEqual({
      ok: false,
      error: CHECK_IN_MESSAGES.sampleAlready("S-1"),
      field: "sampleId",
    });
  });
  it("undoes the state the page showed, and only that", () => {
    const undo = (from: string) =>
      command({
        intent: "undo",
        bookingId: BOOKING,
        from,
        ...(from === "sample_taken" && { sampleId: "S-1" }),
      });
    expect(applyCheckIn(sampled, undo("sample_taken"), now, ON_THE_DAY)).toMatchObject({
      ok: true,
      to: "arrived",
      changes: { sampleId: null, sampleTakenAt: null },
    });
    expect(applyCheckIn(arrived, undo("arrived"), now, ON_THE_DAY)).toMatchObject({
      to: "waiting",
      changes: { arrivedAt: null },
    });
    expect(applyCheckIn(noShow, undo("no_show"), now, ON_THE_DAY)).toMatchObject({
      to: "waiting",
      changes: { noShowAt: null },
    });
    expect(applyCheckIn(sampled, undo("arrived"), now, ON_THE_DAY)).toEqual({
      ok: false,
      error: CHECK_IN_MESSAGES.changedMeanwhile,
      field: "checkIn",
    });
  });
});

describe("undoing a sample", () => {
  const undoSample = (sampleId?: string) =>
    command({
      intent: "undo",
      bookingId: BOOKING,
      from: "sample_taken",
      ...(sampleId && { sampleId }),
    });
  const changedMeanwhile = {
    ok: false,
    error: CHECK_IN_MESSAGES.changedMeanwhile,
    field: "checkIn",
  };

  it("undoes the sample whose id the page showed, in any case", () => {
    expect(applyCheckIn(sampled, undoSample("s-1"), now, ON_THE_DAY)).toEqual({
      ok: true,
      from: "sample_taken",
      to: "arrived",
      changed: true,
      changes: { sampleId: null, sampleTakenAt: null },
    });
  });

  it("will not take away a newer sample another tablet recorded after this page was loaded", () => {
    const newer: CheckInFields = { ...sampled, sampleId: "RIGHT-02" };
    expect(applyCheckIn(newer, undoSample("WRONG-01"), now, ON_THE_DAY)).toEqual(changedMeanwhile);
    // A page from before the sample's id was sent with its undo cannot say which it showed.
    expect(applyCheckIn(newer, undoSample(), now, ON_THE_DAY)).toEqual(changedMeanwhile);
  });

  it("undoes a sample whose id was erased with an old record, which has none to name", () => {
    const erased: CheckInFields = { ...sampled, sampleId: null };
    expect(applyCheckIn(erased, undoSample(), now, ON_THE_DAY)).toMatchObject({
      ok: true,
      to: "arrived",
    });
  });
});

describe("an undo that is already done", () => {
  it("answers done, changing nothing: a second tap on a slow line, or another tablet's undo", () => {
    const again = (from: string, sampleId?: string) =>
      command({ intent: "undo", bookingId: BOOKING, from, ...(sampleId && { sampleId }) });
    const unchanged = (state: string) => ({
      ok: true,
      from: state,
      to: state,
      changed: false,
      changes: {},
    });
    expect(applyCheckIn(waiting, again("arrived"), now, ON_THE_DAY)).toEqual(unchanged("waiting"));
    expect(applyCheckIn(waiting, again("no_show"), now, ON_THE_DAY)).toEqual(unchanged("waiting"));
    expect(applyCheckIn(arrived, again("sample_taken", "S-1"), now, ON_THE_DAY)).toEqual(
      unchanged("arrived"),
    );
    // Not done, but something else: a no-show where the page showed an arrival stays refused.
    expect(applyCheckIn(noShow, again("arrived"), now, ON_THE_DAY)).toMatchObject({ ok: false });
  });
});

// Issue 14, item 10: an appointment 10 days away was checked in, sampled, imported and released.
describe("check-in before the appointment's day", () => {
  const tenDaysBefore = new Date("2026-05-31T09:00:00Z");
  const early = { today: "2026-05-31", appointmentDate: "2026-06-10" };
  const refusal = {
    ok: false,
    error: "Check-in opens on the day of the appointment, Wednesday, 10 June 2026.",
    field: "checkIn",
  };

  it("refuses arrived, no-show and sample taken", () => {
    const arrive = command({ intent: "arrived", bookingId: BOOKING });
    const miss = command({ intent: "no-show", bookingId: BOOKING, from: "waiting" });
    const sample = command({ intent: "sample", bookingId: BOOKING, sampleId: "S-1" });
    expect(applyCheckIn(waiting, arrive, tenDaysBefore, early)).toEqual(refusal);
    expect(applyCheckIn(waiting, miss, tenDaysBefore, early)).toEqual(refusal);
    expect(applyCheckIn(waiting, sample, tenDaysBefore, early)).toEqual(refusal);
    // The day before, in the evening, is still before the day.
    const dayBefore = { today: "2026-06-09", appointmentDate: "2026-06-10" };
    const evening = new Date("2026-06-09T22:30:00Z");
    expect(applyCheckIn(waiting, arrive, evening, dayBefore)).toEqual(refusal);
  });

  it("still lets a mark made earlier be undone", () => {
    const undo = command({ intent: "undo", bookingId: BOOKING, from: "arrived" });
    expect(applyCheckIn(arrived, undo, tenDaysBefore, early)).toMatchObject({
      ok: true,
      to: "waiting",
    });
  });

  it("opens on the day and stays open after it", () => {
    const arrive = command({ intent: "arrived", bookingId: BOOKING });
    expect(applyCheckIn(waiting, arrive, now, ON_THE_DAY)).toMatchObject({ ok: true });
    const dayAfter = { today: "2026-06-11", appointmentDate: "2026-06-10" };
    expect(applyCheckIn(waiting, arrive, now, dayAfter)).toMatchObject({ ok: true });
    expect(checkInOpen(ON_THE_DAY)).toBe(true);
    expect(checkInOpen(early)).toBe(false);
  });
});

describe("closing time, when everyone still waiting may be marked a no-show", () => {
  // 10 June 2026 is summer time: London is UTC+1, so 12:00 there is 11:00 UTC.
  const event = { eventDate: "2026-06-10", endTime: "12:00" };
  it("is reached at the event's end, London time, and stays reached", () => {
    expect(closingTimeReached(event, new Date("2026-06-10T10:59:59Z"))).toBe(false);
    expect(closingTimeReached(event, new Date("2026-06-10T11:00:00Z"))).toBe(true);
    expect(closingTimeReached(event, new Date("2026-06-12T08:00:00Z"))).toBe(true);
  });
  it("is not reached on an earlier day", () => {
    expect(closingTimeReached(event, new Date("2026-06-09T23:30:00Z"))).toBe(false);
  });
});
