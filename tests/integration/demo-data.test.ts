import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "#app/demo/seed.server";
import { listEventsForAdmin } from "#app/services/admin-events.server";
import { viewAttendees } from "#app/services/attendees.server";
import { cancelEvent } from "#app/services/admin-events.server";
import type { Reminder } from "#app/services/booking/reminder-channel.server";
import { sendDueReminders } from "#app/services/booking/reminders.server";
import { listUpcomingEvents } from "#app/services/events.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import { insertStaff } from "#tests/support/fixtures";

/**
 * Issue 14, finding 12: the demo showed Braintree with 23 booked and nobody in its attendee list;
 * cancelling it said "23 bookings are cancelled", then "1 booking cancelled". Every number the
 * demo shows must be a list of real bookings, counted here straight from the table.
 */

const database = testDatabaseForThisFile({ processWide: true });
const SEEDED = new Date("2026-11-24T09:30:00Z");

// Seeded once for the file; each test reads it (the last cancels an event it alone looks at again).
beforeAll(async () => {
  expect(await seedDemoData(database.db, SEEDED)).toBe(true);
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

describe("demo reminders", () => {
  it("reminds none of the invented attendees, whose hundred reminders would bury the dev mailbox", async () => {
    const { db } = database;
    const upcoming = await rows<{ count: number }>(
      sql`select count(*)::int as count from booking b join event e on e.id = b.event_id
          where b.status = 'confirmed' and b.sample_id is null and e.event_date between '2026-11-24' and '2026-11-26'`,
    );
    expect(upcoming[0]!.count).toBeGreaterThan(50);
    const sent: Reminder[] = [];
    const channel = {
      name: "test",
      send: async (_tx: unknown, reminder: Reminder) => void sent.push(reminder),
    };
    await sendDueReminders(db, channel, new Date(SEEDED.getTime() + 60_000), 48);
    expect(sent.filter((reminder) => reminder.person.email.endsWith("@example.org"))).toEqual([]);
  });
});

describe("demo numbers that are bookings (finding 12)", () => {
  it("shows each demo event's booked places as its confirmed bookings, with an attendee for each", async () => {
    const { db } = database;
    const confirmed = await rows<{ event_id: string; count: number }>(
      sql`select event_id, count(*)::int as count from booking where status = 'confirmed' group by event_id`,
    );
    const countOf = (eventId: string) =>
      Number(confirmed.find((row) => row.event_id === eventId)?.count ?? 0);
    const listed = await listEventsForAdmin(db, {}, SEEDED);
    expect(listed.length).toBeGreaterThan(20);
    expect(listed.filter((row) => row.booked > 0).length).toBeGreaterThan(15);
    for (const row of listed) expect([row.name, row.booked]).toEqual([row.name, countOf(row.id)]);

    const { actor: coordinator } = await insertStaff(db, ["coordinator"]);
    const braintree = listed.find((row) => row.name.startsWith("Braintree"))!;
    const attendees = await viewAttendees(db, coordinator, { eventId: braintree.id, now: SEEDED });
    expect(attendees!.active).toHaveLength(braintree.booked);
  });

  it("keeps every time within its places, and fills a fully booked event in every time", async () => {
    const { db } = database;
    const overfull = await rows<{ event_id: string }>(
      sql`select b.event_id from booking b join event e on e.id = b.event_id
          where b.status = 'confirmed'
          group by b.event_id, b.slot_time, e.places_per_slot
          having count(*) > e.places_per_slot`,
    );
    expect(overfull).toEqual([]);
    const upcoming = await listUpcomingEvents(db, {}, SEEDED);
    const full = upcoming.filter((view) => view.booking_status === "full");
    expect(full.length).toBeGreaterThan(0);
    for (const view of full) expect(view.booked_spaces).toBe(view.total_spaces);
  });

  it("says as many bookings are cancelled as the attendee list had, when an event is cancelled", async () => {
    const { db } = database;
    const listed = await listEventsForAdmin(db, {}, SEEDED);
    const braintree = listed.find((row) => row.name.startsWith("Braintree"))!;
    const { actor: coordinator } = await insertStaff(db, ["coordinator"]);
    const before = await viewAttendees(db, coordinator, { eventId: braintree.id, now: SEEDED });
    const first = await cancelEvent(db, coordinator, braintree.id, SEEDED);
    expect(first).toMatchObject({ ok: true, bookingsCancelled: before!.active.length });
    const again = await cancelEvent(db, coordinator, braintree.id, SEEDED);
    expect(again).toMatchObject({ ok: true, newlyCancelled: false, bookingsCancelled: 0 });
  });
});
