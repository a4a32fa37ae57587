import { describe, expect, it } from "vitest";
import { enquiry, testResult } from "#app/db/schema";
import { dashboardSummary } from "#app/services/dashboard.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import { insertAccount, insertBooking, insertEvent, insertProduct } from "#tests/support/fixtures";

const database = testDatabaseForThisFile();

const NOW = new Date("2026-06-01T09:00:00Z");
const coordinator = { roles: ["coordinator"] as const };
const eventStaff = { roles: ["event_staff"] as const };
const clinician = { roles: ["clinician"] as const };
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

/** A booking by someone new (one live booking per person and event). */
async function addBooking(
  eventId: string,
  status: "held" | "confirmed" | "expired",
  holdExpiresAt: Date | null,
) {
  const person = await insertAccount(database.db);
  return insertBooking(database.db, { eventId, userId: person.id, status, holdExpiresAt });
}

describe("the dashboard", () => {
  it("counts each upcoming event's booked, held and total places, and what waits for staff", async () => {
    const { db } = database;
    const product = await insertProduct(db);
    const soon = await insertEvent(db, product.id, {
      name: "Soon",
      eventDate: "2026-06-10",
      totalSpaces: 30,
    });
    const other = await insertEvent(db, product.id, { name: "Other", eventDate: "2026-06-11" });
    await insertEvent(db, product.id, { name: "Gone", eventDate: "2026-05-01" });
    await insertEvent(db, product.id, {
      name: "Off",
      eventDate: "2026-06-12",
      status: "cancelled",
    });

    const confirmed = await addBooking(soon.id, "confirmed", null);
    await addBooking(soon.id, "held", later(10));
    await addBooking(soon.id, "held", later(10));
    await addBooking(soon.id, "held", later(-1)); // expired hold: takes no place
    await addBooking(other.id, "held", later(10));

    await db.insert(testResult).values([
      { bookingId: confirmed.id, psaValue: "1.20" },
      {
        bookingId: (await addBooking(other.id, "confirmed", null)).id,
        psaValue: "0.50",
        releasedAt: NOW,
      },
      // Released, then his date of birth changed: its flag is to be checked again.
      {
        bookingId: (await addBooking(other.id, "confirmed", null)).id,
        psaValue: "1.50",
        releasedAt: NOW,
        flagCheckSince: NOW,
      },
    ]);
    await db.insert(enquiry).values([
      {
        firstName: "A",
        lastName: "B",
        email: "a@example.com",
        phoneNumber: "01632 960 000",
        message: "x",
      },
      {
        firstName: "C",
        lastName: "D",
        email: "c@example.com",
        phoneNumber: "01632 960 001",
        message: "y",
        handledAt: NOW,
      },
    ]);

    const summary = await dashboardSummary(db, coordinator, NOW);
    // Only this test's events: another test's may share the database, in any order.
    const mine = new Set(["Soon", "Other", "Gone", "Off"]);
    expect(
      summary.events
        .filter((row) => mine.has(row.name))
        .map((row) => [row.name, row.booked, row.held, row.total]),
    ).toEqual([
      ["Soon", 1, 2, 30],
      // Its confirmed bookings (the ones with a result) count: counts come from bookings.
      ["Other", 2, 1, 40],
    ]);
    expect(summary.unhandledEnquiries).toBe(1);
    // Each count only for whoever acts on it: results are the clinician's.
    expect(summary).toMatchObject({ resultsAwaitingRelease: 0, flagsToCheck: 0 });
    expect(await dashboardSummary(db, clinician, NOW)).toMatchObject({
      resultsAwaitingRelease: 1,
      flagsToCheck: 1,
      unhandledEnquiries: 0,
    });
  });

  it("lists today's events (London) apart, for check-in at the door", async () => {
    const { db } = database;
    const product = await insertProduct(db);
    // 00:30 on 15 June in London (BST) is still 14 June in UTC.
    const justAfterMidnight = new Date("2026-06-14T23:30:00Z");
    await insertEvent(db, product.id, { name: "Yesterday's Clinic", eventDate: "2026-06-14" });
    await insertEvent(db, product.id, { name: "Today's Clinic", eventDate: "2026-06-15" });
    await insertEvent(db, product.id, {
      name: "Called Off",
      eventDate: "2026-06-15",
      status: "cancelled",
    });
    const summary = await dashboardSummary(db, coordinator, justAfterMidnight);
    expect(summary.today.map((row) => row.name)).toEqual(["Today's Clinic"]);
  });

  it("gives event staff today's events and no other day's, nor the coming drafts' names", async () => {
    const { db } = database;
    const product = await insertProduct(db);
    const day = new Date("2026-07-20T08:00:00Z");
    await insertEvent(db, product.id, { name: "Door Clinic", eventDate: "2026-07-20" });
    await insertEvent(db, product.id, { name: "Next Week", eventDate: "2026-07-27" });
    await insertEvent(db, product.id, {
      name: "Secret Draft",
      eventDate: "2026-07-28",
      status: "draft",
    });
    const mine = new Set(["Door Clinic", "Next Week", "Secret Draft"]);
    const names = (rows: readonly { name: string }[]) =>
      rows.map((row) => row.name).filter((name) => mine.has(name));

    const atTheDoor = await dashboardSummary(db, eventStaff, day);
    expect(names(atTheDoor.today)).toEqual(["Door Clinic"]);
    expect(atTheDoor.events).toEqual([]);
    expect(JSON.stringify(atTheDoor)).not.toMatch(/Next Week|Secret Draft/);

    const planner = await dashboardSummary(db, coordinator, day);
    expect(names(planner.events)).toEqual(["Door Clinic", "Next Week", "Secret Draft"]);
  });
});
