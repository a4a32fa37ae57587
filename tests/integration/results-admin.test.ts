import crypto from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "#app/config.server";
import {
  auditLog,
  booking,
  event,
  outboxEmail,
  psaThreshold,
  resultImport,
  testResult,
  testResultRevision,
} from "#app/db/schema";
import { thresholdFieldName } from "#app/domain/psa-flag";
import { IMPORT_MESSAGES } from "#app/domain/result-import";
import { listAppointmentsAndResults } from "#app/services/booking/appointments.server";
import {
  commitImport,
  correctionDates,
  correctResult,
  createImport,
  lastWithdrawalBy,
  listResults,
  listThresholds,
  releaseResult,
  saveThresholds,
  viewImport,
  viewResult,
  withdrawResult,
} from "#app/services/results-admin.server";
import { PermissionDenied } from "#app/domain/permissions";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  insertBooking,
  insertFreeEvent,
  insertPatient,
  insertStaff,
  type StaffMember,
  uniqueId,
} from "#tests/support/fixtures";

type Clinician = StaffMember["actor"];

/** The fixture's event day; results arrive ten days later. */
const EVENT_DATE = "2026-06-10";
const NOW = new Date("2026-06-20T09:00:00Z");

const database = testDatabaseForThisFile();
let clinician: Clinician;
let otherClinician: Clinician;
let eventId: string;
beforeAll(async () => {
  const { db } = database;
  eventId = (await insertFreeEvent(db, { eventDate: EVENT_DATE })).id;
  const options = { clientAddress: "203.0.113.9" };
  clinician = (await insertStaff(db, ["clinician"], options)).actor;
  otherClinician = (await insertStaff(db, ["clinician"], options)).actor;
});

/** A man (45 on the event's day unless told) with a confirmed booking at the event. */
async function bookedPatient(
  options: {
    dateOfBirth?: string | null;
    /** Recorded at check-in; null for a booking whose sample was never taken. */
    sampleId?: string | null;
    status?: "confirmed" | "cancelled";
  } = {},
) {
  const { db } = database;
  const patient = await insertPatient(db, {
    dateOfBirth: options.dateOfBirth === undefined ? "1981-01-15" : options.dateOfBirth,
  });
  const sampleId = options.sampleId === undefined ? `AUTO-${uniqueId()}` : options.sampleId;
  const made = await insertBooking(db, {
    eventId,
    userId: patient.id,
    status: options.status ?? "confirmed",
    confirmedAt: new Date("2026-06-01T09:00:00Z"),
    sampleId,
    // A sample id is recorded at check-in together with the time the sample was taken.
    sampleTakenAt: sampleId ? new Date("2026-06-10T09:10:00Z") : null,
  });
  return {
    userId: patient.id,
    email: patient.email,
    reference: made.reference,
    bookingId: made.id,
    sampleId,
  };
}

function csv(lines: string[]) {
  return ["reference,sample id,psa,unit,sample date", ...lines].join("\r\n") + "\r\n";
}

async function importFile(text: string, by: Clinician = clinician) {
  const created = await createImport(database.db, by, { filename: "lab.csv", text }, NOW);
  if (!created.ok) throw new Error(`import refused: ${created.error}`);
  return created.id;
}

function resultOf(bookingId: string) {
  return database.db.select().from(testResult).where(eq(testResult.bookingId, bookingId));
}

/** The version a page opened now would show (the `seen` field of its forms). */
async function seenOf(resultId: string) {
  const [row] = await database.db
    .select({ updatedAt: testResult.updatedAt })
    .from(testResult)
    .where(eq(testResult.id, resultId));
  return row!.updatedAt.toISOString();
}

