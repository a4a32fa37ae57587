import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { booking } from "#app/db/schema";
import { PermissionDenied } from "#app/domain/permissions";
import { markRemainingNoShows, viewAttendees } from "#app/services/attendees.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  insertBooking,
  insertFreeEvent,
  insertPatient,
  insertStaff,
} from "#tests/support/fixtures";

const database = testDatabaseForThisFile();

/** Each event here is on 10 June 2026 from 10:00 to 12:00, London (summer time: UTC+1). */
const AT = (utc: string) => new Date(`2026-06-10T${utc}Z`);
const BEFORE_THE_END = AT("10:59:00");
const AFTER_THE_END = AT("11:05:00");
const EARLIER = AT("09:10:00");

async function eventWithEveryState() {
  const { db } = database;
  const event = await insertFreeEvent(db, { eventDate: "2026-06-10" });
  const place = async (values: Partial<typeof booking.$inferInsert> = {}) =>
    insertBooking(db, {
      eventId: event.id,
      userId: (await insertPatient(db)).id,
      ...values,
    });
  return {
    event,
    waiting: [await place(), await place()],
    arrived: await place({ arrivedAt: EARLIER }),
    sampled: await place({
      arrivedAt: EARLIER,
      sampleId: `S-${crypto.randomUUID()}`,
      sampleTakenAt: EARLIER,
    }),
    noShow: await place({ noShowAt: EARLIER }),
    cancelled: await place({ status: "cancelled", cancelledAt: EARLIER }),
  };
}

async function noShowAt(ids: string[]) {
  const rows = await database.db
    .select({ id: booking.id, noShowAt: booking.noShowAt, arrivedAt: booking.arrivedAt })
    .from(booking)
    .where(inArray(booking.id, ids));
  return Object.fromEntries(rows.map((row) => [row.id, row.noShowAt?.toISOString() ?? null]));
}

describe("marking everyone still waiting as a no-show", () => {
  it("marks only the confirmed bookings still waiting, once the event has ended, each audited", async () => {
    const { event, waiting, arrived, sampled, noShow, cancelled } = await eventWithEveryState();
    const coordinator = (await insertStaff(database.db, ["coordinator"])).actor;

    // A page listing everyone (a stale or made-up form): only those still waiting are marked.
    const ids = [...waiting, arrived, sampled, noShow, cancelled].map((row) => row.id);
    const result = await markRemainingNoShows(database.db, coordinator, {
      eventId: event.id,
      bookingIds: ids,
      now: AFTER_THE_END,
    });
    expect(result).toEqual({ outcome: "done", marked: 2 });
    expect(await noShowAt(ids)).toEqual({
      [waiting[0]!.id]: AFTER_THE_END.toISOString(),
      [waiting[1]!.id]: AFTER_THE_END.toISOString(),
      [arrived.id]: null,
      [sampled.id]: null,
      // His earlier mark stands, with its own time.
      [noShow.id]: EARLIER.toISOString(),
      [cancelled.id]: null,
    });
    const audited = await auditRows(database.db, {
      action: "checkin.update",
      actorUserId: coordinator.id!,
    });
    expect(audited.map((row) => row.entityId).sort()).toEqual(waiting.map((row) => row.id).sort());
    expect(audited[0]!.details).toMatchObject({
      intent: "no-show",
      from: "waiting",
      to: "no_show",
    });

    // Again: nobody is left waiting.
    expect(
      await markRemainingNoShows(database.db, coordinator, {
        eventId: event.id,
        bookingIds: ids,
        now: AT("11:10:00"),
      }),
    ).toEqual({ outcome: "done", marked: 0 });
  });

  it("marks only the bookings the page listed, and none of another event's", async () => {
    const { event, waiting } = await eventWithEveryState();
    const elsewhere = await eventWithEveryState();
    const coordinator = (await insertStaff(database.db, ["coordinator"])).actor;
    const result = await markRemainingNoShows(database.db, coordinator, {
      eventId: event.id,
      bookingIds: [waiting[0]!.id, elsewhere.waiting[0]!.id, "not-a-booking"],
      now: AFTER_THE_END,
    });
    expect(result).toEqual({ outcome: "done", marked: 1 });
    expect(await noShowAt([waiting[0]!.id, waiting[1]!.id, elsewhere.waiting[0]!.id])).toEqual({
      [waiting[0]!.id]: AFTER_THE_END.toISOString(),
      [waiting[1]!.id]: null,
      [elsewhere.waiting[0]!.id]: null,
    });
  });

  it("is refused before the event has ended, and marks no one", async () => {
    const { event, waiting } = await eventWithEveryState();
    const coordinator = (await insertStaff(database.db, ["coordinator"])).actor;
    expect(
      await markRemainingNoShows(database.db, coordinator, {
        eventId: event.id,
        bookingIds: waiting.map((row) => row.id),
        now: BEFORE_THE_END,
      }),
    ).toEqual({
      outcome: "refused",
      message:
        "Everyone still waiting can be marked as a no-show once the event has ended, at 12:00.",
    });
    expect(Object.values(await noShowAt(waiting.map((row) => row.id)))).toEqual([null, null]);
  });

  it("is for event staff on the event's own day only, and not for a clinician", async () => {
    const { event, waiting } = await eventWithEveryState();
    const atTheDoor = (await insertStaff(database.db, ["event_staff"])).actor;
    const listed = waiting.map((row) => row.id);
    await expect(
      markRemainingNoShows(database.db, atTheDoor, {
        eventId: event.id,
        bookingIds: listed,
        now: new Date("2026-06-11T09:00:00Z"),
      }),
    ).rejects.toBeInstanceOf(PermissionDenied);
    const clinician = (await insertStaff(database.db, ["clinician"])).actor;
    await expect(
      markRemainingNoShows(database.db, clinician, {
        eventId: event.id,
        bookingIds: listed,
        now: AFTER_THE_END,
      }),
    ).rejects.toBeInstanceOf(PermissionDenied);
    expect(Object.values(await noShowAt(waiting.map((row) => row.id)))).toEqual([null, null]);

    expect(
      await markRemainingNoShows(database.db, atTheDoor, {
        eventId: event.id,
        bookingIds: listed,
        now: AFTER_THE_END,
      }),
    ).toEqual({ outcome: "done", marked: 2 });
  });

  it("finds no event for an id that is not one", async () => {
    const coordinator = (await insertStaff(database.db, ["coordinator"])).actor;
    for (const eventId of ["not-an-event", crypto.randomUUID()])
      expect(
        await markRemainingNoShows(database.db, coordinator, {
          eventId,
          bookingIds: [crypto.randomUUID()],
          now: AFTER_THE_END,
        }),
      ).toEqual({ outcome: "not-found" });
  });
});

describe("what closing time lists", () => {
  it("lists apart those who arrived with no sample recorded: a tap missed, or a man who left", async () => {
    const { event, waiting, arrived } = await eventWithEveryState();
    const coordinator = (await insertStaff(database.db, ["coordinator"])).actor;

    const view = await viewAttendees(database.db, coordinator, {
      eventId: event.id,
      now: AFTER_THE_END,
    });

    expect(view!.stillWaiting.map((row) => row.bookingId).sort()).toEqual(
      waiting.map((row) => row.id).sort(),
    );
    expect(view!.arrivedWithoutSample).toEqual([
      expect.objectContaining({ bookingId: arrived.id, reference: arrived.reference }),
    ]);
  });
});
