import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { profile } from "#app/db/schema";
import {
  DATE_OF_BIRTH_NEEDED,
  updateOwnProfile,
  type ProfileUpdate,
} from "#app/services/profiles.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  insertBooking,
  insertFreeEvent,
  insertPatient,
  portalEditOf,
} from "#tests/support/fixtures";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";

/** The portal's edit form, through the service every way in shares. */

const database = testDatabaseForThisFile();

const editOf = (userId: string, changes: Partial<ProfileUpdate>) =>
  portalEditOf(database.db, userId, changes);

const dateOfBirthOf = async (userId: string) =>
  (await database.db.select().from(profile).where(eq(profile.userId, userId)))[0]!.dateOfBirth;

describe("removing a date of birth", () => {
  it("is refused while he has a booking to come, and allowed once it is over", async () => {
    const { db } = database;
    const patient = await insertPatient(db, { dateOfBirth: "1960-05-01" });
    // The fixture's event is on 10 June 2026.
    const ev = await insertFreeEvent(db);
    await insertBooking(db, { eventId: ev.id, userId: patient.id });
    const removed = await editOf(patient.id, { dateOfBirth: null });

    expect(
      await updateOwnProfile(db, patient.id, removed, new Date("2026-06-01T09:00:00Z")),
    ).toEqual({ ok: false, fieldErrors: { dateOfBirth: DATE_OF_BIRTH_NEEDED } });
    expect(await dateOfBirthOf(patient.id)).toBe("1960-05-01");

    // Corrected, not removed: saved.
    const corrected = await editOf(patient.id, { dateOfBirth: "1960-05-02" });
    expect(
      await updateOwnProfile(db, patient.id, corrected, new Date("2026-06-01T09:00:00Z")),
    ).toEqual({ ok: true });

    // The day after the event: nothing to come.
    expect(
      await updateOwnProfile(db, patient.id, removed, new Date("2026-06-11T09:00:00Z")),
    ).toEqual({ ok: true });
    expect(await dateOfBirthOf(patient.id)).toBeNull();
  });

  it("is refused after the test until its result is released, which the import reads it for", async () => {
    const { db } = database;
    const patient = await insertPatient(db, { dateOfBirth: "1960-05-01" });
    const ev = await insertFreeEvent(db);
    const sampled = await insertSampledBooking(db, {
      eventId: ev.id,
      userId: patient.id,
      eventDate: "2026-06-10",
    });
    const removed = await editOf(patient.id, { dateOfBirth: null });
    const weekAfter = new Date("2026-06-17T09:00:00Z");
    expect(await updateOwnProfile(db, patient.id, removed, weekAfter)).toMatchObject({
      ok: false,
    });
    await insertResult(db, sampled.id, { releasedAt: weekAfter });
    expect(await updateOwnProfile(db, patient.id, removed, weekAfter)).toEqual({ ok: true });
  });
});