describe("importing the laboratory's file", () => {
  it("previews one good row and one unknown reference, then commits exactly one result", async () => {
    const { db } = database;
    // Born 15 January 1981: 45 on the event's day, so the 40-49 band (1.00) applies.
    const good = await bookedPatient();
    const id = await importFile(
      csv([`${good.reference},,1.00,ng/mL,`, "MHAT-ZZZZ-ZZZZ,,0.50,ng/ml,"]),
    );

    const preview = await viewImport(db, clinician, id);
    expect(preview!.counts).toEqual({ rows: 2, good: 1, errors: 1 });
    const [first, second] = preview!.rows;
    expect(first).toMatchObject({
      errors: [],
      age: 45,
      suggestedFlag: "amber",
      patient: { reference: good.reference, name: expect.stringContaining("Arthur") },
    });
    expect(second!.errors).toEqual([IMPORT_MESSAGES.unknownReference]);
    expect(await resultOf(good.bookingId)).toHaveLength(0);

    const previewAudit = await auditRows(db, { action: "results.import.preview", entityId: id });
    expect(previewAudit).toHaveLength(1);
    expect(previewAudit[0]!.details).toEqual({ rows: 2, good: 1, errors: 1 });
    expect(previewAudit[0]!.actorUserId).toBe(clinician.id);
    const viewed = await auditRows(db, { action: "results.view", entityId: id });
    expect(viewed.map((row) => row.subjectUserId)).toEqual([good.userId]);

    const resultsBefore = await db.select({ id: testResult.id }).from(testResult);
    const committed = await commitImport(db, clinician, id, NOW);
    expect(committed).toEqual({ status: "committed", imported: 1, replaced: 0, skipped: 1 });
    const [saved] = await resultOf(good.bookingId);
    expect(saved).toMatchObject({
      psaValue: "1.00",
      unit: "ng/ml",
      sampleDate: EVENT_DATE,
      suggestedFlag: "amber",
      importedBy: clinician.id,
      releasedAt: null,
      flag: null,
    });
    // The one new result in the whole database is this one.
    const resultsAfter = await db.select({ id: testResult.id }).from(testResult);
    const before = new Set(resultsBefore.map((row) => row.id));
    expect(resultsAfter.filter((row) => !before.has(row.id)).map((row) => row.id)).toEqual([
      saved!.id,
    ]);
    expect(resultsAfter).toHaveLength(resultsBefore.length + 1);

    const commitAudit = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "results.import.commit"));
    const summary = commitAudit.find((row) => row.entityId === id)!;
    expect(summary.details).toEqual({ rows: 2, imported: 1, replaced: 0, skipped: 1 });
    const perPatient = commitAudit.filter((row) => row.entityId === saved!.id);
    expect(perPatient.map((row) => row.subjectUserId)).toEqual([good.userId]);
    // Audit details carry counts and ids only: no value anywhere.
    for (const row of [...commitAudit, ...previewAudit])
      expect(JSON.stringify(row.details)).not.toContain("1.00");

    // A second commit changes nothing.
    expect(await commitImport(db, clinician, id, NOW)).toEqual({ status: "already-committed" });
    expect(
      (await auditRows(db, { action: "results.import.commit" })).filter(
        (row) => row.entityId === id,
      ),
    ).toHaveLength(1);
    const [stored] = await db.select().from(resultImport).where(eq(resultImport.id, id));
    expect(stored!.committedAt).not.toBeNull();
  });

  it("refuses every row of a booking named twice, and a booking whose result is released", async () => {
    const { db } = database;
    const twice = await bookedPatient({ sampleId: "LAB-2001" });
    const single = await bookedPatient();
    const released = await bookedPatient();
    await db.insert(testResult).values({
      bookingId: released.bookingId,
      psaValue: "0.40",
      flag: "green",
      retestYears: 2,
      releasedAt: new Date("2026-06-15T09:00:00Z"),
    });
    const id = await importFile(
      csv([
        `${twice.reference},,1.10,ng/ml,`,
        `,lab-2001,1.20,ng/ml,`,
        `${single.reference},,0.70,ng/ml,2026-06-10`,
        `${released.reference},,0.90,ng/ml,`,
      ]),
    );
    const preview = await viewImport(db, clinician, id);
    expect(preview!.rows.map((row) => row.errors)).toEqual([
      [IMPORT_MESSAGES.duplicateInFile([2, 3])],
      [IMPORT_MESSAGES.duplicateInFile([2, 3])],
      [],
      [IMPORT_MESSAGES.alreadyReleased],
    ]);
    // A refused row's age and suggested flag are not shown, and not sent: a good row's are.
    expect(preview!.rows.map((row) => [row.age, row.suggestedFlag])).toEqual([
      [null, null],
      [null, null],
      [expect.any(Number), expect.any(String)],
      [null, null],
    ]);
    expect(await commitImport(db, clinician, id, NOW)).toMatchObject({ imported: 1, skipped: 3 });
    expect(await resultOf(twice.bookingId)).toHaveLength(0);
    expect((await resultOf(single.bookingId))[0]!.psaValue).toBe("0.70");
    const [kept] = await resultOf(released.bookingId);
    expect(kept).toMatchObject({ psaValue: "0.40", flag: "green" });
  });

  it("matches by sample id, checks it agrees with the reference, and replaces an unreleased result", async () => {
    const { db } = database;
    const bySample = await bookedPatient({ sampleId: "S-3001" });
    const other = await bookedPatient({ sampleId: "S-3002" });
    const first = await importFile(csv([",s-3001,3.10,ng/ml,"]));
    await commitImport(db, clinician, first, NOW);
    expect((await resultOf(bySample.bookingId))[0]!.psaValue).toBe("3.10");

    const second = await importFile(
      csv([`${bySample.reference},S-3001,3.20,ug/l,`, `${other.reference},S-3001,1.00,ng/ml,`]),
    );
    const preview = await viewImport(db, clinician, second);
    expect(preview!.rows[0]).toMatchObject({ errors: [], replaces: true });
    expect(preview!.rows[0]!.notes).toContain(IMPORT_MESSAGES.replaces);
    expect(preview!.rows[1]!.errors).toEqual([IMPORT_MESSAGES.disagree]);
    expect(await commitImport(db, clinician, second, NOW)).toEqual({
      status: "committed",
      imported: 1,
      replaced: 1,
      skipped: 1,
    });
    const rows = await resultOf(bySample.bookingId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ psaValue: "3.20", unit: "ng/ml" });
    expect(await resultOf(other.bookingId)).toHaveLength(0);
  });

  // Issue 14, item 10: results came in for a booking whose sample had not been taken.
  it("refuses a results row for a booking without a sample taken: its reason shows and it is not imported", async () => {
    const { db } = database;
    const unsampled = await bookedPatient({ sampleId: null });
    const sampled = await bookedPatient({ sampleId: "S-4001" });
    const created = await createImport(
      db,
      clinician,
      {
        filename: `lab\u0000\r\n\u001b\u202e${"x".repeat(300)}.csv`,
        text: csv([`${unsampled.reference},,0.50,ng/ml,`, `${sampled.reference},,0.60,ng/ml,`]),
      },
      NOW,
    );
    if (!created.ok) throw new Error(created.error);
    const preview = await viewImport(db, clinician, created.id);
    expect(preview!.counts).toEqual({ rows: 2, good: 1, errors: 1 });
    expect(preview!.rows[0]!.errors).toEqual([IMPORT_MESSAGES.noSample]);
    expect(preview!.rows[1]!).toMatchObject({ errors: [], notes: [] });
    expect(await commitImport(db, clinician, created.id, NOW)).toEqual({
      status: "committed",
      imported: 1,
      replaced: 0,
      skipped: 1,
    });
    expect(await resultOf(unsampled.bookingId)).toEqual([]);
    expect(await resultOf(sampled.bookingId)).toHaveLength(1);
  });

  it("stores the file name without control characters", async () => {
    const { db } = database;
    const patient = await bookedPatient();
    const created = await createImport(
      db,
      clinician,
      {
        filename: `lab\u0000\r\n\u001b\u202e${"x".repeat(300)}.csv`,
        text: csv([`${patient.reference},,0.50,ng/ml,`]),
      },
      NOW,
    );
    if (!created.ok) throw new Error(created.error);
    const [stored] = await db.select().from(resultImport).where(eq(resultImport.id, created.id));
    expect(stored!.filename).toBe(`lab${"x".repeat(197)}`);
    expect(stored!.filename).toHaveLength(200);
  });

  it("refuses a booking that is not confirmed", async () => {
    const { db } = database;
    const cancelled = await bookedPatient({ status: "cancelled" });
    const id = await importFile(csv([`${cancelled.reference},,1.00,ng/ml,`]));
    expect((await viewImport(db, clinician, id))!.rows[0]!.errors).toEqual([
      IMPORT_MESSAGES.notConfirmed,
    ]);
  });

  it("refuses a file without the needed columns, with nothing stored", async () => {
    const { db } = database;
    const before = await db.select({ id: resultImport.id }).from(resultImport);
    const refused = await createImport(
      db,
      clinician,
      { filename: "x.csv", text: "reference,value\nMHAT-7KQ3-9XZ2,1\n" },
      NOW,
    );
    expect(refused).toEqual({ ok: false, error: IMPORT_MESSAGES.missingColumns(['"unit"']) });
    expect(await db.select({ id: resultImport.id }).from(resultImport)).toHaveLength(before.length);
  });

  it("shows an import only to the clinician who uploaded it", async () => {
    const { db } = database;
    const patient = await bookedPatient();
    const id = await importFile(csv([`${patient.reference},,1.00,ng/ml,`]));
    expect(await viewImport(db, otherClinician, id)).toBeNull();
    expect(await commitImport(db, otherClinician, id, NOW)).toEqual({ status: "not-found" });
    expect(await resultOf(patient.bookingId)).toHaveLength(0);
    expect(await viewImport(db, clinician, "not-a-uuid")).toBeNull();
    expect(await viewImport(db, clinician, crypto.randomUUID())).toBeNull();
    expect(await viewImport(db, clinician, id)).not.toBeNull();
  });
});

