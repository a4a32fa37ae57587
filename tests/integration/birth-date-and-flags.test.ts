import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { outboxEmail, testResult } from "#app/db/schema";
import { PermissionDenied } from "#app/domain/permissions";
import type { ResultCorrection } from "#app/domain/result-release";
import { correctAttendeeDetails } from "#app/services/attendee-details.server";
import { listAppointmentsAndResults } from "#app/services/booking/appointments.server";
import { updateOwnProfile } from "#app/services/profiles.server";
import {
  commitImport,
  confirmReleasedFlag,
  correctResult,
  createImport,
  listResults,
  releaseResult,
  viewResult,
} from "#app/services/results-admin.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  insertFreeEvent,
  insertPatient,
  insertStaff,
  portalEditOf,
  type StaffMember,
} from "#tests/support/fixtures";
import { insertSampledBooking } from "#tests/support/fixtures/results";

/**
 * A man's date of birth changes after his result came in: the flag suggested for his age is worked
 * out again, and a released flag decided for another age band goes to the clinicians to check. The
 * seeded thresholds (migration 0006): 1.00 ng/ml from 40 to 49, 2.00 from 50 to 59.
 */

const database = testDatabaseForThisFile();

const EVENT_DATE = "2026-06-10";
const NOW = new Date("2026-06-20T09:00:00Z");
const LATER = new Date("2026-06-21T09:00:00Z");
/** 55 on the event's day: 1.50 is below his band's 2.00, so green is suggested. */
const BORN_AT_55 = "1971-01-15";
/** 45 on the event's day: 1.50 is at or above his band's 1.00, so amber is suggested. */
const BORN_AT_45 = "1981-01-15";

let clinician: StaffMember["actor"];
let coordinator: StaffMember["actor"];
let eventId: string;
beforeAll(async () => {
  const { db } = database;
  eventId = (await insertFreeEvent(db, { eventDate: EVENT_DATE })).id;
  clinician = (await insertStaff(db, ["clinician"])).actor;
  coordinator = (await insertStaff(db, ["coordinator"])).actor;
});

/** A sampled booking whose PSA came in through the laboratory's file; released when told. */
async function resultFor(
  psa: string,
  dateOfBirth: string | null,
  release?: { flag: "green" | "amber" | "red"; retestYears: number | null },
  sampleDate = "",
) {
  const { db } = database;
  const man = await insertPatient(db, { dateOfBirth });
  const place = await insertSampledBooking(db, {
    eventId,
    userId: man.id,
    eventDate: EVENT_DATE,
  });
  const text = `reference,sample id,psa,unit,sample date\r\n${place.reference},,${psa},ng/ml,${sampleDate}\r\n`;
  const created = await createImport(db, clinician, { filename: "lab.csv", text }, NOW);
  if (!created.ok) throw new Error(`import refused: ${created.error}`);
  expect(await commitImport(db, clinician, created.id, NOW)).toMatchObject({ imported: 1 });
  const resultId = (await stored(place.id)).id;
  if (release) {
    const released = await releaseResult(
      db,
      clinician,
      resultId,
      { ...release, comments: null, seen: await seenOf(place.id) },
      NOW,
    );
    expect(released).toEqual({ ok: true });
  }
  return { man, place, resultId };
}

async function stored(bookingId: string) {
  const [row] = await database.db
    .select()
    .from(testResult)
    .where(eq(testResult.bookingId, bookingId));
  return row!;
}

async function seenOf(bookingId: string) {
  return (await stored(bookingId)).updatedAt.toISOString();
}

/** His own correction on the portal's form: everything as it is but the date. */
async function correctsHisOwnDate(userId: string, dateOfBirth: string | null) {
  const edit = await portalEditOf(database.db, userId, { dateOfBirth });
  return updateOwnProfile(database.db, userId, edit, LATER);
}

