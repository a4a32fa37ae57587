import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aheadOfTheQueue, onOneConnection, openDatabase, type Db } from "#app/db/client.server";
import type { HoldResult } from "#app/services/booking/hold.server";
import { migratedScratchDatabase, testDatabaseForThisFile } from "#tests/support/database";
import { holdFor, insertFreeEvent, insertPatient, requestHold } from "#tests/support/fixtures";

/**
 * A crowd's holds for one event wait in one line in this process (hold.server.ts): newcomers
 * are admitted together, and one read of the places answers everyone waiting. These tests count
 * what the crowd costs the database, and check who that shared read must not refuse.
 */

const database = testDatabaseForThisFile();
const NOW = new Date("2026-06-01T09:00:00Z");

/** Counts the statements sent to the database from now on (either driver). */
function countStatements(db: Db): () => number {
  const client = (db as unknown as { $client: unknown }).$client;
  const spy =
    client instanceof pg.Pool
      ? vi.spyOn(pg.Client.prototype, "query")
      : vi.spyOn(client as { query: (...args: unknown[]) => unknown }, "query");
  return () => spy.mock.calls.length;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const tally = (results: HoldResult[]) => {
  const counts: Record<string, number> = {};
  for (const result of results) {
    const key = result.ok ? "held" : result.reason;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

describe("the line for an event's places", () => {
  it("refuses 40 people at once for a full event with a few reads, not several each", async () => {
    const db = database.db;
    const ev = await insertFreeEvent(db, { totalSpaces: 1, placesPerSlot: 1 });
    const first = await insertPatient(db);
    await holdFor(db, { eventId: ev.id, userId: first.id }, NOW);
    const crowd = await Promise.all(Array.from({ length: 40 }, () => insertPatient(db)));

    const statements = countStatements(db);
    const results = await Promise.all(
      crowd.map((person) => requestHold(db, { eventId: ev.id, userId: person.id }, NOW)),
    );

    expect(tally(results)).toEqual({ "event-unavailable": 40 });
    // Each was read for alone before (the event, an offer, the places): about four statements
    // each, 160 in all. Together: the event and the places, for whoever is waiting at the time.
    expect(statements()).toBeLessThan(20);
  });

  it("lets someone who holds a place at a full event move it while a crowd is refused", async () => {
    const db = database.db;
    const ev = await insertFreeEvent(db, { totalSpaces: 3, placesPerSlot: 3 });
    const holders = await Promise.all(Array.from({ length: 3 }, () => insertPatient(db)));
    for (const holder of holders) await holdFor(db, { eventId: ev.id, userId: holder.id }, NOW);
    const crowd = await Promise.all(Array.from({ length: 20 }, () => insertPatient(db)));

    const [moved, ...refused] = await Promise.all(
      [holders[0]!, ...crowd].map((person) =>
        requestHold(db, { eventId: ev.id, userId: person.id, slotTime: "10:30" }, NOW),
      ),
    );

    expect(moved).toMatchObject({ ok: true, booking: { slotTime: "10:30", status: "held" } });
    expect(tally(refused)).toEqual({ "event-unavailable": 20 });
  });

  it("answers everyone asking for an event that does not exist, or is not published", async () => {
    const db = database.db;
    const draft = await insertFreeEvent(db, { status: "draft" });
    const crowd = await Promise.all(Array.from({ length: 5 }, () => insertPatient(db)));
    const missing = "00000000-0000-4000-8000-000000000000";
    const results = await Promise.all(
      crowd.flatMap((person) => [
        requestHold(db, { eventId: draft.id, userId: person.id }, NOW),
        requestHold(db, { eventId: missing, userId: person.id }, NOW),
      ]),
    );
    expect(tally(results)).toEqual({ "event-not-found": 10 });
  });

  it("refuses, together, those who may not book it, and holds for those who may", async () => {
    const db = database.db;
    const ev = await insertFreeEvent(db, { totalSpaces: 10, placesPerSlot: 10 });
    const eligible = await Promise.all(Array.from({ length: 3 }, () => insertPatient(db)));
    const tooYoung = await Promise.all(
      Array.from({ length: 3 }, () => insertPatient(db, { dateOfBirth: "2000-01-01" })),
    );
    const results = await Promise.all(
      [...eligible, ...tooYoung].map((person) =>
        requestHold(db, { eventId: ev.id, userId: person.id }, NOW),
      ),
    );
    expect(tally(results)).toEqual({ held: 3, "not-eligible": 3 });
    expect(results.slice(3)).toEqual(
      tooYoung.map(() => ({ ok: false, reason: "not-eligible", problems: ["too-young"] })),
    );
  });
});

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)(
  onPostgres
    ? "the line's own connection (PostgreSQL)"
    : "the line's own connection: SKIPPED, it needs PostgreSQL (set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)",
  () => {
    it("takes a hold's locks in their order, person, event, offer, bookings, though it sends them together", async () => {
      const db = database.db;
      const ev = await insertFreeEvent(db);
      const person = await insertPatient(db);
      const sent: string[] = [];
      const query = pg.Client.prototype.query;
      vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const config = args[0] as string | { text?: string };
        sent.push(typeof config === "string" ? config : (config.text ?? ""));
        return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
      });
      const held = await requestHold(db, { eventId: ev.id, userId: person.id }, NOW);
      expect(held.ok).toBe(true);
      const locks = sent.filter((text) => /for (no key )?update/.test(text));
      expect(locks.map((text) => /from "(\w+)"/.exec(text)?.[1])).toEqual([
        "user",
        "event",
        "waitlist_entry",
        "booking",
      ]);
    });

    it("has a connection for a line, and for its reads, while every pooled connection is lent out", async () => {
      const scratch = await migratedScratchDatabase();
      const opened = openDatabase({ url: scratch.url });
      const pool = (opened.db as unknown as { $client: pg.Pool }).$client;
      const lent: pg.PoolClient[] = [];
      try {
        for (let n = 0; n < pool.options.max; n++) lent.push(await pool.connect());
        const started = Date.now();
        const answer = await onOneConnection(opened.db, async (connection) => {
          const { rows } = (await connection.execute(sql`select 1 as one`)) as unknown as {
            rows: { one: number }[];
          };
          return rows[0]!.one;
        });
        expect(answer).toBe(1);
        // Not after the pool's 5-second wait for a connection, which would have failed anyway.
        expect(Date.now() - started).toBeLessThan(2000);

        // And a line's reads get through while another line keeps a connection for its turns.
        let release = () => {};
        const turns = onOneConnection(
          opened.db,
          () => new Promise<void>((resolve) => (release = resolve)),
        );
        const read = Date.now();
        const { rows } = (await aheadOfTheQueue(opened.db).execute(
          sql`select 2 as two`,
        )) as unknown as { rows: { two: number }[] };
        expect(rows[0]!.two).toBe(2);
        expect(Date.now() - read).toBeLessThan(2000);
        release();
        await turns;
      } finally {
        for (const client of lent) client.release();
        await opened.close();
        await scratch.drop();
      }
    });
  },
);
