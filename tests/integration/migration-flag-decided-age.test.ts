import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { profile, testResult } from "#app/db/schema";
import { ageAtSample } from "#app/domain/age";
import { testDatabaseForThisFile } from "#tests/support/database";
import { insertFreeEvent, insertPatient } from "#tests/support/fixtures";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";

/**
 * Migration 0018 gives results released before it the age their flag was decided for, from the
 * date of birth on record, counted in SQL. It must count as the site does (`ageAtSample`): to the
 * sample date or else the event's day, a birthday counting on the day, 29 February on 1 March.
 */

const database = testDatabaseForThisFile();

const BACKFILL = readFileSync("drizzle/0018_released_flag_decided_age.sql", "utf8").split(
  "--> statement-breakpoint",
)[1]!;

const EVENT_DATE = "2023-03-01";

const CASES: { dateOfBirth: string | null; sampleDate: string | null }[] = [
  // Born on 29 February: 22 on 28 February 2023, 23 on 1 March (the event's day).
  { dateOfBirth: "2000-02-29", sampleDate: "2023-02-28" },
  { dateOfBirth: "2000-02-29", sampleDate: null },
  // Birthday on the sample date itself, and the day after it.
  { dateOfBirth: "1968-02-27", sampleDate: "2023-02-27" },
  { dateOfBirth: "1968-02-28", sampleDate: "2023-02-27" },
  { dateOfBirth: null, sampleDate: "2023-02-27" },
];

describe("migration 0018's backfill of flag_decided_age", () => {
  it("counts each released result's age as ageAtSample does, and leaves unreleased ones", async () => {
    const { db } = database;
    const event = await insertFreeEvent(db, { eventDate: EVENT_DATE });
    const released: { id: string; expected: number | null }[] = [];
    for (const { dateOfBirth, sampleDate } of CASES) {
      const man = await insertPatient(db, { dateOfBirth });
      const place = await insertSampledBooking(db, {
        eventId: event.id,
        userId: man.id,
        eventDate: EVENT_DATE,
      });
      const result = await insertResult(db, place.id, { sampleDate, flagDecidedAge: null });
      released.push({ id: result.id, expected: ageAtSample(dateOfBirth, sampleDate, EVENT_DATE) });
    }
    // Left alone: not released; already waiting for a clinician's check (the age it was decided
    // for is not the date on record now); and a man without a profile.
    const placeOf = async (dateOfBirth: string) => {
      const man = await insertPatient(db, { dateOfBirth });
      const place = await insertSampledBooking(db, {
        eventId: event.id,
        userId: man.id,
        eventDate: EVENT_DATE,
      });
      return { man, place };
    };
    const unreleased = await insertResult(db, (await placeOf("1960-01-01")).place.id, {
      releasedAt: null,
    });
    const marked = await insertResult(db, (await placeOf("1960-01-01")).place.id, {
      flagCheckSince: new Date(),
      flagDecidedAge: null,
    });
    const withoutProfile = await placeOf("1960-01-01");
    await db.delete(profile).where(eq(profile.userId, withoutProfile.man.id));
    const noProfile = await insertResult(db, withoutProfile.place.id, { flagDecidedAge: null });

    await db.execute(sql.raw(BACKFILL));

    const ageOf = async (id: string) =>
      (await db.select().from(testResult).where(eq(testResult.id, id)))[0]!.flagDecidedAge;
    for (const { id, expected } of released) expect(await ageOf(id)).toBe(expected);
    expect(released.map((row) => row.expected)).toEqual([22, 23, 55, 54, null]);
    expect(await ageOf(unreleased.id)).toBeNull();
    expect(await ageOf(marked.id)).toBeNull();
    expect(await ageOf(noProfile.id)).toBeNull();
  });
});
