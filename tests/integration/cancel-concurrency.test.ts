import { and, eq, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#app/db/client.server";
import { booking, outboxEmail } from "#app/db/schema";
import { capturePayment } from "#app/services/booking/capture.server";
import { cancelOwnBooking } from "#app/services/booking/cancel.server";
import { holdPlace } from "#app/services/booking/hold.server";
import { lockPerson } from "#app/services/booking/places.server";
import { retryDueRefunds } from "#app/services/payments/refunds.server";
import { racingPostgresForThisFile } from "#tests/support/database";
import {
  bookingAtCheckout,
  fakePayPalForThisFile,
  insertBooking,
  insertFreeEvent,
  insertPaidEvent,
  insertPatient,
  nextClientAddress,
} from "#tests/support/fixtures";

/**
 * People cancelling their own bookings while others take the freed places, and a refund asked
 * for by several callers at once, on their own connections on a real PostgreSQL server (PGlite
 * has one connection, so it cannot race). Run with
 * TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Waits until a statement on this database is waiting for a row lock (up to 5 seconds). */
async function waitForALockWait(db: Db) {
  for (let tries = 0; tries < 100; tries++) {
    const [waiting] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(sql`pg_stat_activity`)
      .where(sql`datname = current_database() and wait_event_type = 'Lock'`);
    if (waiting!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("nothing waited for a lock");
}
/** Monday 1 June 2026, nine days before the fixture's event (Wednesday 10 June). */
const NOW = new Date("2026-06-01T09:00:00Z");
const fakePayPal = fakePayPalForThisFile();

describe.skipIf(!onPostgres)(
  onPostgres
    ? "cancelling under contention (PostgreSQL)"
    : "cancelling under contention: SKIPPED, it needs PostgreSQL (set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)",
  () => {
    const racingDb = racingPostgresForThisFile(25);
    let db: Db;
    beforeAll(() => {
      db = racingDb();
    });

    it("keeps capacity exact when 50 people cancel (each pressing twice) while 50 others take the freed places", async () => {
      // 10 times of 6 places, 60 places, all booked.
      const slots = [
        "10:00",
        "10:30",
        "11:00",
        "11:30",
        "12:00",
        "12:30",
        "13:00",
        "13:30",
        "14:00",
        "14:30",
      ];
      const ev = await insertFreeEvent(db, {
        totalSpaces: 60,
        placesPerSlot: 6,
        startTime: "10:00",
        endTime: "15:00",
      });
      const booked = await Promise.all(
        Array.from({ length: 60 }, async (_, index) => {
          const who = await insertPatient(db);
          return insertBooking(db, {
            eventId: ev.id,
            userId: who.id,
            slotTime: slots[index % slots.length]!,
            confirmedAt: NOW,
          });
        }),
      );
      const newcomers = await Promise.all(Array.from({ length: 50 }, () => insertPatient(db)));
      // 50 of the booked cancel, and each also presses the button a second time.
      const cancellers = booked.slice(0, 50);
      const presses = [...cancellers, ...cancellers].map((row) =>
        cancelOwnBooking(db, { userId: row.userId, reference: row.reference }, NOW),
      );
      const holds = newcomers.map((who, index) =>
        holdPlace(
          db,
          {
            clientAddress: nextClientAddress(),
            eventId: ev.id,
            userId: who.id,
            slotTime: slots[index % slots.length]!,
          },
          NOW,
        ),
      );
      const [cancelled, held] = await Promise.all([
        Promise.allSettled(presses),
        Promise.allSettled(holds),
      ]);

      expect(cancelled.filter((result) => result.status === "rejected")).toEqual([]);
      expect(held.filter((result) => result.status === "rejected")).toEqual([]);
      const outcomes = cancelled.map((result) =>
        result.status === "fulfilled" ? (result.value.ok ? "cancelled" : result.value.reason) : "",
      );
      expect(outcomes.filter((outcome) => outcome === "cancelled")).toHaveLength(50);
      expect(outcomes.filter((outcome) => outcome === "already-cancelled")).toHaveLength(50);

      const taking = await db
        .select({ slotTime: booking.slotTime, status: booking.status })
        .from(booking)
        .where(eq(booking.eventId, ev.id));
      const active = taking.filter((row) => row.status === "confirmed" || row.status === "held");
      expect(taking.filter((row) => row.status === "cancelled")).toHaveLength(50);
      expect(active.length).toBeLessThanOrEqual(60);
      for (const slot of slots)
        expect(active.filter((row) => row.slotTime.startsWith(slot)).length).toBeLessThanOrEqual(6);
      // Every hold granted took a place someone freed, and no more were granted than were freed.
      const granted = held.filter(
        (result) => result.status === "fulfilled" && result.value.ok,
      ).length;
      expect(granted).toBe(active.filter((row) => row.status === "held").length);
      expect(granted).toBeLessThanOrEqual(50);
      // The places were counted from the bookings as they changed: some freed places were taken.
      expect(granted).toBeGreaterThan(0);
    });

    it("cancels the booking where a change that committed first put it, and says so in the e-mail", async () => {
      const first = await insertFreeEvent(db, { name: "First Screening", eventDate: "2026-06-10" });
      const second = await insertFreeEvent(db, {
        name: "Second Screening",
        eventDate: "2026-06-20",
      });
      const who = await insertPatient(db);
      const row = await insertBooking(db, {
        eventId: first.id,
        userId: who.id,
        slotTime: "10:00",
        confirmedAt: NOW,
      });

      // A change holds his lock (as changeOwnBooking does) while the cancel arrives.
      let cancelling: ReturnType<typeof cancelOwnBooking> | undefined;
      await db.transaction(async (tx) => {
        await lockPerson(tx, who.id);
        cancelling = cancelOwnBooking(db, { userId: who.id, reference: row.reference }, NOW);
        await waitForALockWait(db);
        await tx
          .update(booking)
          .set({ eventId: second.id, slotTime: "11:00" })
          .where(eq(booking.id, row.id));
      });
      expect((await cancelling!).ok).toBe(true);

      const [mail] = await db
        .select()
        .from(outboxEmail)
        .where(and(eq(outboxEmail.to, who.email), like(outboxEmail.subject, "%is cancelled")));
      expect(mail!.text).toContain("Event: Second Screening");
      expect(mail!.text).not.toContain("First Screening");
    });

    it("makes one refund call to PayPal when the button is pressed three times and two workers retry at once", async () => {
      const fake = fakePayPal();
      const ev = await insertPaidEvent(db, {}, 2500);
      const who = await insertPatient(db);
      const { bookingId, reference, orderId } = await bookingAtCheckout(
        db,
        { eventId: ev.id, userId: who.id, slotTime: "10:00" },
        NOW,
      );
      fake.setOutcome(orderId, "approve");
      fake.approve(orderId);
      const at = new Date(NOW.getTime() + 3 * 60_000);
      expect((await capturePayment(db, { userId: who.id, orderId }, at)).outcome).toBe("confirmed");
      // Slow answers, so that the callers overlap while the first refund is with PayPal.
      fake.delayResponses(300);
      const later = new Date(NOW.getTime() + 10 * 60_000);
      await Promise.all([
        cancelOwnBooking(db, { userId: who.id, reference }, later),
        cancelOwnBooking(db, { userId: who.id, reference }, later),
        cancelOwnBooking(db, { userId: who.id, reference }, later),
        new Promise((resolve) => setTimeout(resolve, 100)).then(() => retryDueRefunds(db, later)),
        new Promise((resolve) => setTimeout(resolve, 150)).then(() => retryDueRefunds(db, later)),
      ]);
      await retryDueRefunds(db, new Date(later.getTime() + 3_600_000));
      const calls = fake.requestsTo("POST", /^\/v2\/payments\/captures\/.+\/refund$/);
      expect(calls.map((call) => call.requestId)).toEqual([`refund-${bookingId}`]);
      const [row] = await db
        .select()
        .from(booking)
        .where(and(eq(booking.id, bookingId), eq(booking.userId, who.id)));
      expect(row).toMatchObject({
        status: "cancelled",
        paymentStatus: "refunded",
        refundOwed: false,
      });
    });
  },
);