describe("thresholds", () => {
  it("an edited threshold changes the suggestion; saving is audited", async () => {
    const { db } = database;
    // Born 1 March 1961: 65 on the event's day, in the 60-69 band, which has no threshold.
    const sixtyFive = await bookedPatient({ dateOfBirth: "1961-03-01" });
    const before = await importFile(csv([`${sixtyFive.reference},,2.50,ng/ml,`]));
    const row = (await viewImport(db, clinician, before))!.rows[0]!;
    expect(row).toMatchObject({ errors: [], age: 65, suggestedFlag: null });
    expect(row.notes).toEqual([IMPORT_MESSAGES.noThreshold]);

    const bands = await listThresholds(db);
    const sixties = bands.find((band) => band.minAge === 60)!;
    const fifties = bands.find((band) => band.minAge === 50)!;
    expect(fifties.thresholdNgMl).toBe("2.00");
    try {
      // The page posts every band's field: each as it was, but the sixties' typed in.
      const form = Object.fromEntries(
        bands.map((band) => [thresholdFieldName(band.id), band.thresholdNgMl ?? ""]),
      );
      form[thresholdFieldName(sixties.id)] = "2.50";
      const saved = await saveThresholds(db, clinician, form);
      expect(saved).toEqual({ ok: true, changed: 1 });
      const [audit] = (await auditRows(db, { action: "thresholds.update" })).slice(-1);
      expect(audit).toMatchObject({ actorUserId: clinician.id, details: { bands: 5, changed: 1 } });

      const after = await importFile(csv([`${sixtyFive.reference},,2.50,ng/ml,`]));
      expect((await viewImport(db, clinician, after))!.rows[0]!.suggestedFlag).toBe("amber");
      const lower = await importFile(csv([`${sixtyFive.reference},,2.49,ng/ml,`]));
      expect((await viewImport(db, clinician, lower))!.rows[0]!.suggestedFlag).toBe("green");
    } finally {
      await db
        .update(psaThreshold)
        .set({ thresholdNgMl: null })
        .where(eq(psaThreshold.id, sixties.id));
    }
  });
});