/** A clinician's correction of a released 1.50, made on the version as it is now. */
async function clinicianCorrects(
  resultId: string,
  bookingId: string,
  decision: Omit<ResultCorrection, "psaValue" | "seen">,
) {
  const correction = { psaValue: "1.50", ...decision, seen: await seenOf(bookingId) };
  return correctResult(database.db, clinician, resultId, correction, LATER);
}

const mailTo = (email: string) =>
  database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email));

describe("a date of birth corrected before release", () => {
  it("gets the result the suggestion for his real age, and a release opened before is refused", async () => {
    const { man, place, resultId } = await resultFor("1.50", BORN_AT_55);
    expect(await stored(place.id)).toMatchObject({ suggestedFlag: "green" });
    const openedAt = await seenOf(place.id);

    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });

    expect(await stored(place.id)).toMatchObject({
      suggestedFlag: "amber",
      flagCheckSince: null,
      releasedAt: null,
    });
    const release = await releaseResult(
      database.db,
      clinician,
      resultId,
      { flag: "green", retestYears: 2, comments: null, seen: openedAt },
      LATER,
    );
    expect(release).toEqual({ ok: false, reason: "changed" });
    expect(await stored(place.id)).toMatchObject({ flag: null, releasedAt: null });
  });

  it("counts his age to the laboratory's sample date, not the event's day", async () => {
    // Born 15 June 1976: 49 on the event's day (10 June), 50 on the sample date (20 June).
    const { man, place } = await resultFor("1.50", BORN_AT_45, undefined, "2026-06-20");
    expect(await correctsHisOwnDate(man.id, "1976-06-15")).toEqual({ ok: true });
    // At 50 the threshold is 2.00: green. (At 49 it would be 1.00: amber.)
    expect(await stored(place.id)).toMatchObject({
      sampleDate: "2026-06-20",
      suggestedFlag: "green",
    });
  });

  it("refuses a release opened for his old age even when the suggestion stays", async () => {
    // 2.50 is above both bands' thresholds: amber at 55 and at 45. The clinician opened the page
    // for a man of 55 and may choose green for him; at 45 he must look again.
    const { man, place, resultId } = await resultFor("2.50", BORN_AT_55);
    const openedAt = await seenOf(place.id);
    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });

    expect(await stored(place.id)).toMatchObject({ suggestedFlag: "amber" });
    const release = await releaseResult(
      database.db,
      clinician,
      resultId,
      { flag: "green", retestYears: 1, comments: null, seen: openedAt },
      LATER,
    );
    expect(release).toEqual({ ok: false, reason: "changed" });
  });

  it("leaves a result alone when his age at the sample is the same", async () => {
    // A day later, still 55 on the event's day.
    const { man, place } = await resultFor("1.50", BORN_AT_55);
    const before = await stored(place.id);
    expect(await correctsHisOwnDate(man.id, "1971-01-16")).toEqual({ ok: true });
    expect(await stored(place.id)).toEqual(before);
  });
});

