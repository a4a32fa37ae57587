import crypto from "node:crypto";
import { parse } from "csv-parse/sync";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, booking, consent, profile, testResult } from "#app/db/schema";
import { CHECK_IN_MESSAGES, type CheckInCommand } from "#app/domain/check-in";
import { CONSENT_WORDING_VERSION } from "#app/domain/consent";
import {
  eventOfBookingReference,
  exportLabCsv,
  printAttendees,
  recordCheckIn,
  viewAttendees,
} from "#app/services/attendees.server";
import { recordConsent, submitConsent } from "#app/services/booking/consent.server";
import { sendConsentLink } from "#app/services/consent-link-mail.server";
import { deleteMyAccount } from "#app/services/my-data.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  consentForm,
  holdFor,
  insertAccount,
  insertBooking,
  insertFreeEvent,
  insertPatient,
  insertStaff,
  type StaffMember,
  uniqueId,
} from "#tests/support/fixtures";

const database = testDatabaseForThisFile();

/** The lab CSV an export gave, or the test fails saying what it gave instead. */
function theFile(exported: Awaited<ReturnType<typeof exportLabCsv>>) {
  if (!exported || exported === "no-lab") throw new Error(`No file: ${String(exported)}`);
  return exported;
}

/** The fixture's event is on 10 June 2026, 10:00 to 12:00; this is 08:00 London time that day. */
const DAY = new Date("2026-06-10T07:00:00Z");
const later = (minutes: number) => new Date(DAY.getTime() + minutes * 60_000);
const weekBefore = later(-60 * 24 * 7);

/** A coordinator of their own, as the services are given one. */
async function coordinator() {
  return (await insertStaff(database.db, ["coordinator"], { clientAddress: "10.0.0.7" })).actor;
}

/**
 * A signed-up man whose account name is not his profile's name, so that a list showing the
 * profile's name is seen to.
 */
const person = (details: Parameters<typeof insertPatient>[1] = {}) =>
  insertPatient(database.db, { name: "Account Name", ...details });

/** A confirmed booking, written as a week before the event unless told otherwise. */
const book = (eventId: string, userId: string, values: Partial<typeof booking.$inferInsert> = {}) =>
  insertBooking(database.db, { eventId, userId, confirmedAt: weekBefore, ...values });

/** A tap on the check-in page by `staff`, `minutes` after 08:00 on the event's day. */
const checkIn = (
  staff: StaffMember["actor"],
  eventId: string,
  command: CheckInCommand,
  minutes: number,
) => recordCheckIn(database.db, staff, { eventId, command, now: later(minutes) });

async function insertConsent(bookingId: string, userId: string, wordingVersion: string, at: Date) {
  await database.db.insert(consent).values({
    bookingId,
    userId,
    testDate: "2026-06-10",
    answers: { numberOfPsaTest: 1 },
    gpConsent: true,
    wordingVersion,
    agreedAt: at,
  });
}

/**
 * An event with one of everything: a booking made through the booking service, confirmed ones
 * inserted directly (one with two consents, one whose name looks like a formula, one by a staff
 * account without a profile), a live hold, a lapsed hold, a cancelled and an expired booking;
 * and a second event with its own booking.
 */
async function eventWithBookings() {
  const { db } = database;
  const ev = await insertFreeEvent(db, {
    name: `Riverside Club Screening ${uniqueId()}`,
    labName: "ESNEFT",
  });
  const other = await insertFreeEvent(db, { name: "Another Screening" });

  // Booked through the service a week before, as a visitor would.
  const arthur = await person({ firstName: "Arthur", nhsNumber: "9434765919" });
  const held = await holdFor(
    db,
    { eventId: ev.id, userId: arthur.id, slotTime: "10:30" },
    weekBefore,
  );
  const confirmed = await submitConsent(
    db,
    { userId: arthur.id, reference: held.reference, form: consentForm },
    weekBefore,
  );
  expect(confirmed).toMatchObject({ next: "confirmed" });
  const [arthurBooking] = await db
    .select()
    .from(booking)
    .where(eq(booking.reference, held.reference));

  // The event's laboratory (ESNEFT) needs an NHS number: everyone sampled here has one.
  const bernard = await person({
    firstName: "Bernard",
    lastName: "Zeal",
    dateOfBirth: "1970-12-31",
    nhsNumber: "9434765927",
  });
  const bernardBooking = await book(ev.id, bernard.id, {
    slotTime: "10:00",
    pricePence: 2500,
    paymentRequired: true,
    paymentStatus: "paid",
  });
  await insertConsent(bernardBooking.id, bernard.id, "2025-01", later(-60 * 24 * 30));
  await insertConsent(bernardBooking.id, bernard.id, "2026-11", later(-60 * 24 * 8));

  const formula = await person({
    firstName: "=HYPERLINK(1)",
    lastName: "-Minus",
    nhsNumber: "9434765935",
  });
  const formulaBooking = await book(ev.id, formula.id, { slotTime: "11:00" });
  await insertConsent(formulaBooking.id, formula.id, "2026-11", later(-60 * 24 * 8));

  // A staff account has no profile.
  const staffId = (await insertAccount(db, { name: "Sam Staffmember" })).id;
  const staffBooking = await book(ev.id, staffId, { slotTime: "11:30" });

  const holder = await person({ firstName: "Harold", lastName: "Holder" });
  const liveHold = await book(ev.id, holder.id, {
    slotTime: "10:00",
    status: "held",
    holdExpiresAt: later(10),
    paymentStatus: "unpaid",
    paymentRequired: true,
    pricePence: 2500,
    confirmedAt: null,
  });
  const lapsed = await person({ firstName: "Larry", lastName: "Lapsed" });
  await book(ev.id, lapsed.id, {
    status: "awaiting_payment",
    holdExpiresAt: later(-5),
    paymentStatus: "unpaid",
    confirmedAt: null,
  });
  const cancelledPerson = await person({ firstName: "Colin", lastName: "Cancelled" });
  const cancelledBooking = await book(ev.id, cancelledPerson.id, {
    slotTime: "10:30",
    status: "cancelled",
    cancelledAt: later(-60),
    paymentStatus: "refunded",
  });
  const expired = await person({ firstName: "Eric", lastName: "Expired" });
  await book(ev.id, expired.id, { status: "expired", confirmedAt: null });

  const elsewhere = await person({ firstName: "Owen", lastName: "Otherevent" });
  const elsewhereBooking = await book(other.id, elsewhere.id, { slotTime: "10:00" });
  await insertConsent(elsewhereBooking.id, elsewhere.id, "2026-11", later(-60 * 24 * 8));

  return {
    ev,
    other,
    people: { arthur, bernard, formula, holder, cancelledPerson, staffId, elsewhere },
    bookings: {
      arthur: arthurBooking!,
      bernard: bernardBooking,
      formula: formulaBooking,
      staff: staffBooking,
      liveHold,
      cancelled: cancelledBooking,
      elsewhere: elsewhereBooking,
    },
  };
}

