import { inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "#app/db/client.server";
import { booking, outboxEmail } from "#app/db/schema";
import type * as reminderService from "#app/services/booking/reminders.server";
import { racingPostgresForThisFile, TEST_SERVER_SECRET } from "#tests/support/database";
import { insertBooking, insertFreeEvent, insertPatient } from "#tests/support/fixtures";

/**
 * Each reminder is queued once, however many servers run the reminder job at the same moment:
 * separately loaded copies of the job (as on separate servers), each on its own connections, on
 * a real PostgreSQL server (PGlite has one connection, so it cannot race). Run with
 * TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Fresh copies of the reminder job and its e-mail channel, like separate servers, each having
 * loaded the server's secret as start-up does (the e-mail's booking link is signed with it).
 */
async function serverInstances(db: Db, count: number) {
  const instances = [];
  for (let index = 0; index < count; index++) {
    vi.resetModules();
    const secrets = await import("#app/services/secrets.server");
    await secrets.loadServerSecret(db, TEST_SERVER_SECRET);
    const jobs: typeof reminderService = await import("#app/services/booking/reminders.server");
    const { emailReminderChannel } = await import("#app/services/booking/reminder-email.server");
    instances.push({ ...jobs, emailReminderChannel });
  }
  return instances;
}

describe.skipIf(!onPostgres)(
  onPostgres
    ? "reminders under contention (PostgreSQL)"
    : "reminders under contention: SKIPPED, it needs PostgreSQL (set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test)",
  () => {
    const racingDb = racingPostgresForThisFile(20);
    let db: Db;
    beforeAll(() => {
      db = racingDb();
    });

    /** `count` men booked at 10:00 (London) on `eventDate`, confirmed weeks before. */
    async function dueBookings(eventDate: string, count: number) {
      const ev = await insertFreeEvent(db, {
        eventDate,
        startTime: "09:00",
        endTime: "12:00",
        sessionDuration: 15,
        totalSpaces: count,
        placesPerSlot: count,
      });
      const people = await Promise.all(Array.from({ length: count }, () => insertPatient(db)));
      const rows = [];
      for (const person of people)
        rows.push(
          await insertBooking(db, {
            eventId: ev.id,
            userId: person.id,
            confirmedAt: new Date("2026-01-02T12:00:00Z"),
          }),
        );
      return { people, rows };
    }

    async function mailCounts(addresses: string[]) {
      const mail = await db
        .select({ to: outboxEmail.to })
        .from(outboxEmail)
        .where(inArray(outboxEmail.to, addresses));
      const counts = new Map<string, number>();
      for (const { to } of mail) counts.set(to, (counts.get(to) ?? 0) + 1);
      return addresses.map((address) => counts.get(address) ?? 0);
    }

    it("two servers running the job at the same moment queue each reminder once", async () => {
      // Friday 13 November 2026, 10:00 GMT; both run on the Wednesday at 12:00.
      const { people, rows } = await dueBookings("2026-11-13", 30);
      const now = new Date("2026-11-11T12:00:00Z");
      const [first, second] = await serverInstances(db, 2);
      const results = await Promise.all([
        first!.sendDueReminders(db, first!.emailReminderChannel, now, 48),
        second!.sendDueReminders(db, second!.emailReminderChannel, now, 48),
      ]);

      expect(results[0]!.sent + results[1]!.sent).toBe(30);
      expect(await mailCounts(people.map((person) => person.email))).toEqual(people.map(() => 1));
      const marked = await db
        .select({ at: booking.reminderSentAt })
        .from(booking)
        .where(
          inArray(
            booking.id,
            rows.map((row) => row.id),
          ),
        );
      expect(marked.every((row) => row.at?.getTime() === now.getTime())).toBe(true);
    });

    it("six servers at once, over more bookings than one batch, still queue each reminder once", async () => {
      const { people } = await dueBookings("2026-12-11", 250);
      const now = new Date("2026-12-09T12:00:00Z");
      const servers = await serverInstances(db, 6);
      const results = await Promise.all(
        servers.map((server) => server.sendDueReminders(db, server.emailReminderChannel, now, 48)),
      );

      expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(250);
      expect(await mailCounts(people.map((person) => person.email))).toEqual(people.map(() => 1));
    });
  },
);
