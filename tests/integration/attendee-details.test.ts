import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { profile } from "#app/db/schema";
import { PermissionDenied } from "#app/domain/permissions";
import { correctAttendeeDetails, readAttendeeDetails } from "#app/services/attendee-details.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import { validNhsNumber } from "#tests/support/personal-data";
import {
  auditRows,
  insertBooking,
  insertFreeEvent,
  insertPatient,
  insertStaff,
} from "#tests/support/fixtures";

const database = testDatabaseForThisFile();

/** 08:00 in London on 10 June 2026, the day of each event here. */
const DAY = new Date("2026-06-10T07:00:00Z");
const DAY_BEFORE = new Date("2026-06-09T07:00:00Z");
const RIGHT = { dateOfBirth: "1958-04-12", nhsNumber: "9434765919" };

const staff = async (role: "coordinator" | "event_staff" | "clinician") =>
  (await insertStaff(database.db, [role])).actor;

/** A man booked on an event of his own on 10 June, with the details he signed up with. */
async function booked(
  overrides: {
    labName?: string;
    nhsNumber?: string | null;
    status?: "confirmed" | "cancelled";
  } = {},
) {
  const { db } = database;
  const event = await insertFreeEvent(db, {
    eventDate: "2026-06-10",
    labName: overrides.labName ?? "Chelmsford Pathology",
  });
  const man = await insertPatient(db, {
    firstName: "Norman",
    lastName: "Fairweather",
    dateOfBirth: "1958-12-04",
    nhsNumber: overrides.nhsNumber === undefined ? "4010232137" : overrides.nhsNumber,
  });
  const place = await insertBooking(db, {
    eventId: event.id,
    userId: man.id,
    status: overrides.status ?? "confirmed",
  });
  return { event, man, place };
}

async function recorded(userId: string) {
  const [row] = await database.db
    .select({ dateOfBirth: profile.dateOfBirth, nhsNumber: profile.nhsNumber })
    .from(profile)
    .where(eq(profile.userId, userId));
  return row;
}