describe("the attendee list", () => {
  it("shows each place in slot order with the person's details, consent, payment and check-in", async () => {
    const { db } = database;
    const { ev, people, bookings } = await eventWithBookings();
    const view = await viewAttendees(db, await coordinator(), { eventId: ev.id, now: DAY });
    expect(view).not.toBeNull();
    const { active, cancelled, event, totals } = view!;
    expect(event).toMatchObject({
      id: ev.id,
      name: ev.name,
      eventDate: "2026-06-10",
      labName: "ESNEFT",
    });

    // 10:00 Holder, 10:00 Zeal (surname order), 10:30 Arthur, 11:00 the formula, 11:30 staff.
    expect(active.map((row) => row.reference)).toEqual([
      bookings.liveHold.reference,
      bookings.bernard.reference,
      bookings.arthur.reference,
      bookings.formula.reference,
      bookings.staff.reference,
    ]);
    expect(active[2]).toEqual({
      bookingId: bookings.arthur.id,
      reference: bookings.arthur.reference,
      userId: people.arthur.id,
      slotTime: "10:30",
      status: "confirmed",
      paymentStatus: "not_required",
      refundOwed: false,
      firstName: "Arthur",
      lastName: people.arthur.lastName,
      name: `Arthur ${people.arthur.lastName}`,
      dateOfBirth: "1966-03-01",
      nhsNumber: "9434765919",
      consent: {
        wordingVersion: CONSENT_WORDING_VERSION,
        agreedAt: later(-60 * 24 * 7).toISOString(),
      },
      checkIn: "waiting",
      arrivedAt: null,
      noShowAt: null,
      sampleId: null,
      sampleTakenAt: null,
      canCheckIn: true,
      hasProfile: true,
    });
    // The newest of two consents, with its wording version.
    expect(active[1]).toMatchObject({
      name: "Bernard Zeal",
      dateOfBirth: "1970-12-31",
      paymentStatus: "paid",
      consent: { wordingVersion: "2026-11", agreedAt: later(-60 * 24 * 8).toISOString() },
    });
    // A live hold is shown as such, without consent, and cannot be checked in.
    expect(active[0]).toMatchObject({
      name: "Harold Holder",
      status: "held",
      paymentStatus: "unpaid",
      consent: null,
      canCheckIn: false,
    });
    // A staff account has no profile: its account name, no date of birth or NHS number.
    expect(active[4]).toMatchObject({
      userId: people.staffId,
      name: "Sam Staffmember",
      dateOfBirth: null,
      nhsNumber: null,
      consent: null,
      hasProfile: false,
    });
    // Cancelled apart; expired and lapsed holds not at all; another event's booking not at all.
    expect(cancelled.map((row) => row.reference)).toEqual([bookings.cancelled.reference]);
    // What the page shows of it, and nothing more: no date of birth, NHS number or consent.
    expect(cancelled[0]).toEqual({
      bookingId: bookings.cancelled.id,
      reference: bookings.cancelled.reference,
      slotTime: bookings.cancelled.slotTime,
      name: "Colin Cancelled",
      paymentStatus: "refunded",
      refundOwed: false,
    });
    expect(JSON.stringify(view)).not.toContain("Lapsed");
    expect(JSON.stringify(view)).not.toContain("Expired");
    expect(JSON.stringify(view)).not.toContain(bookings.elsewhere.reference);
    expect(totals).toEqual({ booked: 4, arrived: 0, samples: 0, noShows: 0, waiting: 4 });
  });

  it("writes one audit row for the list and one per person shown, with whose data it was", async () => {
    const { db } = database;
    const { ev, people, bookings } = await eventWithBookings();
    const staff = await coordinator();
    await viewAttendees(db, staff, { eventId: ev.id, now: DAY });
    const rows = await auditRows(db, { actorUserId: staff.id });
    expect(rows.every((row) => row.action === "attendees.view")).toBe(true);
    expect(rows.every((row) => row.ipAddress === "10.0.0.7")).toBe(true);
    const [summary, ...perPerson] = rows;
    expect(summary).toMatchObject({
      entityType: "event",
      entityId: ev.id,
      subjectUserId: null,
      details: { shown: 6, searched: false },
    });
    const expected = [
      [people.holder.id, bookings.liveHold.id],
      [people.bernard.id, bookings.bernard.id],
      [people.arthur.id, bookings.arthur.id],
      [people.formula.id, bookings.formula.id],
      [people.staffId, bookings.staff.id],
      [people.cancelledPerson.id, bookings.cancelled.id],
    ];
    expect(perPerson.map((row) => [row.subjectUserId, row.entityId])).toEqual(expected);
    expect(perPerson.every((row) => row.entityType === "booking")).toBe(true);
    expect(perPerson.every((row) => row.details?.eventId === ev.id)).toBe(true);

    // "Who has looked at Arthur's details?" is one query.
    const aboutArthur = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectUserId, people.arthur.id));
    expect(aboutArthur.map((row) => [row.actorUserId, row.action])).toEqual([
      [staff.id, "attendees.view"],
    ]);
  });

  it("finds people by name or by booking reference, and audits only those shown", async () => {
    const { db } = database;
    const { ev, people, bookings } = await eventWithBookings();
    const byName = await viewAttendees(db, await coordinator(), {
      eventId: ev.id,
      search: " zeal ",
      now: DAY,
    });
    expect(byName!.search).toBe("zeal");
    expect(byName!.active.map((row) => row.userId)).toEqual([people.bernard.id]);
    expect(byName!.cancelled).toEqual([]);
    // Totals stay those of the whole event.
    expect(byName!.totals.booked).toBe(4);

    const both = await viewAttendees(db, await coordinator(), {
      eventId: ev.id,
      search: `arthur ${people.arthur.lastName.toUpperCase()}`,
      now: DAY,
    });
    expect(both!.active.map((row) => row.userId)).toEqual([people.arthur.id]);

    const staff = await coordinator();
    const reference = bookings.formula.reference.toLowerCase().replaceAll("-", "");
    const byReference = await viewAttendees(db, staff, {
      eventId: ev.id,
      search: reference,
      now: DAY,
    });
    expect(byReference!.active.map((row) => row.reference)).toEqual([bookings.formula.reference]);
    const audited = await auditRows(db, { actorUserId: staff.id, action: "attendees.view" });
    expect(audited.map((row) => row.subjectUserId)).toEqual([null, people.formula.id]);
    expect(audited[0]!.details).toEqual({ shown: 1, searched: true });
    // What was typed is not in the audit log.
    expect(JSON.stringify(audited)).not.toContain(reference);

    const cancelledOnly = await viewAttendees(db, await coordinator(), {
      eventId: ev.id,
      search: "colin",
      now: DAY,
    });
    expect(cancelledOnly!.active).toEqual([]);
    expect(cancelledOnly!.cancelled.map((row) => row.bookingId)).toEqual([bookings.cancelled.id]);

    const nobody = await viewAttendees(db, await coordinator(), {
      eventId: ev.id,
      search: "nobody",
      now: DAY,
    });
    expect(nobody!.active).toEqual([]);
  });

  it("audits the men the lists above the search name, whom the search left out", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { name: `Lists ${uniqueId()}`, labName: "ESNEFT" });
    const searched = await person({
      firstName: "Alfred",
      lastName: "Searchwell",
      nhsNumber: "9434765919",
    });
    const numberless = await person({ firstName: "Bertram", lastName: "Numberless" });
    const waiting = await person({
      firstName: "Cyril",
      lastName: "Stillhere",
      nhsNumber: "9434765927",
    });
    await book(ev.id, searched.id, { slotTime: "10:00" });
    const numberlessBooking = await book(ev.id, numberless.id, { slotTime: "10:30" });
    const waitingBooking = await book(ev.id, waiting.id, { slotTime: "11:00" });
    const subjects = async (staff: StaffMember["actor"]) =>
      (await auditRows(db, { actorUserId: staff.id, action: "attendees.view" }))
        .map((row) => row.subjectUserId)
        .filter((id) => id !== null)
        .sort();

    // A week before: the men lacking an NHS number are named, searched for or not.
    const before = await coordinator();
    const early = await viewAttendees(db, before, {
      eventId: ev.id,
      search: "searchwell",
      now: weekBefore,
    });
    expect(early!.active.map((row) => row.userId)).toEqual([searched.id]);
    expect(early!.withoutNhsNumber.map((row) => row.bookingId)).toEqual([numberlessBooking.id]);
    expect(await subjects(before)).toEqual([searched.id, numberless.id].sort());

    // After the event has ended (12:00): everyone still waiting is named as well.
    const after = await coordinator();
    const late = await viewAttendees(db, after, {
      eventId: ev.id,
      search: "searchwell",
      now: later(60 * 5),
    });
    expect(late!.stillWaiting.map((row) => row.bookingId)).toContain(waitingBooking.id);
    expect(await subjects(after)).toEqual([searched.id, numberless.id, waiting.id].sort());
  });

  it("names two booked men with one NHS number, searched for or not, each audited (found by the attacker review)", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { name: `Shared ${uniqueId()}` });
    const one = await person({
      firstName: "Dennis",
      lastName: "Onenumber",
      nhsNumber: "9434765919",
    });
    const two = await person({
      firstName: "Edwin",
      lastName: "Samenumber",
      nhsNumber: "9434765919",
    });
    const own = await person({
      firstName: "Frank",
      lastName: "Ownnumber",
      nhsNumber: "4010232137",
    });
    const first = await book(ev.id, one.id, { slotTime: "10:00" });
    const second = await book(ev.id, two.id, { slotTime: "10:30" });
    await book(ev.id, own.id, { slotTime: "11:00" });
    const staff = await coordinator();
    const view = await viewAttendees(db, staff, { eventId: ev.id, search: "ownnumber", now: DAY });
    expect(view!.sharingNhsNumber.map((row) => row.bookingId)).toEqual([first.id, second.id]);
    const audited = (await auditRows(db, { actorUserId: staff.id, action: "attendees.view" }))
      .map((row) => row.subjectUserId)
      .filter((id) => id !== null)
      .sort();
    expect(audited).toEqual([one.id, two.id, own.id].sort());
  });

  it("sends no man it does not audit: the page's data can be fetched without the page", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { name: `Unnamed ${uniqueId()}` });
    // Each his own NHS number: men sharing one are named above the list, searched for or not.
    const men = await Promise.all(
      [
        ["Dunstan", "9434765919"],
        ["Ethelbert", "9434765927"],
        ["Fulk", "4010232137"],
      ].map(([firstName, nhsNumber]) => person({ firstName, lastName: "Waitwell", nhsNumber })),
    );
    const bookings = await Promise.all(
      men.map((man, index) =>
        book(ev.id, man.id, { slotTime: ["10:00", "10:30", "11:00"][index] }),
      ),
    );
    await db
      .update(booking)
      .set({ arrivedAt: later(60 * 2) })
      .where(eq(booking.id, bookings[2]!.id));
    /** Every booking id anywhere in what the service returned. */
    const bookingIdsIn = (value: unknown): string[] => {
      if (Array.isArray(value)) return value.flatMap(bookingIdsIn);
      if (value === null || typeof value !== "object") return [];
      return Object.entries(value).flatMap(([key, inner]) =>
        key === "bookingId" && typeof inner === "string" ? [inner] : bookingIdsIn(inner),
      );
    };
    const audited = async (staff: StaffMember["actor"]) =>
      (await auditRows(db, { actorUserId: staff.id, action: "attendees.view" }))
        .filter((row) => row.entityType === "booking")
        .map((row) => row.entityId);

    // On the day, before the end and after it, a search that finds nobody.
    for (const [now, named] of [
      [later(60), 0],
      [later(60 * 5), 3],
    ] as const) {
      const staff = await coordinator();
      const view = await viewAttendees(db, staff, { eventId: ev.id, search: "nobody", now });
      expect(view!.active).toEqual([]);
      const sent = new Set(bookingIdsIn(view));
      expect(sent.size).toBe(named);
      expect(new Set(await audited(staff))).toEqual(sent);
      expect(view!.totals.waiting).toBe(2);
    }
  });

  it("shows consent given on the stand-alone form for his test's day, as the e-mailed link asks", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { name: `Door Consent Screening ${uniqueId()}` });
    const walkIn = await person({ firstName: "Walter", lastName: "Doorstep" });
    const row = await book(ev.id, walkIn.id, { slotTime: "10:00" });
    // He also had a booking here that was cancelled: the consent belongs to the one he kept.
    await book(ev.id, walkIn.id, { slotTime: "11:00", status: "cancelled" });
    const coordinatorActor = await coordinator();
    const consentOf = async () =>
      (await viewAttendees(db, coordinatorActor, { eventId: ev.id, now: DAY }))!.active.find(
        (attendee) => attendee.bookingId === row.id,
      )!.consent;
    expect(await consentOf()).toBeNull();

    // Another day's consent is not this test's.
    await recordConsent(
      db,
      { userId: walkIn.id, testDate: "2026-06-11", form: consentForm },
      later(1),
    );
    expect(await consentOf()).toBeNull();

    await recordConsent(
      db,
      { userId: walkIn.id, testDate: "2026-06-10", form: consentForm },
      later(5),
    );
    expect(await consentOf()).toEqual({
      wordingVersion: CONSENT_WORDING_VERSION,
      agreedAt: later(5).toISOString(),
    });
  });

  it("is null for an event that does not exist or an id that cannot be one", async () => {
    const { db } = database;
    const staff = await coordinator();
    expect(await viewAttendees(db, staff, { eventId: crypto.randomUUID() })).toBeNull();
    expect(await viewAttendees(db, staff, { eventId: "not-an-id'; drop table event" })).toBeNull();
    expect(await printAttendees(db, staff, { eventId: crypto.randomUUID() })).toBeNull();
    expect(await exportLabCsv(db, staff, { eventId: "nope" })).toBeNull();
    expect(await auditRows(db, { actorUserId: staff.id })).toEqual([]);
  });
});