describe("a date of birth corrected after release", () => {
  it("puts a flag decided for another age band on the clinicians' list; his result is unchanged", async () => {
    const { db } = database;
    const { man, place, resultId } = await resultFor("1.50", BORN_AT_55, {
      flag: "green",
      retestYears: 2,
    });
    const mailsBefore = (await mailTo(man.email)).length;

    const saved = await correctAttendeeDetails(db, coordinator, {
      eventId,
      bookingId: place.id,
      details: { dateOfBirth: BORN_AT_45, nhsNumber: man.nhsNumber },
      now: LATER,
    });
    expect(saved).toMatchObject({ outcome: "saved", changed: true });

    const after = await stored(place.id);
    expect(after).toMatchObject({
      suggestedFlag: "amber",
      flag: "green",
      retestYears: 2,
      releasedAt: NOW,
      correctedAt: null,
    });
    expect(after.flagCheckSince).toEqual(LATER);
    expect((await listResults(db, clinician, "to-check")).map((row) => row.id)).toContain(resultId);
    // He still reads what the clinician released, and is told nothing new.
    const [shown] = await listAppointmentsAndResults(db, man.id, LATER);
    expect(shown?.result).toMatchObject({ flag: "green" });
    expect(await mailTo(man.email)).toHaveLength(mailsBefore);
  });

  it("is answered by a clinician confirming the flag: audited, off the list, nothing e-mailed", async () => {
    const { db } = database;
    const { man, place, resultId } = await resultFor("1.50", BORN_AT_55, {
      flag: "green",
      retestYears: 2,
    });
    const openedBefore = await seenOf(place.id);
    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });
    expect((await stored(place.id)).flagCheckSince).toEqual(LATER);
    const mailsBefore = (await mailTo(man.email)).length;

    await expect(
      confirmReleasedFlag(db, coordinator, resultId, await seenOf(place.id), LATER),
    ).rejects.toBeInstanceOf(PermissionDenied);
    // A page opened before his date changed did not show the question.
    expect(await confirmReleasedFlag(db, clinician, resultId, openedBefore, LATER)).toEqual({
      ok: false,
      reason: "changed",
    });
    // Nor did one opened before it changed again (to 44): the question was about a man of 45.
    const askedAt45 = await seenOf(place.id);
    expect(await correctsHisOwnDate(man.id, "1981-12-01")).toEqual({ ok: true });
    expect(await confirmReleasedFlag(db, clinician, resultId, askedAt45, LATER)).toEqual({
      ok: false,
      reason: "changed",
    });
    expect(
      await confirmReleasedFlag(db, clinician, resultId, await seenOf(place.id), LATER),
    ).toEqual({ ok: true });

    expect(await stored(place.id)).toMatchObject({
      flagCheckSince: null,
      flag: "green",
      suggestedFlag: "amber",
    });
    expect((await listResults(db, clinician, "to-check")).map((row) => row.id)).not.toContain(
      resultId,
    );
    expect(
      await auditRows(db, { action: "result.flag-confirm", entityId: resultId }),
    ).toMatchObject([{ actorUserId: clinician.id, subjectUserId: man.id }]);
    expect(await mailTo(man.email)).toHaveLength(mailsBefore);
    expect(
      await confirmReleasedFlag(db, clinician, resultId, await seenOf(place.id), LATER),
    ).toEqual({ ok: false, reason: "not-asked" });
  });

  it("is answered by a correction of the result", async () => {
    const { db } = database;
    const { man, place, resultId } = await resultFor("1.50", BORN_AT_55, {
      flag: "green",
      retestYears: 2,
    });
    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });
    const corrected = await clinicianCorrects(resultId, place.id, {
      flag: "amber",
      retestYears: null,
      comments: null,
      reason: "flag-reviewed",
    });
    expect(corrected).toEqual({ ok: true, changed: ["flag", "retestYears"], told: true });
    // Amber is now the flag decided for a man of 45.
    expect(await stored(place.id)).toMatchObject({
      flagCheckSince: null,
      flag: "amber",
      flagDecidedAge: 45,
    });
    expect(await auditRows(db, { action: "result.correct", entityId: resultId })).toMatchObject([
      { details: { fields: "flag,retestYears", reason: "flag-reviewed", flagCheckAnswered: true } },
    ]);
    expect((await viewResult(db, clinician, resultId))!.flagCheckSince).toBeNull();
  });

  it("is asked whatever the flag given, and kept when the date goes back", async () => {
    // At 55 the clinician gave amber over a green suggestion; at 45 amber is what is suggested,
    // yet he was judged as a man of another band.
    const { man, place } = await resultFor("1.50", BORN_AT_55, {
      flag: "amber",
      retestYears: null,
    });
    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });
    expect(await stored(place.id)).toMatchObject({ suggestedFlag: "amber" });
    expect((await stored(place.id)).flagCheckSince).toEqual(LATER);

    // Put back: only a clinician answers the question.
    expect(await correctsHisOwnDate(man.id, BORN_AT_55)).toEqual({ ok: true });
    expect(await stored(place.id)).toMatchObject({ suggestedFlag: "green" });
    expect((await stored(place.id)).flagCheckSince).toEqual(LATER);
  });

  it("is not asked for a date within the same band, nor for a date removed", async () => {
    // 55 and 57 are both in the 50s band.
    const { man, place } = await resultFor("1.50", BORN_AT_55, { flag: "green", retestYears: 2 });
    expect(await correctsHisOwnDate(man.id, "1969-01-15")).toEqual({ ok: true });
    expect(await stored(place.id)).toMatchObject({
      flagCheckSince: null,
      flag: "green",
      suggestedFlag: "green",
    });

    // Removed (allowed once nothing is to come): nothing to check the flag against.
    expect(await correctsHisOwnDate(man.id, null)).toEqual({ ok: true });
    expect(await stored(place.id)).toMatchObject({ flagCheckSince: null, flag: "green" });
  });

  it("is not asked when a removed date comes back in the band his flag was decided for", async () => {
    const { man, place } = await resultFor("1.50", BORN_AT_55, { flag: "green", retestYears: 2 });
    expect(await correctsHisOwnDate(man.id, null)).toEqual({ ok: true });

    // 57: the band of the 55 his flag was decided for.
    expect(await correctsHisOwnDate(man.id, "1969-01-15")).toEqual({ ok: true });
    expect(await stored(place.id)).toMatchObject({ flagCheckSince: null, suggestedFlag: "green" });

    // Gone again, then back as 45: another band than 55.
    expect(await correctsHisOwnDate(man.id, null)).toEqual({ ok: true });
    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });
    expect((await stored(place.id)).flagCheckSince).toEqual(LATER);
  });

  it("is asked against the age the flag was last decided for: at release, or when it stood", async () => {
    const { db } = database;
    const { man, place, resultId } = await resultFor("1.50", BORN_AT_55, {
      flag: "green",
      retestYears: 2,
    });
    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });
    expect(
      await confirmReleasedFlag(db, clinician, resultId, await seenOf(place.id), LATER),
    ).toEqual({ ok: true });

    // Green now stands for a man of 45: a date removed and put back at 45 asks nothing...
    expect(await correctsHisOwnDate(man.id, null)).toEqual({ ok: true });
    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });
    expect((await stored(place.id)).flagCheckSince).toBeNull();
    // ...while 55 again is another band than the one it stood for.
    expect(await correctsHisOwnDate(man.id, BORN_AT_55)).toEqual({ ok: true });
    expect((await stored(place.id)).flagCheckSince).toEqual(LATER);
  });

  it("is asked for a flag released when his date of birth was not known", async () => {
    const { db } = database;
    // A man whose date of birth was never on record (older accounts, or staff who left it out).
    const { man, place, resultId } = await resultFor("1.50", null);
    const released = await releaseResult(
      db,
      clinician,
      resultId,
      { flag: "green", retestYears: 2, comments: null, seen: await seenOf(place.id) },
      LATER,
    );
    expect(released).toEqual({ ok: true });
    expect(await stored(place.id)).toMatchObject({ flagDecidedAge: null, suggestedFlag: null });

    expect(await correctsHisOwnDate(man.id, BORN_AT_55)).toEqual({ ok: true });
    expect((await stored(place.id)).flagCheckSince).toEqual(LATER);
  });

  it("is left open by a correction of the comments alone", async () => {
    const { man, place, resultId } = await resultFor("1.50", BORN_AT_55, {
      flag: "green",
      retestYears: 2,
    });
    expect(await correctsHisOwnDate(man.id, BORN_AT_45)).toEqual({ ok: true });
    const corrected = await clinicianCorrects(resultId, place.id, {
      flag: "green",
      retestYears: 2,
      comments: "Please read the leaflet about PSA.",
      reason: "comments-changed",
    });
    expect(corrected).toEqual({ ok: true, changed: ["comments"], told: true });
    expect(await stored(place.id)).toMatchObject({ flagCheckSince: LATER, flagDecidedAge: 55 });
  });
});