describe("correcting a booked man's date of birth and NHS number", () => {
  it("saves both, and the audit log says which changed, never to what", async () => {
    const { event, man, place } = await booked();
    const coordinator = await staff("coordinator");
    const result = await correctAttendeeDetails(database.db, coordinator, {
      eventId: event.id,
      bookingId: place.id,
      details: RIGHT,
      now: DAY_BEFORE,
    });
    expect(result).toEqual({ outcome: "saved", reference: place.reference, changed: true });
    expect(await recorded(man.id)).toEqual(RIGHT);

    const [entry, ...more] = await auditRows(database.db, {
      action: "attendee.details.correct",
      actorUserId: coordinator.id!,
    });
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      subjectUserId: man.id,
      entityType: "booking",
      entityId: place.id,
      details: { eventId: event.id, dateOfBirth: true, nhsNumber: true },
    });
    const written = JSON.stringify(entry);
    for (const value of ["1958", "9434765919", "943 476 5919", "4010232137"])
      expect(written).not.toContain(value);
  });

  it("records nothing when nothing changed", async () => {
    const { event, place } = await booked({ nhsNumber: RIGHT.nhsNumber });
    const coordinator = await staff("coordinator");
    await database.db
      .update(profile)
      .set({ dateOfBirth: RIGHT.dateOfBirth })
      .where(eq(profile.userId, place.userId));
    const result = await correctAttendeeDetails(database.db, coordinator, {
      eventId: event.id,
      bookingId: place.id,
      details: RIGHT,
      now: DAY,
    });
    expect(result).toMatchObject({ outcome: "saved", changed: false });
    expect(
      await auditRows(database.db, {
        action: "attendee.details.correct",
        actorUserId: coordinator.id!,
      }),
    ).toEqual([]);
  });

  it("lets event staff correct on the event's own day only", async () => {
    const { event, man, place } = await booked();
    const atTheDoor = await staff("event_staff");
    await expect(
      correctAttendeeDetails(database.db, atTheDoor, {
        eventId: event.id,
        bookingId: place.id,
        details: RIGHT,
        now: DAY_BEFORE,
      }),
    ).rejects.toBeInstanceOf(PermissionDenied);
    await expect(
      readAttendeeDetails(database.db, atTheDoor, {
        eventId: event.id,
        bookingId: place.id,
        now: DAY_BEFORE,
      }),
    ).rejects.toBeInstanceOf(PermissionDenied);
    expect((await recorded(man.id))?.nhsNumber).toBe("4010232137");

    const onTheDay = await correctAttendeeDetails(database.db, atTheDoor, {
      eventId: event.id,
      bookingId: place.id,
      details: { ...RIGHT, nhsNumber: validNhsNumber() },
      now: DAY,
    });
    expect(onTheDay).toMatchObject({ outcome: "saved", changed: true });
  });

  it("refuses an NHS number recorded for another man at this event, and tells nothing of anyone else's (found by an event-day review)", async () => {
    const { event, man, place } = await booked();
    const coordinator = await staff("coordinator");
    const correct = (nhsNumber: string) =>
      correctAttendeeDetails(database.db, coordinator, {
        eventId: event.id,
        bookingId: place.id,
        details: { ...RIGHT, nhsNumber },
        now: DAY,
      });
    // Another man booked here, whose number (on his card) is copied onto this man's.
    const neighbours = validNhsNumber();
    const neighbour = await insertPatient(database.db, { nhsNumber: neighbours });
    await insertBooking(database.db, {
      eventId: event.id,
      userId: neighbour.id,
      slotTime: "10:30",
    });
    expect(await correct(neighbours)).toEqual({
      outcome: "refused",
      field: "nhsNumber",
      message:
        "That NHS number is recorded for another man booked at this event. Check the 10 digits on his own NHS letter, prescription or the NHS App.",
    });
    expect(await recorded(man.id)).toEqual({ dateOfBirth: "1958-12-04", nhsNumber: "4010232137" });
    // A number held by someone not booked here is not said to be anyone's: the form is no way
    // to learn who else is a patient (found by the attacker review).
    const strangers = validNhsNumber();
    await insertPatient(database.db, { nhsNumber: strangers });
    expect(await correct(strangers)).toMatchObject({ outcome: "saved", changed: true });
  });

  it("is not for a clinician", async () => {
    const { event, place } = await booked();
    await expect(
      correctAttendeeDetails(database.db, await staff("clinician"), {
        eventId: event.id,
        bookingId: place.id,
        details: RIGHT,
        now: DAY,
      }),
    ).rejects.toBeInstanceOf(PermissionDenied);
  });

  it("finds no booking of another event, a cancelled one, or an id that is not one", async () => {
    const coordinator = await staff("coordinator");
    const mine = await booked();
    const other = await booked();
    const cancelled = await booked({ status: "cancelled" });
    for (const [eventId, bookingId] of [
      [mine.event.id, other.place.id],
      [cancelled.event.id, cancelled.place.id],
      [mine.event.id, "not-a-booking"],
    ] as const) {
      expect(
        await correctAttendeeDetails(database.db, coordinator, {
          eventId,
          bookingId,
          details: RIGHT,
          now: DAY,
        }),
      ).toEqual({ outcome: "not-found" });
      expect(
        await readAttendeeDetails(database.db, coordinator, { eventId, bookingId, now: DAY }),
      ).toBeNull();
    }
    expect((await recorded(other.man.id))?.nhsNumber).toBe("4010232137");
    expect((await recorded(cancelled.man.id))?.nhsNumber).toBe("4010232137");
  });

  it("finds no lapsed hold or abandoned checkout: the list does not show them", async () => {
    const coordinator = await staff("coordinator");
    const { db } = database;
    const { event } = await booked();
    const place = async (values: Partial<Parameters<typeof insertBooking>[1]>) =>
      insertBooking(db, {
        eventId: event.id,
        userId: (await insertPatient(db)).id,
        confirmedAt: null,
        ...values,
      });
    const lapsed = await place({ status: "held", holdExpiresAt: new Date(DAY.getTime() - 60_000) });
    const abandoned = await place({
      status: "awaiting_payment",
      paymentStatus: "unpaid",
      holdExpiresAt: new Date(DAY.getTime() - 60_000),
    });
    const live = await place({ status: "held", holdExpiresAt: new Date(DAY.getTime() + 600_000) });
    const read = (bookingId: string) =>
      readAttendeeDetails(db, coordinator, { eventId: event.id, bookingId, now: DAY });
    expect(await read(lapsed.id)).toBeNull();
    expect(await read(abandoned.id)).toBeNull();
    expect(await read(live.id)).toMatchObject({ reference: live.reference });
  });

  it("never removes a recorded NHS number, nor leaves none for a laboratory that needs one", async () => {
    const coordinator = await staff("coordinator");
    const withOne = await booked();
    const esneft = await booked({ labName: "ESNEFT", nhsNumber: null });
    const neither = await booked({ nhsNumber: null });
    const correct = (who: Awaited<ReturnType<typeof booked>>) =>
      correctAttendeeDetails(database.db, coordinator, {
        eventId: who.event.id,
        bookingId: who.place.id,
        details: { dateOfBirth: RIGHT.dateOfBirth, nhsNumber: null },
        now: DAY,
      });
    expect(await correct(withOne)).toEqual({
      outcome: "refused",
      field: "nhsNumber",
      message:
        "Enter his NHS number. A recorded NHS number can be corrected here, but not removed.",
    });
    expect(await correct(esneft)).toEqual({
      outcome: "refused",
      field: "nhsNumber",
      message: "Enter his NHS number: this event's laboratory needs one with every sample.",
    });
    expect(await recorded(withOne.man.id)).toEqual({
      dateOfBirth: "1958-12-04",
      nhsNumber: "4010232137",
    });
    // Neither: his date of birth is saved, and he still has no NHS number.
    expect(await correct(neither)).toMatchObject({ outcome: "saved", changed: true });
    expect(await recorded(neither.man.id)).toEqual({
      dateOfBirth: RIGHT.dateOfBirth,
      nhsNumber: null,
    });
  });

  it("saves a date of birth outside the ages of 40 to 80 on the day only once staff say they checked it (found by an event-day review)", async () => {
    const coordinator = await staff("coordinator");
    const { event, man, place } = await booked({ nhsNumber: RIGHT.nhsNumber });
    const correct = (dateOfBirth: string, ageConfirmed?: boolean) =>
      correctAttendeeDetails(database.db, coordinator, {
        eventId: event.id,
        bookingId: place.id,
        details: { dateOfBirth, nhsNumber: RIGHT.nhsNumber, ageConfirmed },
        now: DAY,
      });
    // A slip of the year, 1995 for 1958, makes him 30 on 10 June 2026.
    expect(await correct("1995-12-04")).toEqual({
      outcome: "refused",
      field: "dateOfBirth",
      message:
        'That date of birth makes him 30 on the day of this event, and screening is for men aged 40 to 80. Check the year with him. If it is right, tick "The date of birth is right" and save.',
    });
    // 10 June 1945 to 10 June 2026 is 81 years.
    expect(await correct("1945-06-10")).toMatchObject({
      outcome: "refused",
      message: expect.stringMatching(/^That date of birth makes him 81 on the day/),
    });
    expect(await recorded(man.id)).toEqual({
      dateOfBirth: "1958-12-04",
      nhsNumber: RIGHT.nhsNumber,
    });
    // The day before his 81st birthday he is still 80: saved without asking.
    expect(await correct("1945-06-11")).toMatchObject({ outcome: "saved", changed: true });
    // Checked with him and ticked: saved as typed.
    expect(await correct("1944-03-01", true)).toMatchObject({ outcome: "saved", changed: true });
    expect(await recorded(man.id)).toMatchObject({ dateOfBirth: "1944-03-01" });
    // Resaving an unchanged date asks nothing again.
    expect(await correct("1944-03-01")).toMatchObject({ outcome: "saved", changed: false });
  });

  it("shows his details as recorded, and the read is audited", async () => {
    const { event, man, place } = await booked({ labName: "esneft" });
    const coordinator = await staff("coordinator");
    const view = await readAttendeeDetails(database.db, coordinator, {
      eventId: event.id,
      bookingId: place.id,
      now: DAY,
    });
    expect(view).toMatchObject({
      reference: place.reference,
      name: "Norman Fairweather",
      dateOfBirth: "1958-12-04",
      nhsNumber: "4010232137",
      labNeedsNhsNumber: true,
    });
    expect(
      await auditRows(database.db, {
        action: "attendee.details.view",
        actorUserId: coordinator.id!,
      }),
    ).toMatchObject([{ subjectUserId: man.id, entityId: place.id }]);
  });
});