describe("finding a booking by its reference, whichever event it is at", () => {
  it("finds a booking on an event's list however it is typed, and nothing else (found by the event-day review)", async () => {
    const staff = await coordinator();
    const ev = await insertFreeEvent(database.db);
    const man = await person();
    const place = await book(ev.id, man.id);
    const cancelled = await book(ev.id, (await person()).id, { status: "cancelled" });
    const lapsed = await book(ev.id, (await person()).id, {
      status: "held",
      holdExpiresAt: later(-1),
    });
    const loose = place.reference.toLowerCase().replace(/-/g, " ");
    for (const typed of [place.reference, loose])
      expect(await eventOfBookingReference(database.db, staff, typed, DAY)).toEqual({
        eventId: ev.id,
        reference: place.reference,
      });
    expect(await eventOfBookingReference(database.db, staff, cancelled.reference, DAY)).toEqual({
      eventId: ev.id,
      reference: cancelled.reference,
    });
    // Not on the list, so not found: a hold that ran out, a reference no booking has, nonsense.
    for (const typed of [lapsed.reference, "MHAT-2222-3333", "not a reference", ""])
      expect(await eventOfBookingReference(database.db, staff, typed, DAY)).toBeNull();
  });

  it("finds for event staff only what is at an event of the day, and for a clinician nothing", async () => {
    const atTheDoor = (await insertStaff(database.db, ["event_staff"])).actor;
    const ev = await insertFreeEvent(database.db);
    const place = await book(ev.id, (await person()).id);
    expect(await eventOfBookingReference(database.db, atTheDoor, place.reference, DAY)).toEqual({
      eventId: ev.id,
      reference: place.reference,
    });
    expect(
      await eventOfBookingReference(database.db, atTheDoor, place.reference, weekBefore),
    ).toBeNull();
    const clinician = (await insertStaff(database.db, ["clinician"])).actor;
    await expect(
      eventOfBookingReference(database.db, clinician, place.reference, DAY),
    ).rejects.toThrow();
  });
});

