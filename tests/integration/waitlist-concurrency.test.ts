import { and, eq, inArray, like } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "#app/db/client.server";
import { booking, outboxEmail, user, waitlistEntry } from "#app/db/schema";
import type * as reconcileModule from "#app/services/booking/reconcile.server";
import type * as holdModule from "#app/services/booking/hold.server";
import { findEvent } from "#app/services/events.server";
import { racingPostgresForThisFile } from "#tests/support/database";
import {
  insertConfirmedBookings,
  insertFreeEvent,
  insertPatient,
  insertWaitlistEntry,
  nextClientAddress,
} from "#tests/support/fixtures";

/**
 * The waiting list's offers under contention, on a real PostgreSQL server (PGlite has one
 * connection, so it cannot race). Several servers run the offer job at the same moment, while
 * strangers try to book the freed places: each offer is made and e-mailed once, and the event
 * never has more places taken than it has. Run with
 * TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** Nine days before the fixture's event day (10 June 2026). */
const NOW = new Date("2026-06-01T09:00:00Z");

/** Fresh copies of a module, each with its own in-process state, like separate servers. */
async function instancesOf<T>(path: () => Promise<T>, count: number): Promise<T[]> {
  const copies: T[] = [];
  for (let index = 0; index < count; index++) {
    vi.resetModules();
    copies.push(await path());
  }
  return copies;
}

describe.skipIf(!onPostgres)(
  onPostgres
    ? "waiting-list offers under contention (PostgreSQL)"
    : "waiting-list offers under contention: SKIPPED, it needs PostgreSQL (set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)",
  () => {
    const racingDb = racingPostgresForThisFile(20);
    let db: Db;
    beforeAll(() => {
      db = racingDb();
    });

    /** A free event of `places` places over two times, all booked, with `waiting` people queued. */
    async function fullEventWithQueue(places: number, waiting: number) {
      const ev = await insertFreeEvent(db, {
        totalSpaces: places,
        placesPerSlot: places / 2,
        startTime: "10:00",
        endTime: "11:00",
      });
      const booked = [
        ...(await insertConfirmedBookings(db, ev.id, places / 2, "10:00")),
        ...(await insertConfirmedBookings(db, ev.id, places / 2, "10:30")),
      ];
      const queue = [];
      for (let index = 0; index < waiting; index++) {
        const someone = await insertPatient(db);
        await insertWaitlistEntry(db, {
          eventId: ev.id,
          userId: someone.id,
          joinedAt: new Date(NOW.getTime() - (waiting - index) * 60_000),
        });
        queue.push(someone);
      }
      return { ev, booked, queue };
    }

    const cancel = (ids: string[]) =>
      db
        .update(booking)
        .set({ status: "cancelled", cancelledBy: "staff", cancelledAt: NOW })
        .where(inArray(booking.id, ids));

    async function offersOf(eventId: string) {
      return db
        .select({
          userId: waitlistEntry.userId,
          email: user.email,
          slot: waitlistEntry.offeredSlotTime,
        })
        .from(waitlistEntry)
        .innerJoin(user, eq(user.id, waitlistEntry.userId))
        .where(and(eq(waitlistEntry.eventId, eventId), eq(waitlistEntry.status, "offered")));
    }

    async function offerMailsTo(emails: string[]) {
      if (emails.length === 0) return [];
      return db
        .select({ to: outboxEmail.to })
        .from(outboxEmail)
        .where(
          and(inArray(outboxEmail.to, emails), like(outboxEmail.subject, "A place has come up%")),
        );
    }

    it("makes and e-mails each offer once when four servers run the job at the same moment", async () => {
      const { ev, booked, queue } = await fullEventWithQueue(10, 12);
      // Four places free: two at each time.
      await cancel([booked[0]!.id, booked[1]!.id, booked[5]!.id, booked[6]!.id]);
      const servers = await instancesOf(
        () => import("#app/services/booking/reconcile.server") as Promise<typeof reconcileModule>,
        4,
      );
      const jobs = servers.map((server) =>
        server.WORKER_JOBS.find((job) => job.code === "waitlist_offers")!,
      );
      const results = await Promise.allSettled(
        [...jobs, ...jobs, ...jobs].map((job) => job.run(db, NOW)),
      );
      expect(results.filter((result) => result.status === "rejected")).toEqual([]);

      const offers = await offersOf(ev.id);
      // The first four in the queue, one offer each.
      expect(offers.map((offer) => offer.userId).sort()).toEqual(
        queue
          .slice(0, 4)
          .map((someone) => someone.id)
          .sort(),
      );
      expect(offers.filter((offer) => offer.slot === "10:00")).toHaveLength(2);
      expect(offers.filter((offer) => offer.slot === "10:30")).toHaveLength(2);
      const mails = await offerMailsTo(queue.map((someone) => someone.email));
      expect(mails.map((mail) => mail.to).sort()).toEqual(
        queue
          .slice(0, 4)
          .map((someone) => someone.email)
          .sort(),
      );
      expect(await findEvent(db, ev.id, NOW)).toMatchObject({
        booked_spaces: 10,
        spaces_left: 0,
      });
    });

    it("never takes the event over its places while strangers race the job for freed places", async () => {
      const { ev, booked, queue } = await fullEventWithQueue(10, 8);
      await cancel(booked.slice(0, 4).map((row) => row.id));
      const servers = await instancesOf(
        () => import("#app/services/booking/reconcile.server") as Promise<typeof reconcileModule>,
        3,
      );
      const holders = await instancesOf(
        () => import("#app/services/booking/hold.server") as Promise<typeof holdModule>,
        3,
      );
      const strangers = await Promise.all(Array.from({ length: 12 }, () => insertPatient(db)));
      const jobs = servers.map((server) =>
        server.WORKER_JOBS.find((job) => job.code === "waitlist_offers")!,
      );
      const results = await Promise.allSettled([
        ...jobs.map((job) => job.run(db, NOW)),
        ...strangers.map((stranger, index) =>
          holders[index % holders.length]!.holdPlace(
            db,
            {
              eventId: ev.id,
              userId: stranger.id,
              slotTime: "10:00",
              clientAddress: nextClientAddress(),
            },
            NOW,
          ),
        ),
        ...jobs.map((job) => job.run(db, NOW)),
      ]);
      expect(results.filter((result) => result.status === "rejected")).toEqual([]);

      const held = await db
        .select({ slot: booking.slotTime })
        .from(booking)
        .where(and(eq(booking.eventId, ev.id), inArray(booking.status, ["held", "confirmed"])));
      const offers = await offersOf(ev.id);
      // Every place taken once: by a booking, a stranger's hold or an offer, never more.
      expect(held.length + offers.length).toBe(10);
      for (const slot of ["10:00", "10:30"])
        expect(
          held.filter((row) => row.slot === slot).length +
            offers.filter((offer) => offer.slot === slot).length,
        ).toBe(5);
      // Offers went to the front of the queue, each e-mailed once.
      expect(offers.map((offer) => offer.userId).sort()).toEqual(
        queue
          .slice(0, offers.length)
          .map((someone) => someone.id)
          .sort(),
      );
      const mails = await offerMailsTo(queue.map((someone) => someone.email));
      expect(mails.map((mail) => mail.to).sort()).toEqual(
        offers.map((offer) => offer.email).sort(),
      );
      expect(await findEvent(db, ev.id, NOW)).toMatchObject({
        booked_spaces: 10,
        spaces_left: 0,
      });
    });
  },
);
