import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#app/db/client.server";
import { booking } from "#app/db/schema";
import { changeOwnBooking, type ChangeResult } from "#app/services/booking/change.server";
import { cancelOwnBooking } from "#app/services/booking/cancel.server";
import { holdPlace, type HoldResult } from "#app/services/booking/hold.server";
import { moveBookingForHim, type StaffMoveOutcome } from "#app/services/booking/staff-move.server";
import { racingPostgresForThisFile } from "#tests/support/database";
import {
  insertBooking,
  insertEvent,
  insertPatient,
  insertProduct,
  insertStaff,
  nextClientAddress,
} from "#tests/support/fixtures";

/**
 * Changing a booking races for places like any booking: on a real PostgreSQL server, many
 * transactions side by side, each on its own connection (PGlite has one connection, so it cannot
 * race). Run with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Nine days before the events (10 June 2026). */
const NOW = new Date("2026-06-01T09:00:00Z");

describe.skipIf(!onPostgres)(
  onPostgres
    ? "changing bookings under contention (PostgreSQL)"
    : "changing bookings under contention: SKIPPED, it needs PostgreSQL (set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)",
  () => {
    const racingDb = racingPostgresForThisFile(20);
    let db: Db;
    beforeAll(() => {
      db = racingDb();
    });

    /** A free product, a roomy event people are booked at, and a target event with `places` places. */
    async function eventsFor(targetPlaces: number) {
      const product = await insertProduct(db, 0);
      const from = await insertEvent(db, product.id, {
        paymentRequired: false,
        totalSpaces: 100,
        placesPerSlot: 50,
      });
      const to = await insertEvent(db, product.id, {
        paymentRequired: false,
        totalSpaces: targetPlaces,
        placesPerSlot: 1,
      });
      return { from, to };
    }

    /** `count` patients, each with a confirmed free booking at `eventId`, 10:00. */
    async function bookedPatients(eventId: string, count: number) {
      return Promise.all(
        Array.from({ length: count }, async () => {
          const patient = await insertPatient(db);
          const row = await insertBooking(db, { eventId, userId: patient.id });
          return { userId: patient.id, reference: row.reference, bookingId: row.id };
        }),
      );
    }

    const activeAt = (eventId: string) =>
      db
        .select({ id: booking.id, slotTime: booking.slotTime, userId: booking.userId })
        .from(booking)
        .where(
          and(
            eq(booking.eventId, eventId),
            inArray(booking.status, ["held", "awaiting_payment", "confirmed"]),
          ),
        );

    function tally(results: PromiseSettledResult<ChangeResult | HoldResult | StaffMoveOutcome>[]) {
      const counts: Record<string, number> = {};
      for (const result of results) {
        const key =
          result.status === "rejected"
            ? `error: ${String(result.reason)}`
            : result.value.ok
              ? "ok"
              : result.value.reason;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return counts;
    }

    it("gives the last free place to exactly one of 30 people changing into it at once", async () => {
      const { from, to } = await eventsFor(1);
      const people = await bookedPatients(from.id, 30);

      const results = await Promise.allSettled(
        people.map((person) =>
          changeOwnBooking(db, { ...person, eventId: to.id, slotTime: "11:00" }, NOW),
        ),
      );

      const counts = tally(results);
      expect(counts.ok).toBe(1);
      expect(Object.keys(counts).filter((key) => key.startsWith("error"))).toEqual([]);
      expect((counts["event-unavailable"] ?? 0) + (counts["slot-unavailable"] ?? 0)).toBe(29);
      const there = await activeAt(to.id);
      expect(there).toHaveLength(1);
      // Everyone else still has his old place: nobody lost one, nobody holds two.
      expect(await activeAt(from.id)).toHaveLength(29);
      for (const person of people) {
        const rows = await db
          .select()
          .from(booking)
          .where(and(eq(booking.userId, person.userId), eq(booking.status, "confirmed")));
        expect(rows).toHaveLength(1);
      }
    });

    it("never overfills a time: 30 people moving within their event into two free places of one time", async () => {
      const product = await insertProduct(db, 0);
      const ev = await insertEvent(db, product.id, {
        paymentRequired: false,
        totalSpaces: 100,
        placesPerSlot: 30,
        startTime: "10:00",
        endTime: "11:00",
      });
      const people = await bookedPatients(ev.id, 30);
      // 10:30 has 30 places; 28 are taken by others, so two are free.
      for (let n = 0; n < 28; n++) {
        const other = await insertPatient(db);
        await insertBooking(db, { eventId: ev.id, userId: other.id, slotTime: "10:30" });
      }

      const results = await Promise.allSettled(
        people.map((person) =>
          changeOwnBooking(db, { ...person, eventId: ev.id, slotTime: "10:30" }, NOW),
        ),
      );

      const counts = tally(results);
      expect(counts.ok).toBe(2);
      expect(counts["slot-unavailable"]).toBe(28);
      const rows = await activeAt(ev.id);
      expect(rows.filter((row) => row.slotTime === "10:30")).toHaveLength(30);
      expect(rows).toHaveLength(58);
    });

    it("gives the last place to one of a change and a new hold racing for it, round after round", async () => {
      for (let round = 0; round < 8; round++) {
        const { from, to } = await eventsFor(1);
        const [mover] = await bookedPatients(from.id, 1);
        const newcomer = await insertPatient(db);

        const race = [
          () => changeOwnBooking(db, { ...mover!, eventId: to.id, slotTime: "11:00" }, NOW),
          () =>
            holdPlace(
              db,
              {
                eventId: to.id,
                userId: newcomer.id,
                slotTime: "11:00",
                clientAddress: nextClientAddress(),
              },
              NOW,
            ),
        ];
        // Each side goes first in turn.
        const ordered = round % 2 === 0 ? race : [...race].reverse();
        const results = await Promise.allSettled(ordered.map((start) => start()));

        const counts = tally(results);
        expect(counts.ok).toBe(1);
        expect(Object.keys(counts).filter((key) => key.startsWith("error"))).toEqual([]);
        expect(await activeAt(to.id)).toHaveLength(1);
      }
    });

    it("never overfills a time when a coordinator moves some men while others change their own", async () => {
      const product = await insertProduct(db, 0);
      const ev = await insertEvent(db, product.id, {
        paymentRequired: false,
        totalSpaces: 100,
        placesPerSlot: 30,
        startTime: "10:00",
        endTime: "11:00",
      });
      const people = await bookedPatients(ev.id, 20);
      // 10:30 has 30 places; 28 are taken by others, so two are free.
      for (let n = 0; n < 28; n++) {
        const other = await insertPatient(db);
        await insertBooking(db, { eventId: ev.id, userId: other.id, slotTime: "10:30" });
      }
      const { actor } = await insertStaff(db, ["coordinator"]);

      const results = await Promise.allSettled(
        people.map((person, n) =>
          n % 2 === 0
            ? moveBookingForHim(
                db,
                actor,
                { eventId: ev.id, bookingId: person.bookingId, slotTime: "10:30" },
                NOW,
              )
            : changeOwnBooking(db, { ...person, eventId: ev.id, slotTime: "10:30" }, NOW),
        ),
      );

      const counts = tally(results);
      expect(counts.ok).toBe(2);
      expect(counts["slot-unavailable"]).toBe(18);
      expect((await activeAt(ev.id)).filter((row) => row.slotTime === "10:30")).toHaveLength(30);
    });

    it("settles a coordinator's move and his own cancellation of the same booking either way", async () => {
      const { actor } = await insertStaff(db, ["coordinator"]);
      for (let round = 0; round < 6; round++) {
        const product = await insertProduct(db, 0);
        const ev = await insertEvent(db, product.id, { paymentRequired: false });
        const [man] = await bookedPatients(ev.id, 1);
        const race = [
          () =>
            moveBookingForHim(
              db,
              actor,
              { eventId: ev.id, bookingId: man!.bookingId, slotTime: "11:00" },
              NOW,
            ),
          () =>
            cancelOwnBooking(
              db,
              { userId: man!.userId, reference: man!.reference, shownRefundPence: 0 },
              NOW,
            ),
        ];
        const ordered = round % 2 === 0 ? race : [...race].reverse();
        const settled = await Promise.allSettled(ordered.map((start) => start()));
        const [moved, cancelled] = round % 2 === 0 ? settled : [...settled].reverse();
        // His cancellation always stands; the move either came first or was refused after it.
        expect(cancelled).toMatchObject({ status: "fulfilled", value: { ok: true } });
        expect(moved).toMatchObject({ status: "fulfilled" });
        const [row] = await db.select().from(booking).where(eq(booking.id, man!.bookingId));
        expect(row!.status).toBe("cancelled");
        if (moved!.status === "fulfilled" && moved!.value.ok) expect(row!.slotTime).toBe("11:00");
        else expect(moved).toMatchObject({ value: { ok: false, reason: "not-movable" } });
      }
    });

    it("lets two people swap events at the same moment without waiting on each other for ever", async () => {
      const product = await insertProduct(db, 0);
      const one = await insertEvent(db, product.id, { paymentRequired: false });
      const two = await insertEvent(db, product.id, { paymentRequired: false });
      const [atOne] = await bookedPatients(one.id, 1);
      const [atTwo] = await bookedPatients(two.id, 1);
      for (let round = 0; round < 5; round++) {
        const [first, second] = await Promise.allSettled([
          changeOwnBooking(
            db,
            { ...atOne!, eventId: round % 2 === 0 ? two.id : one.id, slotTime: "11:00" },
            NOW,
          ),
          changeOwnBooking(
            db,
            { ...atTwo!, eventId: round % 2 === 0 ? one.id : two.id, slotTime: "11:00" },
            NOW,
          ),
        ]);
        expect(first).toMatchObject({ status: "fulfilled", value: { ok: true } });
        expect(second).toMatchObject({ status: "fulfilled", value: { ok: true } });
      }
    });
  },
);