describe("check-in", () => {
  const arrived = (bookingId: string): CheckInCommand => ({ intent: "arrived", bookingId });
  /** A no-show from a page that showed him `from`. */
  const noShow = (bookingId: string, from: "waiting" | "arrived" = "waiting"): CheckInCommand => ({
    intent: "no-show",
    bookingId,
    from,
  });
  const sample = (bookingId: string, sampleId: string): CheckInCommand => ({
    intent: "sample",
    bookingId,
    sampleId,
  });

  async function stored(bookingId: string) {
    const [row] = await database.db.select().from(booking).where(eq(booking.id, bookingId));
    return row!;
  }

  // Issue 14, item 10: an appointment 10 days away was checked in and its sample recorded.
  it("refuses a no-show before his time, but not for one who came and left (found by the event-day review)", async () => {
    const staff = await coordinator();
    const ev = await insertFreeEvent(database.db);
    const place = await book(ev.id, (await person()).id, { slotTime: "10:30" });
    // 09:00 in London: due at 10:30.
    expect(await checkIn(staff, ev.id, noShow(place.id, "waiting"), 60)).toEqual({
      outcome: "refused",
      reference: place.reference,
      field: "checkIn",
      message: CHECK_IN_MESSAGES.notDueYet("10:30"),
    });
    expect(await stored(place.id)).toMatchObject({ noShowAt: null });
    expect(await checkIn(staff, ev.id, arrived(place.id), 61)).toMatchObject({ to: "arrived" });
    expect(await checkIn(staff, ev.id, noShow(place.id, "arrived"), 62)).toMatchObject({
      to: "no_show",
    });
    // From 10:30 a man still waiting may be marked.
    const late = await book(ev.id, (await person()).id, { slotTime: "10:30" });
    expect(await checkIn(staff, ev.id, noShow(late.id, "waiting"), 150)).toMatchObject({
      to: "no_show",
    });
  });

  it("refuses check-in before the appointment's day: nothing changes, nothing is audited", async () => {
    const { db } = database;
    const { ev, bookings } = await eventWithBookings();
    const staff = await coordinator();
    const id = bookings.bernard.id;
    const tenDaysBefore = later(-60 * 24 * 10);
    for (const command of [arrived(id), noShow(id), sample(id, `S-${uniqueId()}`.slice(0, 40))]) {
      expect(
        await recordCheckIn(db, staff, { eventId: ev.id, command, now: tenDaysBefore }),
      ).toEqual({
        outcome: "refused",
        reference: bookings.bernard.reference,
        field: "checkIn",
        message: "Check-in opens on the day of the appointment, Wednesday, 10 June 2026.",
      });
    }
    expect(await stored(id)).toMatchObject({
      arrivedAt: null,
      noShowAt: null,
      sampleId: null,
      sampleTakenAt: null,
    });
    expect(await auditRows(db, { actorUserId: staff.id, action: "checkin.update" })).toEqual([]);
    // The list says when check-in opens, and offers no check-in until then.
    const early = await viewAttendees(db, staff, { eventId: ev.id, now: tenDaysBefore });
    expect(early?.checkInOpensOn).toBe("2026-06-10");
    const onTheDay = await viewAttendees(db, staff, { eventId: ev.id, now: DAY });
    expect(onTheDay?.checkInOpensOn).toBeNull();
  });

  it("marks an arrival, a no-show and back, each audited once", async () => {
    const { db } = database;
    const { ev, people, bookings } = await eventWithBookings();
    const staff = await coordinator();
    const id = bookings.bernard.id;

    expect(await checkIn(staff, ev.id, arrived(id), 5)).toEqual({
      outcome: "done",
      reference: bookings.bernard.reference,
      changed: true,
      to: "arrived",
    });
    expect(await stored(id)).toMatchObject({
      arrivedAt: later(5),
      noShowAt: null,
      updatedAt: later(5),
    });

    // A second tap changes nothing and writes nothing.
    expect(await checkIn(staff, ev.id, arrived(id), 6)).toMatchObject({
      changed: false,
      to: "arrived",
    });
    expect((await stored(id)).arrivedAt).toEqual(later(5));

    // A tablet whose page still showed him waiting cannot wipe out the arrival...
    expect(await checkIn(staff, ev.id, noShow(id, "waiting"), 7)).toMatchObject({
      outcome: "refused",
      message: CHECK_IN_MESSAGES.changedMeanwhile,
    });
    expect((await stored(id)).arrivedAt).toEqual(later(5));
    // ...one that showed the arrival can mark him a no-show.
    expect(await checkIn(staff, ev.id, noShow(id, "arrived"), 7)).toMatchObject({
      changed: true,
      to: "no_show",
    });
    expect(await stored(id)).toMatchObject({ arrivedAt: null, noShowAt: later(7) });
    expect(
      await checkIn(staff, ev.id, { intent: "undo", bookingId: id, from: "no_show" }, 8),
    ).toMatchObject({ changed: true, to: "waiting" });
    expect(await stored(id)).toMatchObject({ arrivedAt: null, noShowAt: null });

    const audited = await auditRows(db, { actorUserId: staff.id, action: "checkin.update" });
    expect(
      audited.map((row) => [row.subjectUserId, row.entityType, row.entityId, row.details]),
    ).toEqual([
      [
        people.bernard.id,
        "booking",
        id,
        { eventId: ev.id, intent: "arrived", from: "waiting", to: "arrived" },
      ],
      [
        people.bernard.id,
        "booking",
        id,
        { eventId: ev.id, intent: "no-show", from: "arrived", to: "no_show" },
      ],
      [
        people.bernard.id,
        "booking",
        id,
        { eventId: ev.id, intent: "undo", from: "no_show", to: "waiting" },
      ],
    ]);
  });

  it("records a sample id (which means he arrived) and refuses one already used", async () => {
    const { db } = database;
    const { ev, other, bookings } = await eventWithBookings();
    const staff = await coordinator();
    const sampleId = `S-${uniqueId()}`.slice(0, 40);

    expect(await checkIn(staff, ev.id, sample(bookings.arthur.id, sampleId), 10)).toMatchObject({
      outcome: "done",
      changed: true,
      to: "sample_taken",
    });
    expect(await stored(bookings.arthur.id)).toMatchObject({
      sampleId,
      sampleTakenAt: later(10),
      arrivedAt: later(10),
    });

    // The same id, in another case, for someone else at this event: refused, naming the booking.
    expect(
      await checkIn(staff, ev.id, sample(bookings.bernard.id, sampleId.toLowerCase()), 11),
    ).toEqual({
      outcome: "refused",
      reference: bookings.bernard.reference,
      field: "sampleId",
      message: CHECK_IN_MESSAGES.sampleIdInUse(bookings.arthur.reference),
    });
    expect(await stored(bookings.bernard.id)).toMatchObject({ sampleId: null, arrivedAt: null });

    // ...and at another event, since the lab's results are matched by sample id.
    expect(
      await checkIn(staff, other.id, sample(bookings.elsewhere.id, sampleId), 12),
    ).toMatchObject({ outcome: "refused", message: CHECK_IN_MESSAGES.sampleIdInUseElsewhere });

    // A no-show after a sample is refused; a different sample id too.
    expect(await checkIn(staff, ev.id, noShow(bookings.arthur.id), 13)).toMatchObject({
      outcome: "refused",
      message: CHECK_IN_MESSAGES.noShowAfterSample,
    });
    expect(await checkIn(staff, ev.id, sample(bookings.arthur.id, "OTHER-1"), 13)).toMatchObject({
      outcome: "refused",
      field: "sampleId",
    });

    // Undoing the sample keeps the arrival and frees the id for the right person.
    expect(
      await checkIn(
        staff,
        ev.id,
        { intent: "undo", bookingId: bookings.arthur.id, from: "sample_taken", sampleId },
        14,
      ),
    ).toMatchObject({ outcome: "done", to: "arrived" });
    expect(await stored(bookings.arthur.id)).toMatchObject({
      sampleId: null,
      arrivedAt: later(10),
    });
    expect(await checkIn(staff, ev.id, sample(bookings.bernard.id, sampleId), 15)).toMatchObject({
      outcome: "done",
      to: "sample_taken",
    });

    // The audit log has the changes, never the sample id typed.
    const audited = await auditRows(db, { actorUserId: staff.id, action: "checkin.update" });
    expect(audited.map((row) => row.details?.intent)).toEqual(["sample", "undo", "sample"]);
    expect(JSON.stringify(audited)).not.toContain(sampleId);
  });

  it("takes no sample from a man with no consent on record, until he gives it for the day", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { name: `No Consent Clinic ${uniqueId()}` });
    const man = await person({ firstName: "Ivor", lastName: "Unsigned" });
    const place = await book(ev.id, man.id, { slotTime: "10:10" });
    const staff = await coordinator();
    const sampleId = `S-${uniqueId()}`.slice(0, 40);

    expect(await checkIn(staff, ev.id, sample(place.id, sampleId), 5)).toEqual({
      outcome: "refused",
      reference: place.reference,
      field: "sampleId",
      message:
        "No consent is recorded for him, so no sample can be taken yet. E-mail him the consent form to fill in on his phone, then record the sample.",
    });
    expect(await stored(place.id)).toMatchObject({ sampleId: null, arrivedAt: null });
    // He may still be marked as arrived while he fills the form in.
    expect(await checkIn(staff, ev.id, arrived(place.id), 6)).toMatchObject({ outcome: "done" });

    // Consent for another day's test is not consent for this one.
    await recordConsent(
      db,
      { userId: man.id, testDate: "2026-06-11", form: consentForm },
      later(7),
    );
    expect(await checkIn(staff, ev.id, sample(place.id, sampleId), 8)).toMatchObject({
      outcome: "refused",
    });
    // Given on his phone from the e-mailed link (the stand-alone form, for this day): taken.
    await recordConsent(
      db,
      { userId: man.id, testDate: "2026-06-10", form: consentForm },
      later(9),
    );
    expect(await checkIn(staff, ev.id, sample(place.id, sampleId), 10)).toMatchObject({
      outcome: "done",
      to: "sample_taken",
    });
  });

  it("takes no sample for a laboratory that needs an NHS number until his is recorded", async () => {
    const { db } = database;
    // He booked while the event sent its samples elsewhere; then it moved to ESNEFT, which matches
    // samples by NHS number and will not test one without.
    const ev = await insertFreeEvent(db, {
      name: `Lab Move Clinic ${uniqueId()}`,
      labName: "ESNEFT",
    });
    const man = await person({ firstName: "Norman", lastName: "Numberless" });
    const place = await book(ev.id, man.id, { slotTime: "10:10" });
    await insertConsent(place.id, man.id, CONSENT_WORDING_VERSION, weekBefore);
    const staff = await coordinator();
    const sampleId = `S-${uniqueId()}`.slice(0, 40);

    expect(await checkIn(staff, ev.id, sample(place.id, sampleId), 130)).toEqual({
      outcome: "refused",
      reference: place.reference,
      field: "sampleId",
      message:
        "This event's laboratory needs his NHS number, and none is recorded for him. Ask him for it and add it with 'Correct date of birth or NHS number', then record the sample.",
    });
    expect(await stored(place.id)).toMatchObject({ sampleId: null });

    await db.update(profile).set({ nhsNumber: "9434765919" }).where(eq(profile.userId, man.id));
    expect(await checkIn(staff, ev.id, sample(place.id, sampleId), 135)).toMatchObject({
      outcome: "done",
      to: "sample_taken",
    });
  });

  it("takes no sample for a man who has since deleted his account", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { name: `Erased Clinic ${uniqueId()}` });
    const password = "correct horse battery staple 72";
    const man = await person({ firstName: "Ernest", lastName: "Leaver", password });
    const place = await book(ev.id, man.id, { slotTime: "10:10" });
    await insertConsent(place.id, man.id, CONSENT_WORDING_VERSION, weekBefore);
    const staff = await coordinator();
    expect(await checkIn(staff, ev.id, arrived(place.id), 130)).toMatchObject({ outcome: "done" });
    // After the event (it ends at 12:00), with no sample recorded, nothing stops his deleting it.
    expect(await deleteMyAccount(db, { userId: man.id, password }, later(300))).toMatchObject({
      outcome: "deleted",
    });

    // His result could reach no one, and no kept copy would say whose it was.
    const sampleId = `S-${uniqueId()}`.slice(0, 40);
    expect(await checkIn(staff, ev.id, sample(place.id, sampleId), 310)).toEqual({
      outcome: "refused",
      reference: place.reference,
      field: "sampleId",
      message: "He has deleted his account, so no sample can be recorded for this booking.",
    });
    expect(await stored(place.id)).toMatchObject({ sampleId: null });
  });

  it("e-mails no consent form to a man who has deleted his account, and says why", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { name: `Erased Link Clinic ${uniqueId()}` });
    const password = "correct horse battery staple 73";
    const man = await person({ firstName: "Edwin", lastName: "Gone", password });
    const place = await book(ev.id, man.id, { slotTime: "10:10" });
    // After the event (it ends at 12:00), with no sample recorded, nothing stops his deleting it.
    expect(await deleteMyAccount(db, { userId: man.id, password }, later(300))).toMatchObject({
      outcome: "deleted",
    });

    expect(
      await sendConsentLink(db, await coordinator(), {
        eventId: ev.id,
        bookingId: place.id,
        now: later(310),
      }),
    ).toEqual({ outcome: "refused", reference: place.reference, reason: "no-patient-details" });
  });

  it("lets a tablet that still shows a sample another replaced undo nothing", async () => {
    const { ev, bookings } = await eventWithBookings();
    const staff = await coordinator();
    const wrong = `WRONG-${uniqueId()}`.slice(0, 40);
    const right = `RIGHT-${uniqueId()}`.slice(0, 40);
    const undo = (sampleId: string, minutes: number) =>
      checkIn(
        staff,
        ev.id,
        { intent: "undo", bookingId: bookings.arthur.id, from: "sample_taken", sampleId },
        minutes,
      );
    await checkIn(staff, ev.id, sample(bookings.arthur.id, wrong), 1);
    // Tablet B loads the list, showing the wrong tube. Tablet A undoes it and records the right one.
    expect(await undo(wrong, 2)).toMatchObject({ outcome: "done", changed: true, to: "arrived" });
    await checkIn(staff, ev.id, sample(bookings.arthur.id, right), 3);
    // Tablet B's Undo, for the tube it showed, takes nothing away.
    expect(await undo(wrong, 4)).toEqual({
      outcome: "refused",
      reference: bookings.arthur.reference,
      field: "checkIn",
      message: CHECK_IN_MESSAGES.changedMeanwhile,
    });
    expect(await stored(bookings.arthur.id)).toMatchObject({ sampleId: right });
    // A second tap of an undo already made is done, not an error, and changes nothing.
    expect(await undo(right, 5)).toMatchObject({ outcome: "done", changed: true });
    expect(await undo(right, 6)).toMatchObject({ outcome: "done", changed: false, to: "arrived" });
  });

  it("will not undo a sample whose result has come in", async () => {
    const { db } = database;
    const { ev, bookings } = await eventWithBookings();
    const staff = await coordinator();
    const sampleId = `R-${uniqueId()}`;
    await checkIn(staff, ev.id, sample(bookings.formula.id, sampleId), 1);
    await db.insert(testResult).values({ bookingId: bookings.formula.id, psaValue: "1.10" });
    expect(
      await checkIn(
        staff,
        ev.id,
        { intent: "undo", bookingId: bookings.formula.id, from: "sample_taken", sampleId },
        2,
      ),
    ).toMatchObject({ outcome: "refused", message: CHECK_IN_MESSAGES.resultImported });
  });

  it("cannot give two bookings one sample id, even past the service, whatever the case", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { name: `Sample Index ${uniqueId()}` });
    const id = `IDX-${uniqueId()}`.toUpperCase();
    await book(ev.id, (await person()).id, { sampleId: id });
    await expect(
      book(ev.id, (await person()).id, { sampleId: id.toLowerCase() }),
    ).rejects.toThrow();
  });

  it("refuses an undo of a state the booking is no longer in", async () => {
    const { ev, bookings } = await eventWithBookings();
    const staff = await coordinator();
    await checkIn(staff, ev.id, arrived(bookings.staff.id), 1);
    expect(
      await checkIn(
        staff,
        ev.id,
        { intent: "undo", bookingId: bookings.staff.id, from: "no_show" },
        2,
      ),
    ).toMatchObject({ outcome: "refused", message: CHECK_IN_MESSAGES.changedMeanwhile });
    expect((await stored(bookings.staff.id)).arrivedAt).toEqual(later(1));
  });

  it("checks in only confirmed bookings of this event", async () => {
    const { db } = database;
    const { ev, other, bookings } = await eventWithBookings();
    const staff = await coordinator();
    expect(await checkIn(staff, ev.id, arrived(bookings.liveHold.id), 1)).toMatchObject({
      outcome: "refused",
      message: CHECK_IN_MESSAGES.notConfirmed,
    });
    expect(await checkIn(staff, ev.id, arrived(bookings.cancelled.id), 1)).toMatchObject({
      outcome: "refused",
      message: CHECK_IN_MESSAGES.notConfirmed,
    });
    // Another event's booking, a booking that does not exist, or an id that cannot be one.
    expect(await checkIn(staff, ev.id, arrived(bookings.elsewhere.id), 1)).toEqual({
      outcome: "not-found",
    });
    expect(await checkIn(staff, other.id, arrived(bookings.arthur.id), 1)).toEqual({
      outcome: "not-found",
    });
    expect(await checkIn(staff, ev.id, arrived(crypto.randomUUID()), 1)).toEqual({
      outcome: "not-found",
    });
    expect(await checkIn(staff, "x", arrived(bookings.arthur.id), 1)).toEqual({
      outcome: "not-found",
    });
    const rows = await db
      .select()
      .from(booking)
      .where(
        inArray(booking.id, [bookings.liveHold.id, bookings.elsewhere.id, bookings.arthur.id]),
      );
    expect(rows.every((row) => row.arrivedAt === null)).toBe(true);
    expect(await auditRows(db, { actorUserId: staff.id })).toEqual([]);
  });
});

