import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#app/db/client.server";
import { booking, testResult } from "#app/db/schema";
import { commitImport, createImport } from "#app/services/results-admin.server";
import { updateOwnProfile } from "#app/services/profiles.server";
import { racingPostgresForThisFile } from "#tests/support/database";
import {
  insertBooking,
  insertFreeEvent,
  insertPatient,
  insertStaff,
  portalEditOf,
} from "#tests/support/fixtures";
import { insertSampledBooking } from "#tests/support/fixtures/results";

/**
 * A sample undone on the check-in page while a clinician commits the lab's file that names it, on
 * their own connections on a real PostgreSQL server (PGlite has one connection, so it cannot
 * race). Run with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const NOW = new Date("2026-06-20T09:00:00Z");

describe.skipIf(!onPostgres)(
  onPostgres
    ? "a result import racing an undone sample (PostgreSQL)"
    : "a result import racing an undone sample: SKIPPED, it needs PostgreSQL (set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)",
  () => {
    const racingDb = racingPostgresForThisFile(4);
    let db: Db;
    beforeAll(() => {
      db = racingDb();
    });

    it("never lands a result on a booking whose sample was taken back at that moment", async () => {
      const ev = await insertFreeEvent(db, { eventDate: "2026-06-10" });
      const clinician = (await insertStaff(db, ["clinician"], { clientAddress: "203.0.113.7" }))
        .actor;
      const patient = await insertPatient(db, { dateOfBirth: "1970-01-15" });
      const sampled = await insertBooking(db, {
        eventId: ev.id,
        userId: patient.id,
        confirmedAt: new Date("2026-06-01T09:00:00Z"),
        sampleId: "S-RACE-1",
        sampleTakenAt: new Date("2026-06-10T09:10:00Z"),
      });
      const created = await createImport(
        db,
        clinician,
        {
          filename: "lab.csv",
          text: "reference,sample id,psa,unit,sample date\r\n,S-RACE-1,3.10,ng/ml,\r\n",
        },
        NOW,
      );
      if (!created.ok) throw new Error(created.error);

      // The nurse's undo, as recordCheckIn does it: the booking locked, no result found, then
      // (here held open while the import is committed) the sample taken off.
      let letUndoFinish!: () => void;
      const undoMayFinish = new Promise<void>((resolve) => (letUndoFinish = resolve));
      let undoChecked!: () => void;
      const undoHasChecked = new Promise<void>((resolve) => (undoChecked = resolve));
      const undo = db.transaction(async (tx) => {
        await tx.execute(sql`select id from booking where id = ${sampled.id} for update`);
        const results = await tx
          .select()
          .from(testResult)
          .where(eq(testResult.bookingId, sampled.id));
        expect(results).toEqual([]);
        undoChecked();
        await undoMayFinish;
        await tx
          .update(booking)
          .set({ sampleId: null, sampleTakenAt: null, arrivedAt: null })
          .where(eq(booking.id, sampled.id));
      });
      await undoHasChecked;

      const commit = commitImport(db, clinician, created.id, NOW);
      // Give the commit every chance to run past the undo, as it could before.
      const settledEarly = await Promise.race([
        commit.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 500)),
      ]);
      letUndoFinish();
      await undo;
      expect(settledEarly).toBe(false);
      expect(await commit).toMatchObject({ status: "committed", imported: 0, skipped: 1 });
      expect(
        await db.select().from(testResult).where(eq(testResult.bookingId, sampled.id)),
      ).toEqual([]);
    });

    // D-181: the suggestion is read against his date of birth, which may change at that moment.
    it("suggests the flag for a date of birth corrected while the file is committed", async () => {
      const ev = await insertFreeEvent(db, { eventDate: "2026-06-10" });
      const clinician = (await insertStaff(db, ["clinician"], { clientAddress: "203.0.113.7" }))
        .actor;
      // 55 on the event's day as typed (1.50 is below the 50s' 2.00: green); really 45 (the
      // 40s' threshold is 1.00: amber).
      const patient = await insertPatient(db, { dateOfBirth: "1971-01-15" });
      const sampled = await insertSampledBooking(db, {
        eventId: ev.id,
        userId: patient.id,
        eventDate: ev.eventDate,
      });
      const created = await createImport(
        db,
        clinician,
        {
          filename: "lab.csv",
          text: `reference,sample id,psa,unit,sample date\r\n${sampled.reference},,1.50,ng/ml,\r\n`,
        },
        NOW,
      );
      if (!created.ok) throw new Error(created.error);

      // His own correction on the portal, held open (inside a transaction of the test's, as a
      // savepoint) after the service has saved it, while the import is committed.
      let letCorrectionFinish!: () => void;
      const correctionMayFinish = new Promise<void>((resolve) => (letCorrectionFinish = resolve));
      let corrected!: () => void;
      const correctionSaved = new Promise<void>((resolve) => (corrected = resolve));
      const correction = db.transaction(async (tx) => {
        const edit = await portalEditOf(tx, patient.id, { dateOfBirth: "1981-01-15" });
        expect(await updateOwnProfile(tx, patient.id, edit, NOW)).toEqual({ ok: true });
        corrected();
        await correctionMayFinish;
      });
      await correctionSaved;

      const commit = commitImport(db, clinician, created.id, NOW);
      const settledEarly = await Promise.race([
        commit.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 500)),
      ]);
      letCorrectionFinish();
      await correction;
      expect(settledEarly).toBe(false);
      expect(await commit).toMatchObject({ status: "committed", imported: 1 });
      const [stored] = await db
        .select()
        .from(testResult)
        .where(eq(testResult.bookingId, sampled.id));
      expect(stored).toMatchObject({ psaValue: "1.50", suggestedFlag: "amber" });
    });

    it("suggests again for a date of birth corrected while the file is being committed", async () => {
      const ev = await insertFreeEvent(db, { eventDate: "2026-06-10" });
      const clinician = (await insertStaff(db, ["clinician"], { clientAddress: "203.0.113.7" }))
        .actor;
      // As above: typed in as 55 (green for 1.50), really 45 (amber).
      const patient = await insertPatient(db, { dateOfBirth: "1971-01-15" });
      const sampled = await insertSampledBooking(db, {
        eventId: ev.id,
        userId: patient.id,
        eventDate: ev.eventDate,
      });
      const created = await createImport(
        db,
        clinician,
        {
          filename: "lab.csv",
          text: `reference,sample id,psa,unit,sample date\r\n${sampled.reference},,1.50,ng/ml,\r\n`,
        },
        NOW,
      );
      if (!created.ok) throw new Error(created.error);

      // The import, held open (as a savepoint of the test's transaction) once it has written.
      let letImportFinish!: () => void;
      const importMayFinish = new Promise<void>((resolve) => (letImportFinish = resolve));
      let written!: () => void;
      const importWritten = new Promise<void>((resolve) => (written = resolve));
      const commit = db.transaction(async (tx) => {
        expect(await commitImport(tx, clinician, created.id, NOW)).toMatchObject({ imported: 1 });
        written();
        await importMayFinish;
      });
      await importWritten;

      const edit = await portalEditOf(db, patient.id, { dateOfBirth: "1981-01-15" });
      const saving = updateOwnProfile(db, patient.id, edit, NOW);
      const settledEarly = await Promise.race([
        saving.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 500)),
      ]);
      letImportFinish();
      await commit;
      expect(settledEarly).toBe(false);
      expect(await saving).toEqual({ ok: true });
      const [stored] = await db
        .select()
        .from(testResult)
        .where(eq(testResult.bookingId, sampled.id));
      expect(stored).toMatchObject({ psaValue: "1.50", suggestedFlag: "amber" });
    });
  },
);
