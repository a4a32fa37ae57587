import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "#app/db/client.server";
import { booking } from "#app/db/schema";
import type * as bookingService from "#app/services/booking/hold.server";
import { holdPlace, type HoldResult } from "#app/services/booking/hold.server";
import { eventSlots, findEvent } from "#app/services/events.server";
import { racingPostgresForThisFile } from "#tests/support/database";
import {
  insertFreeEvent,
  insertPaidEvent,
  insertPatient,
  nextClientAddress,
} from "#tests/support/fixtures";

type BookingService = typeof bookingService;

/**
 * The last place goes to exactly one person: many people race for few places through the booking
 * service, on their own connections, on a real PostgreSQL server (PGlite has one connection, so it
 * cannot race). Run with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
 *
 * Within one process the service lets holds for an event take turns before they reach the
 * database, so the races below also spread the crowd over many separately loaded copies of the
 * service, as many server instances would be: there only the database's row lock stands between
 * them and over-booking.
 */

/** Fresh copies of the booking service, each with its own in-process state, like separate servers. */
async function serverInstances(count: number): Promise<BookingService[]> {
  const instances: BookingService[] = [];
  for (let index = 0; index < count; index++) {
    vi.resetModules();
    instances.push(await import("#app/services/booking/hold.server"));
  }
  return instances;
}
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const NOW = new Date("2026-06-01T09:00:00Z");

describe.skipIf(!onPostgres)(
  onPostgres
    ? "booking under contention (PostgreSQL)"
    : "booking under contention: SKIPPED, it needs PostgreSQL (set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)",
  () => {
    const racingDb = racingPostgresForThisFile(60);
    let db: Db;
    beforeAll(() => {
      db = racingDb();
    });

    /** `size` signed-up men, written at once over the pool; their ids. */
    async function crowd(size: number): Promise<string[]> {
      const people = await Promise.all(Array.from({ length: size }, () => insertPatient(db)));
      return people.map((person) => person.id);
    }

    /**
     * Everyone asks for a place at once: the `index`th request through server `index` modulo
     * the servers, at `slotFor(index)`. Each settles held, refused or failed.
     */
    function holdAtOnce(
      servers: Pick<BookingService, "holdPlace">[],
      eventId: string,
      userIds: string[],
      slotFor: (index: number) => string,
    ) {
      return Promise.allSettled(
        userIds.map((userId, index) =>
          servers[index % servers.length]!.holdPlace(
            db,
            { clientAddress: nextClientAddress(), eventId, userId, slotTime: slotFor(index) },
            NOW,
          ),
        ),
      );
    }

    function tally(results: PromiseSettledResult<HoldResult>[]) {
      const counts: Record<string, number> = {};
      for (const result of results) {
        const key =
          result.status === "rejected"
            ? `error: ${String(result.reason)}`
            : result.value.ok
              ? "held"
              : result.value.reason;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return counts;
    }

    it("gives 20 places to exactly 20 of 200 people holding at once on 20 servers, and refuses the rest cleanly", async () => {
      // 8 slots of 5 places: the event's 20 places run out first.
      const ev = await insertPaidEvent(db, {
        totalSpaces: 20,
        placesPerSlot: 5,
        startTime: "10:00",
        endTime: "14:00",
      });
      const people = await crowd(200);
      const slots = ["10:00", "10:30", "11:00", "11:30", "12:00", "12:30", "13:00", "13:30"];
      const servers = await serverInstances(20);

      const results = await holdAtOnce(
        servers,
        ev.id,
        people,
        (index) => slots[index % slots.length]!,
      );

      const counts = tally(results);
      expect(counts.held).toBe(20);
      expect(Object.keys(counts).filter((key) => key.startsWith("error"))).toEqual([]);
      expect((counts["event-unavailable"] ?? 0) + (counts["slot-unavailable"] ?? 0)).toBe(180);

      const active = await db
        .select({ slotTime: booking.slotTime })
        .from(booking)
        .where(and(eq(booking.eventId, ev.id), inArray(booking.status, ["held"])));
      expect(active).toHaveLength(20);
      for (const slot of slots)
        expect(active.filter((row) => row.slotTime === slot).length).toBeLessThanOrEqual(5);

      const view = (await findEvent(db, ev.id, NOW))!;
      expect(view).toMatchObject({ booked_spaces: 20, spaces_left: 0, booking_status: "full" });
      expect(await eventSlots(db, view, NOW)).toEqual({
        "2026-06-10": { availableTimeSlots: [] },
      });
    });

    it("gives the last place of a slot to exactly one of 50 people on 10 servers", async () => {
      const ev = await insertFreeEvent(db, {
        totalSpaces: 100,
        placesPerSlot: 1,
      });
      const people = await crowd(50);
      const servers = await serverInstances(10);
      const results = await holdAtOnce(servers, ev.id, people, () => "11:00");
      expect(tally(results)).toEqual({ held: 1, "slot-unavailable": 49 });
    });

    it("gives 30 places to exactly 30 of 300 people on one server, where holds take turns", async () => {
      const ev = await insertFreeEvent(db, {
        totalSpaces: 30,
        placesPerSlot: 10,
      });
      const people = await crowd(300);
      const slots = ["10:00", "10:30", "11:00", "11:30"];
      // The service as this process loaded it: one server.
      const results = await holdAtOnce(
        [{ holdPlace }],
        ev.id,
        people,
        (index) => slots[index % slots.length]!,
      );
      const counts = tally(results);
      expect(counts.held).toBe(30);
      expect((counts["event-unavailable"] ?? 0) + (counts["slot-unavailable"] ?? 0)).toBe(270);
    });

    it("lets one person hold only once, however many times they click at once, on any server", async () => {
      const ev = await insertFreeEvent(db, { totalSpaces: 40 });
      const [only] = await crowd(1);
      const servers = await serverInstances(8);
      const clicks = ["10:00", "10:30", "11:00", "11:30", "10:00", "10:30", "11:00", "11:30"];
      const results = await holdAtOnce(
        servers,
        ev.id,
        clicks.map(() => only!),
        (index) => clicks[index]!,
      );
      expect(tally(results)).toEqual({ held: 8 });
      const rows = await db.select().from(booking).where(eq(booking.eventId, ev.id));
      expect(rows).toHaveLength(1);
      expect(
        new Set(
          results.map((r) => r.status === "fulfilled" && r.value.ok && r.value.booking.reference),
        ).size,
      ).toBe(1);
    });
  },
);
