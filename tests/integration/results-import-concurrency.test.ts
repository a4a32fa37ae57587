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

/** Whether `promise` settles within half a second: a write that should wait for a lock does not. */
const settlesSoon = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 500)),
  ]);

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
      const settledEarly = await settlesSoon(commit);
      letUndoFinish();
      await undo;
      expect(settledEarly).toBe(false);
      expect(await commit).toMatchObject({ status: "committed", imported: 0, skipped: 1 });
      expect(
        await db.select().from(testResult).where(eq(testResult.bookingId, sampled.id)),
      ).toEqual([]);
    });

    /**
     * D-181: a man typed in as 55 on the event's day (1.50 is below the 50s' 2.00: green) who is
     * really 45 (the 40s' threshold is 1.00: amber), and the lab's file with his PSA, uploaded.
     */
    async function misdatedManInTheLabFile() {
      const ev = await insertFreeEvent(db, { eventDate: "2026-06-10" });
      const clinician = (await insertStaff(db, ["clinician"], { clientAddress: "203.0.113.7" }))
        .actor;
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
      const correctDate = async (on: Db) =>
        updateOwnProfile(
          on,
          patient.id,
          await portalEditOf(on, patient.id, { dateOfBirth: "1981-01-15" }),
          NOW,
        );
      const suggested = async () =>
        (await db.select().from(testResult).where(eq(testResult.bookingId, sampled.id)))[0];
      return { clinician, importId: created.id, correctDate, suggested };
    }

    /**
     * Runs `work` as a savepoint of a transaction of the test's, and keeps that transaction (and
     * the locks the work took) open until `release` is called. Resolves once the work is done.
     */
    async function heldOpen(work: (tx: Db) => Promise<void>) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let done!: () => void;
      const workDone = new Promise<void>((resolve) => (done = resolve));
      const finished = db.transaction(async (tx) => {
        await work(tx);
        done();
        await released;
      });
      await workDone;
      return { release, finished };
    }

    it("suggests the flag for a date of birth corrected while the file is committed", async () => {
      const { clinician, importId, correctDate, suggested } = await misdatedManInTheLabFile();
      // His own correction on the portal, held open after the service has saved it.
      const correction = await heldOpen(async (tx) => {
        expect(await correctDate(tx)).toEqual({ ok: true });
      });

      const commit = commitImport(db, clinician, importId, NOW);
      const settledEarly = await settlesSoon(commit);
      correction.release();
      await correction.finished;
      expect(settledEarly).toBe(false);
      expect(await commit).toMatchObject({ status: "committed", imported: 1 });
      expect(await suggested()).toMatchObject({ psaValue: "1.50", suggestedFlag: "amber" });
    });

    it("suggests again for a date of birth corrected while the file is being committed", async () => {
      const { clinician, importId, correctDate, suggested } = await misdatedManInTheLabFile();
      // The import, held open once it has written.
      const commit = await heldOpen(async (tx) => {
        expect(await commitImport(tx, clinician, importId, NOW)).toMatchObject({ imported: 1 });
      });

      const saving = correctDate(db);
      const settledEarly = await settlesSoon(saving);
      commit.release();
      await commit.finished;
      expect(settledEarly).toBe(false);
      expect(await saving).toEqual({ ok: true });
      expect(await suggested()).toMatchObject({ psaValue: "1.50", suggestedFlag: "amber" });
    });
  },
);