describe("the lab CSV", () => {
  it("has the lab's columns and one row per confirmed booking with a sample, formulas escaped", async () => {
    const { db } = database;
    const { ev, people, bookings } = await eventWithBookings();
    const staff = await coordinator();
    const first = `LAB-${uniqueId()}`;
    const second = `LAB-${uniqueId()}`;
    await checkIn(
      staff,
      ev.id,
      { intent: "sample", bookingId: bookings.arthur.id, sampleId: first },
      5,
    );
    await checkIn(
      staff,
      ev.id,
      { intent: "sample", bookingId: bookings.formula.id, sampleId: second },
      6,
    );
    // Arrived without a sample: not for the lab.
    await checkIn(staff, ev.id, { intent: "arrived", bookingId: bookings.bernard.id }, 7);

    const exported = theFile(await exportLabCsv(db, staff, { eventId: ev.id, now: later(8) }));
    expect(exported.count).toBe(2);
    const slug = ev.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    expect(exported.filename).toBe(`lab-2026-06-10-${slug}.csv`);

    const records = parse(exported.csv) as string[][];
    expect(records).toEqual([
      ["reference", "name", "date of birth", "NHS number", "sample id", "event date", "lab"],
      [
        bookings.arthur.reference,
        `Arthur ${people.arthur.lastName}`,
        "1966-03-01",
        "9434765919",
        first,
        "2026-06-10",
        "ESNEFT",
      ],
      [
        bookings.formula.reference,
        "'=HYPERLINK(1) -Minus",
        "1966-03-01",
        "9434765935",
        second,
        "2026-06-10",
        "ESNEFT",
      ],
    ]);

    const audited = await auditRows(db, { actorUserId: staff.id, action: "attendees.export" });
    expect(audited.map((row) => [row.subjectUserId, row.entityType, row.entityId])).toEqual([
      [null, "event", ev.id],
      [people.arthur.id, "booking", bookings.arthur.id],
      [people.formula.id, "booking", bookings.formula.id],
    ]);
    expect(audited[0]!.details).toEqual({ shown: 2 });
  });

  it("is refused while the event has no laboratory: its lab column would send it nowhere (found by the event-day review)", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, { labName: null });
    const staff = await coordinator();
    expect(await exportLabCsv(db, staff, { eventId: ev.id, now: DAY })).toBe("no-lab");
    expect(await auditRows(db, { actorUserId: staff.id, action: "attendees.export" })).toEqual([]);
  });

  it("is the header line alone when no sample has been taken", async () => {
    const { db } = database;
    const { ev } = await eventWithBookings();
    const exported = theFile(
      await exportLabCsv(db, await coordinator(), { eventId: ev.id, now: DAY }),
    );
    expect(exported.csv).toBe("reference,name,date of birth,NHS number,sample id,event date,lab\n");
    expect(exported.count).toBe(0);
  });
});

describe("the printable list", () => {
  it("lists everyone with a place, not the cancelled, each audited", async () => {
    const { db } = database;
    const { ev, people, bookings } = await eventWithBookings();
    const staff = await coordinator();
    const printed = await printAttendees(db, staff, { eventId: ev.id, now: DAY });
    expect(printed!.rows.map((row) => row.bookingId)).toEqual([
      bookings.liveHold.id,
      bookings.bernard.id,
      bookings.arthur.id,
      bookings.formula.id,
      bookings.staff.id,
    ]);
    const audited = await auditRows(db, { actorUserId: staff.id, action: "attendees.print" });
    expect(audited.map((row) => row.subjectUserId)).toEqual([
      null,
      people.holder.id,
      people.bernard.id,
      people.arthur.id,
      people.formula.id,
      people.staffId,
    ]);
  });
});