describe("a thresholds post without its band fields (issue 14, item 9)", () => {
  it("is refused with a message for each band; no threshold changes and nothing is audited", async () => {
    const { db } = database;
    const before = await listThresholds(db);
    const audited = (await auditRows(db, { action: "thresholds.update" })).length;
    const saved = await saveThresholds(db, clinician, { intent: "save" });
    expect(saved.ok).toBe(false);
    expect(saved.ok ? {} : Object.keys(saved.fieldErrors).sort()).toEqual(
      before.map((band) => thresholdFieldName(band.id)).sort(),
    );
    expect(await listThresholds(db)).toEqual(before);
    expect(await auditRows(db, { action: "thresholds.update" })).toHaveLength(audited);
  });
});

describe("withdrawing a result whose sample was recorded for the wrong man", () => {
  it("removes an unreleased result and the sample recorded for him, so the same file cannot put it back", async () => {
    const { db } = database;
    const wrong = await bookedPatient();
    const file = csv([`${wrong.reference},,4.20,ng/ml,`]);
    await commitImport(db, clinician, await importFile(file), NOW);
    const [result] = await resultOf(wrong.bookingId);

    // A page opened before the last import is refused; the one opened now withdraws it.
    expect(await withdrawResult(db, clinician, result!.id, "2026-06-19T09:00:00.000Z")).toEqual({
      ok: false,
      reason: "changed",
    });
    expect(await withdrawResult(db, clinician, result!.id, await seenOf(result!.id), NOW)).toEqual({
      ok: true,
    });
    // The list's notice names the tube and its event, for him who withdrew it, for a while,
    // from the audit log (found by the event-day review; never from the address: the attacker's).
    const [ev] = await db.select().from(event).where(eq(event.id, eventId));
    // The audit log's clock is the database's: read it by the real time.
    expect(await lastWithdrawalBy(db, clinician)).toEqual({
      sampleId: wrong.sampleId,
      eventName: ev!.name,
      eventDate: ev!.eventDate,
    });
    expect(await lastWithdrawalBy(db, otherClinician)).toBeNull();
    expect(await lastWithdrawalBy(db, clinician, new Date(Date.now() + 16 * 60_000))).toBeNull();
    expect(await resultOf(wrong.bookingId)).toEqual([]);
    // He is back to "arrived", with no sample: the tube can go to the right man.
    const [row] = await db.select().from(booking).where(eq(booking.id, wrong.bookingId));
    expect(row).toMatchObject({
      sampleId: null,
      sampleTakenAt: null,
      arrivedAt: new Date("2026-06-10T09:10:00Z"),
    });
    const withdrawn = await auditRows(db, { action: "result.withdraw", entityId: result!.id });
    expect(
      withdrawn.map((entry) => [entry.actorUserId, entry.subjectUserId, entry.details]),
    ).toEqual([
      [
        clinician.id,
        wrong.userId,
        { bookingId: wrong.bookingId, eventId, sampleId: wrong.sampleId },
      ],
    ]);
    const undone = await auditRows(db, { action: "checkin.update", entityId: wrong.bookingId });
    expect(undone.map((entry) => entry.details)).toEqual([
      expect.objectContaining({ intent: "undo", from: "sample_taken", to: "arrived" }),
    ]);

    // The same file again: refused for him, as he has no sample now.
    const again = await viewImport(db, clinician, await importFile(file));
    expect(again!.rows[0]!.errors).toContain(IMPORT_MESSAGES.noSample);
    // Gone is gone: a second press finds nothing.
    expect(await withdrawResult(db, clinician, result!.id, "")).toEqual({
      ok: false,
      reason: "not-found",
    });
  });

  it("never removes a released result, and is not for staff who cannot import results", async () => {
    const { db } = database;
    const patient = await bookedPatient();
    await commitImport(
      db,
      clinician,
      await importFile(csv([`${patient.reference},,1.10,ng/ml,`])),
      NOW,
    );
    const [result] = await resultOf(patient.bookingId);
    const coordinator = (await insertStaff(db, ["coordinator"])).actor;
    await expect(
      withdrawResult(db, coordinator, result!.id, await seenOf(result!.id)),
    ).rejects.toBeInstanceOf(PermissionDenied);
    await releaseResult(
      db,
      clinician,
      result!.id,
      { flag: "green", retestYears: 3, comments: null, seen: await seenOf(result!.id) },
      NOW,
    );
    expect(await withdrawResult(db, clinician, result!.id, await seenOf(result!.id))).toEqual({
      ok: false,
      reason: "released",
    });
    expect(await resultOf(patient.bookingId)).toHaveLength(1);
  });
});

describe("release and correction", () => {
  async function importedResult(value = "1.37", options: Parameters<typeof bookedPatient>[0] = {}) {
    const patient = await bookedPatient(options);
    const id = await importFile(csv([`${patient.reference},,${value},ng/ml,`]));
    await commitImport(database.db, clinician, id, NOW);
    const [row] = await resultOf(patient.bookingId);
    return { patient, resultId: row!.id };
  }

  function mailTo(email: string) {
    return database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email));
  }

  // Issue 14, item 10: a result for an appointment that had not happened was released.
  it("refuses to release a result for a booking without a sample taken", async () => {
    const { db } = database;
    const patient = await bookedPatient({ sampleId: null });
    // Stored as an import before this rule would have stored it (imports now refuse the row).
    const [result] = await db
      .insert(testResult)
      .values({
        bookingId: patient.bookingId,
        psaValue: "1.37",
        unit: "ng/ml",
        sampleDate: EVENT_DATE,
        suggestedFlag: "amber",
        importedAt: NOW,
        importedBy: clinician.id,
        updatedAt: NOW,
      })
      .returning();
    const outcome = await releaseResult(
      db,
      clinician,
      result!.id,
      { flag: "amber", retestYears: null, comments: null, seen: await seenOf(result!.id) },
      NOW,
    );
    expect(outcome).toEqual({ ok: false, reason: "no-sample" });
    expect((await resultOf(patient.bookingId))[0]).toMatchObject({ releasedAt: null, flag: null });
    expect(await auditRows(db, { action: "result.release", entityId: result!.id })).toEqual([]);
    expect(await mailTo(patient.email)).toEqual([]);
    expect(await listAppointmentsAndResults(db, patient.userId, NOW)).toMatchObject([
      { result: null },
    ]);
  });

  it("the patient sees nothing until release; release e-mails him without the value or flag", async () => {
    const { db } = database;
    const { patient, resultId } = await importedResult("1.37");

    const beforeRelease = await listAppointmentsAndResults(db, patient.userId, NOW);
    expect(beforeRelease).toHaveLength(1);
    expect(beforeRelease[0]).toMatchObject({ result: null, labResultReady: false });
    expect(await mailTo(patient.email)).toHaveLength(0);

    const awaiting = await listResults(db, clinician, "awaiting");
    expect(awaiting.some((row) => row.id === resultId)).toBe(true);
    const listAudit = (await auditRows(db, { action: "results.view", entityId: resultId })).filter(
      (row) => row.subjectUserId === patient.userId,
    );
    expect(listAudit).toHaveLength(1);

    const viewed = await viewResult(db, clinician, resultId);
    expect(viewed).toMatchObject({ psaValue: "1.37", age: 45, suggestedFlag: "amber" });
    const viewAudit = await auditRows(db, { action: "result.view", entityId: resultId });
    expect(viewAudit.map((row) => row.subjectUserId)).toEqual([patient.userId]);
    expect(viewAudit[0]!.ipAddress).toBe("203.0.113.9");

    const released = await releaseResult(
      db,
      clinician,
      resultId,
      {
        flag: "amber",
        retestYears: null,
        comments: "Repeat the test in 3 months, please.",
        seen: await seenOf(resultId),
      },
      new Date("2026-06-20T10:00:00Z"),
    );
    expect(released).toEqual({ ok: true });
    // Once only.
    expect(
      await releaseResult(db, clinician, resultId, {
        flag: "red",
        retestYears: null,
        comments: null,
        seen: await seenOf(resultId),
      }),
    ).toEqual({ ok: false, reason: "already-released" });

    const [row] = await db.select().from(testResult).where(eq(testResult.id, resultId));
    expect(row).toMatchObject({ flag: "amber", releasedBy: clinician.id });
    expect(row!.releasedAt).toEqual(new Date("2026-06-20T10:00:00Z"));

    const mail = await mailTo(patient.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe("Your PSA test results are ready");
    expect(mail[0]!.text).toContain(`${config().publicBaseUrl}/medical-results`);
    for (const secret of ["1.37", "1,37", "Amber", "amber", "Repeat the test", "ng/ml"]) {
      expect(mail[0]!.text).not.toContain(secret);
      expect(mail[0]!.subject).not.toContain(secret);
    }

    const releaseAudit = await auditRows(db, { action: "result.release", entityId: resultId });
    expect(releaseAudit).toHaveLength(1);
    expect(releaseAudit[0]!.subjectUserId).toBe(patient.userId);

    const afterRelease = await listAppointmentsAndResults(
      db,
      patient.userId,
      new Date("2026-06-20T11:00:00Z"),
    );
    expect(afterRelease[0]!.result).toMatchObject({ value: "1.37", flag: "amber" });
  });

  it("Green keeps its retest interval; Amber and Red drop one", async () => {
    const { db } = database;
    const green = await importedResult("0.40");
    await releaseResult(db, clinician, green.resultId, {
      flag: "green",
      retestYears: 3,
      comments: null,
      seen: await seenOf(green.resultId),
    });
    expect(
      (await db.select().from(testResult).where(eq(testResult.id, green.resultId)))[0],
    ).toMatchObject({
      flag: "green",
      retestYears: 3,
    });
    const red = await importedResult("9.00");
    await releaseResult(db, clinician, red.resultId, {
      flag: "red",
      retestYears: 2,
      comments: null,
      seen: await seenOf(red.resultId),
    });
    expect(
      (await db.select().from(testResult).where(eq(testResult.id, red.resultId)))[0],
    ).toMatchObject({
      flag: "red",
      retestYears: null,
    });
  });

  it("a correction sets correctedAt, audits field names only, and e-mails the patient again", async () => {
    const { db } = database;
    const { patient, resultId } = await importedResult("0.80");
    expect(
      await correctResult(db, clinician, resultId, {
        psaValue: "0.90",
        flag: "green",
        retestYears: 1,
        comments: null,
        reason: "lab-corrected",
        seen: await seenOf(resultId),
      }),
    ).toEqual({ ok: false, reason: "not-released" });

    await releaseResult(
      db,
      clinician,
      resultId,
      { flag: "green", retestYears: 2, comments: null, seen: await seenOf(resultId) },
      new Date("2026-06-21T09:00:00Z"),
    );
    const unchanged = await correctResult(db, clinician, resultId, {
      psaValue: "0.80",
      flag: "green",
      retestYears: 2,
      comments: null,
      reason: "other",
      seen: await seenOf(resultId),
    });
    expect(unchanged).toEqual({ ok: false, reason: "unchanged" });

    const correctedAt = new Date("2026-06-25T09:00:00Z");
    const corrected = await correctResult(
      db,
      clinician,
      resultId,
      {
        psaValue: "1.20",
        flag: "amber",
        retestYears: 2,
        comments: null,
        reason: "lab-corrected",
        seen: await seenOf(resultId),
      },
      correctedAt,
    );
    expect(corrected).toEqual({
      ok: true,
      changed: ["psaValue", "flag", "retestYears"],
      told: true,
    });

    const [row] = await db.select().from(testResult).where(eq(testResult.id, resultId));
    expect(row).toMatchObject({
      psaValue: "1.20",
      flag: "amber",
      retestYears: null,
      suggestedFlag: "amber",
    });
    expect(row!.correctedAt).toEqual(correctedAt);

    const [audit] = await auditRows(db, { action: "result.correct", entityId: resultId });
    expect(audit).toMatchObject({
      subjectUserId: patient.userId,
      details: { fields: "psaValue,flag,retestYears", reason: "lab-corrected" },
    });
    expect(JSON.stringify(audit!.details)).not.toMatch(/0\.80|1\.20/);

    const mail = await mailTo(patient.email);
    expect(mail.map((message) => message.subject)).toEqual([
      "Your PSA test results are ready",
      "Your PSA test results have been updated",
    ]);
    for (const message of mail) expect(message.text).not.toMatch(/0\.80|1\.20|amber|green/i);

    const seen = await listAppointmentsAndResults(
      db,
      patient.userId,
      new Date("2026-06-26T09:00:00Z"),
    );
    expect(seen[0]!.result).toMatchObject({ value: "1.20", flag: "amber" });
    const [reference] = await db
      .select({ reference: booking.reference })
      .from(booking)
      .where(eq(booking.id, patient.bookingId));
    expect(await correctionDates(db, patient.userId)).toEqual({
      [reference!.reference]: correctedAt,
    });
  });

  it("keeps every replaced version of a released result, with who replaced it and why", async () => {
    const { db } = database;
    const { resultId } = await importedResult("0.80");
    const releasedAt = new Date("2026-06-21T09:00:00Z");
    await releaseResult(
      db,
      clinician,
      resultId,
      { flag: "green", retestYears: 2, comments: "All well.", seen: await seenOf(resultId) },
      releasedAt,
    );
    const revisions = () =>
      db
        .select()
        .from(testResultRevision)
        .where(eq(testResultRevision.testResultId, resultId))
        .orderBy(testResultRevision.replacedAt);
    expect(await revisions()).toHaveLength(0);

    const first = new Date("2026-06-25T09:00:00Z");
    expect(
      await correctResult(
        db,
        otherClinician,
        resultId,
        {
          psaValue: "1.20",
          flag: "amber",
          retestYears: null,
          comments: "Please repeat.",
          reason: "lab-corrected",
          seen: await seenOf(resultId),
        },
        first,
      ),
    ).toMatchObject({ ok: true });
    const once = await revisions();
    expect(once).toHaveLength(1);
    expect(once[0]).toMatchObject({
      psaValue: "0.80",
      unit: "ng/ml",
      flag: "green",
      retestYears: 2,
      comments: "All well.",
      releasedBy: clinician.id,
      replacedBy: otherClinician.id,
      reason: "lab-corrected",
    });
    expect(once[0]!.releasedAt).toEqual(releasedAt);
    expect(once[0]!.replacedAt).toEqual(first);

    const second = new Date("2026-06-26T09:00:00Z");
    expect(
      await correctResult(
        db,
        clinician,
        resultId,
        {
          psaValue: "1.20",
          flag: "red",
          retestYears: null,
          comments: null,
          reason: "flag-reviewed",
          seen: await seenOf(resultId),
        },
        second,
      ),
    ).toMatchObject({ ok: true });
    const twice = await revisions();
    expect(twice).toHaveLength(2);
    expect(twice[0]!.id).toBe(once[0]!.id);
    expect(twice[1]).toMatchObject({
      psaValue: "1.20",
      flag: "amber",
      retestYears: null,
      comments: "Please repeat.",
      replacedBy: clinician.id,
      reason: "flag-reviewed",
    });
    expect(twice[1]!.replacedAt).toEqual(second);
    const [now] = await db.select().from(testResult).where(eq(testResult.id, resultId));
    expect(now).toMatchObject({ psaValue: "1.20", flag: "red", comments: null });
    // The audit rows still name fields only.
    const audit = await auditRows(db, { action: "result.correct", entityId: resultId });
    expect(audit.map((row) => row.details)).toEqual([
      { fields: "psaValue,flag,retestYears,comments", reason: "lab-corrected" },
      { fields: "flag,comments", reason: "flag-reviewed" },
    ]);
  });

  it("refuses a release or correction of a version other than the one the clinician opened", async () => {
    const { db } = database;
    const { patient, resultId } = await importedResult("0.50");
    const opened = (await viewResult(db, clinician, resultId))!.updatedAt.toISOString();

    // A new file comes in while the page is open, at the very same instant as the first.
    const again = await importFile(csv([`${patient.reference},,7.50,ng/ml,`]));
    expect(await commitImport(db, clinician, again, NOW)).toMatchObject({ replaced: 1 });
    const afterImport = await seenOf(resultId);
    expect(afterImport).not.toBe(opened);

    const stale = await releaseResult(db, clinician, resultId, {
      flag: "green",
      retestYears: 3,
      comments: null,
      seen: opened,
    });
    expect(stale).toEqual({ ok: false, reason: "changed" });
    for (const seen of ["", "2026-06-20T09:00:00Z", "nonsense"])
      expect(
        await releaseResult(db, clinician, resultId, {
          flag: "green",
          retestYears: 3,
          comments: null,
          seen,
        }),
      ).toEqual({ ok: false, reason: "changed" });
    const [unreleased] = await db.select().from(testResult).where(eq(testResult.id, resultId));
    expect(unreleased).toMatchObject({ psaValue: "7.50", releasedAt: null, flag: null });
    expect(await mailTo(patient.email)).toHaveLength(0);
    expect(await auditRows(db, { action: "result.release", entityId: resultId })).toHaveLength(0);

    // Opened again: the release goes through, and moves the version on.
    expect(
      await releaseResult(
        db,
        clinician,
        resultId,
        { flag: "red", retestYears: null, comments: null, seen: afterImport },
        NOW,
      ),
    ).toEqual({ ok: true });
    const afterRelease = await seenOf(resultId);
    expect(afterRelease > afterImport).toBe(true);

    // A correction from a page opened before the release is refused too; nothing is kept or sent.
    const correction = {
      psaValue: "7.60",
      flag: "red" as const,
      retestYears: null,
      comments: null,
      reason: "lab-corrected" as const,
    };
    expect(
      await correctResult(db, clinician, resultId, { ...correction, seen: afterImport }, NOW),
    ).toEqual({ ok: false, reason: "changed" });
    expect(
      await db
        .select()
        .from(testResultRevision)
        .where(eq(testResultRevision.testResultId, resultId)),
    ).toHaveLength(0);
    expect(
      (await db.select().from(testResult).where(eq(testResult.id, resultId)))[0],
    ).toMatchObject({ psaValue: "7.50", correctedAt: null });
    expect(await mailTo(patient.email)).toHaveLength(1);

    expect(
      await correctResult(db, clinician, resultId, { ...correction, seen: afterRelease }, NOW),
    ).toMatchObject({ ok: true });
    expect((await seenOf(resultId)) > afterRelease).toBe(true);
  });

  it("an unknown or malformed result id is not found", async () => {
    const { db } = database;
    expect(await viewResult(db, clinician, crypto.randomUUID())).toBeNull();
    expect(await viewResult(db, clinician, "1.23")).toBeNull();
    expect(
      await releaseResult(db, clinician, crypto.randomUUID(), {
        flag: "red",
        retestYears: null,
        comments: null,
        seen: "",
      }),
    ).toEqual({ ok: false, reason: "not-found" });
  });

  it("lists released results, one audit row per person shown", async () => {
    const { db } = database;
    const { patient, resultId } = await importedResult("0.20");
    await releaseResult(db, clinician, resultId, {
      flag: "green",
      retestYears: 3,
      comments: null,
      seen: await seenOf(resultId),
    });
    const released = await listResults(db, clinician, "released");
    // The flag chosen; the suggestion it was chosen over is not shown there, so not sent.
    expect(released.find((row) => row.id === resultId)).toMatchObject({
      flag: "green",
      suggestedFlag: null,
    });
    const awaiting = await listResults(db, clinician, "awaiting");
    expect(awaiting.some((row) => row.id === resultId)).toBe(false);
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "results.view"), inArray(auditLog.entityId, [resultId])));
    expect(rows.filter((row) => row.subjectUserId === patient.userId)).toHaveLength(1);
    expect(rows[0]!.details).toEqual({ list: "released" });
  });
});
