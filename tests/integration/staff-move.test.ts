import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { booking, consent, event, outboxEmail, testResult, user } from "#app/db/schema";
import { erasedAccountEmail } from "#app/domain/data-rights";
import { PermissionDenied } from "#app/domain/permissions";
import { capturePayment } from "#app/services/booking/capture.server";
import { changeOwnBooking } from "#app/services/booking/change.server";
import { emailReminderChannel } from "#app/services/booking/reminder-email.server";
import { sendDueReminders } from "#app/services/booking/reminders.server";
import { moveBookingForHim, staffMovePreview } from "#app/services/booking/staff-move.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  bookingAtCheckout,
  consentFormSecrets,
  fakePayPalForThisFile,
  insertBooking,
  insertConfirmedBookings,
  insertEvent,
  insertFreeEvent,
  insertPaidEvent,
  insertPatient,
  insertProduct,
  insertStaff,
} from "#tests/support/fixtures";

const database = testDatabaseForThisFile();
const fakePayPal = fakePayPalForThisFile();

/** Monday 1 June 2026, 10:00 in London: nine days before each event here (Wednesday 10 June). */
const EARLY = new Date("2026-06-01T09:00:00Z");
/** 10:15 in London on 10 June (summer time): his 10:00 appointment has begun and he has not come. */
const MISSED = new Date("2026-06-10T09:15:00Z");

// Each event here runs 10:00 to 12:00 in 30-minute appointments, 2 places each (the fixture's).
const coordinator = async () => (await insertStaff(database.db, ["coordinator"])).actor;

async function freePlace(values: Partial<typeof booking.$inferInsert> = {}) {
  const { db } = database;
  const ev = await insertFreeEvent(db, { eventDate: "2026-06-10" });
  const man = await insertPatient(db, { firstName: "Albert", lastName: "Honeysett" });
  const row = await insertBooking(db, { eventId: ev.id, userId: man.id, ...values });
  return { ev, man, row };
}

async function bookingRow(id: string) {
  const [row] = await database.db.select().from(booking).where(eq(booking.id, id));
  return row!;
}

const mailsTo = (email: string) =>
  database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email));

describe("a coordinator moving a man's booking to another time when he asks", () => {
  it("moves a paid place with its payment, tells him, and audits it", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const ev = await insertPaidEvent(db, { eventDate: "2026-06-10" }, 2500);
    const man = await insertPatient(db, { firstName: "Walter", lastName: "Pryce" });
    const { bookingId, reference, orderId } = await bookingAtCheckout(
      db,
      { eventId: ev.id, userId: man.id, slotTime: "10:00" },
      EARLY,
    );
    fake.setOutcome(orderId, "approve");
    fake.approve(orderId);
    await capturePayment(db, { userId: man.id, orderId }, new Date(EARLY.getTime() + 60_000));
    const paid = await bookingRow(bookingId);
    expect(paid).toMatchObject({ status: "confirmed", paymentStatus: "paid" });
    const actor = await coordinator();
    const paypalCalls = fake.requests.length;

    const preview = await staffMovePreview(db, actor, { eventId: ev.id, bookingId, now: EARLY });
    expect(preview).toMatchObject({
      reference,
      name: "Walter Pryce",
      slotTime: "10:00",
      refusal: null,
      chosen: { id: ev.id, current: true },
      // Every time, his own counted free; no other event has this event's own product.
      times: [
        { time: "10:00", state: "available" },
        { time: "10:30", state: "available" },
        { time: "11:00", state: "available" },
        { time: "11:30", state: "available" },
      ],
      others: [],
    });

    expect(
      await moveBookingForHim(db, actor, { eventId: ev.id, bookingId, slotTime: "11:00" }, EARLY),
    ).toEqual({ ok: true, reference, eventId: ev.id, slotTime: "11:00" });
    expect(await bookingRow(bookingId)).toMatchObject({
      eventId: ev.id,
      slotTime: "11:00",
      status: "confirmed",
      paymentStatus: "paid",
      pricePence: 2500,
      paymentOrderId: paid.paymentOrderId,
      calendarVersion: paid.calendarVersion + 1,
      reminderSentAt: null,
    });
    // Nothing is paid back or taken again.
    expect(fake.requests.length).toBe(paypalCalls);

    const mails = await mailsTo(man.email);
    const moved = mails.find((mail) => mail.subject.endsWith("has a new time"));
    expect(moved!.text).toContain(
      "We have moved your screening appointment to a new time, as you asked us to.",
    );
    expect(moved!.text).toContain("Time: 11:00 to 11:30 (UK time)");
    expect(moved!.text).toContain("If you did not ask for this change");
    const old = mails.find((mail) => mail.subject.includes("old"));
    expect(old!.text).toContain(`As you asked, we moved your screening appointment (booking`);
    expect(old!.text).toContain("Time: 10:00 to 10:30 (UK time)");

    // Opening the page was a read of his booking.
    const [read] = await auditRows(db, { action: "booking.view", entityId: bookingId });
    expect(read).toMatchObject({
      actorUserId: actor.id,
      subjectUserId: man.id,
      details: { eventId: ev.id },
    });
    const [audit] = await auditRows(db, { action: "booking.move", entityId: bookingId });
    expect(audit).toMatchObject({
      actorUserId: actor.id,
      subjectUserId: man.id,
      details: { eventId: ev.id, toEventId: ev.id, from: "10:00", to: "11:00" },
    });
  });

  it("moves a man who missed his time, on the day, to a later one", async () => {
    const { db } = database;
    const { ev, man, row } = await freePlace({ slotTime: "10:00" });
    // Online, the policy's notice has long gone.
    expect(
      await changeOwnBooking(
        db,
        { userId: man.id, reference: row.reference, eventId: ev.id, slotTime: "11:30" },
        MISSED,
      ),
    ).toMatchObject({ ok: false });
    const actor = await coordinator();
    const preview = await staffMovePreview(db, actor, {
      eventId: ev.id,
      bookingId: row.id,
      now: MISSED,
    });
    expect(preview?.refusal).toBeNull();
    expect(preview?.times.map((choice) => choice.state)).toEqual([
      "passed",
      "available",
      "available",
      "available",
    ]);
    expect(
      await moveBookingForHim(
        db,
        actor,
        { eventId: ev.id, bookingId: row.id, slotTime: "11:30" },
        MISSED,
      ),
    ).toMatchObject({ ok: true, slotTime: "11:30" });
    expect((await bookingRow(row.id)).slotTime).toBe("11:30");
  });

  it("sends no second reminder after a move on the day; days ahead, the new time is reminded", async () => {
    const { db } = database;
    const reminders = async (email: string) =>
      (await mailsTo(email)).filter((mail) => mail.subject.startsWith("Reminder"));
    const actor = await coordinator();
    // Reminded two days before his 10:00, then moved on the day to 11:30.
    const { ev, man, row } = await freePlace({
      slotTime: "10:00",
      confirmedAt: EARLY,
      reminderSentAt: new Date("2026-06-08T09:00:00Z"),
    });
    await moveBookingForHim(
      db,
      actor,
      { eventId: ev.id, bookingId: row.id, slotTime: "11:30" },
      MISSED,
    );
    await sendDueReminders(db, emailReminderChannel, new Date(MISSED.getTime() + 60_000), 48);
    expect(await reminders(man.email)).toHaveLength(0);

    // Moved nine days ahead: reminded 48 hours before the new time, once.
    const early = await freePlace({ slotTime: "10:00", confirmedAt: EARLY });
    await moveBookingForHim(
      db,
      actor,
      { eventId: early.ev.id, bookingId: early.row.id, slotTime: "11:00" },
      EARLY,
    );
    // 11:00 on 10 June is 10:00 UTC; 47 hours before it.
    const inWindow = new Date("2026-06-08T11:00:00Z");
    await sendDueReminders(db, emailReminderChannel, inWindow, 48);
    await sendDueReminders(db, emailReminderChannel, new Date(inWindow.getTime() + 60_000), 48);
    expect(await reminders(early.man.email)).toHaveLength(1);
  });

  it("keeps his consent with the booking and tells no one what it says", async () => {
    const { db } = database;
    const { ev, man, row } = await freePlace();
    await db.insert(consent).values({
      bookingId: row.id,
      userId: man.id,
      wordingVersion: "test",
      agreedAt: EARLY,
      testDate: "2026-06-10",
      answers: { familyHistory: consentFormSecrets.join(" ") },
    });
    await moveBookingForHim(
      db,
      await coordinator(),
      { eventId: ev.id, bookingId: row.id, slotTime: "10:30" },
      EARLY,
    );
    const [kept] = await db.select().from(consent).where(eq(consent.bookingId, row.id));
    expect(kept).toMatchObject({
      testDate: "2026-06-10",
      answers: { familyHistory: consentFormSecrets.join(" ") },
    });
    for (const mail of await mailsTo(man.email))
      for (const secret of consentFormSecrets) expect(mail.text).not.toContain(secret);
    const [audit] = await auditRows(db, { action: "booking.move", entityId: row.id });
    expect(JSON.stringify(audit!.details)).not.toMatch(/SECRET|Avodart|Father/);
  });

  it.each([
    ["a full time", "11:00", "slot-unavailable"],
    ["a time the event does not have", "10:15", "slot-unavailable"],
    ["his own time", "10:00", "same-time"],
  ] as const)("refuses %s", async (_label, slotTime, reason) => {
    const { db } = database;
    const { ev, row } = await freePlace({ slotTime: "10:00" });
    await insertConfirmedBookings(db, ev.id, 2, "11:00");
    expect(
      await moveBookingForHim(
        db,
        await coordinator(),
        { eventId: ev.id, bookingId: row.id, slotTime },
        EARLY,
      ),
    ).toEqual({ ok: false, reason });
    expect(await bookingRow(row.id)).toMatchObject({ slotTime: "10:00", calendarVersion: 0 });
    expect(await auditRows(db, { action: "booking.move", entityId: row.id })).toHaveLength(0);
  });

  it("refuses a time that has begun", async () => {
    const { db } = database;
    const { ev, row } = await freePlace({ slotTime: "11:30" });
    expect(
      await moveBookingForHim(
        db,
        await coordinator(),
        { eventId: ev.id, bookingId: row.id, slotTime: "10:00" },
        MISSED,
      ),
    ).toEqual({ ok: false, reason: "slot-unavailable" });
    expect((await bookingRow(row.id)).slotTime).toBe("11:30");
  });

  it.each([
    ["checked in", { arrivedAt: EARLY }, "not-movable"],
    ["marked as a no-show", { noShowAt: EARLY }, "not-movable"],
    ["sampled", { arrivedAt: EARLY, sampleTakenAt: EARLY, sampleId: "S-1" }, "sample-taken"],
    ["a hold", { status: "held" as const, holdExpiresAt: MISSED }, "not-movable"],
    ["cancelled", { status: "cancelled" as const, cancelledAt: EARLY }, "not-movable"],
  ] as const)("refuses a booking %s, and the page says why", async (_label, values, reason) => {
    const { db } = database;
    const { ev, row } = await freePlace(values);
    const actor = await coordinator();
    expect(
      (await staffMovePreview(db, actor, { eventId: ev.id, bookingId: row.id, now: EARLY }))
        ?.refusal,
    ).toBe(reason);
    expect(
      await moveBookingForHim(
        db,
        actor,
        { eventId: ev.id, bookingId: row.id, slotTime: "11:00" },
        EARLY,
      ),
    ).toEqual({ ok: false, reason });
    expect(await bookingRow(row.id)).toMatchObject({ slotTime: "10:00", calendarVersion: 0 });
  });

  it("refuses a booking with a result even without a sample marked", async () => {
    const { db } = database;
    const { ev, row } = await freePlace();
    await db.insert(testResult).values({ bookingId: row.id, psaValue: "1.10" });
    expect(
      await moveBookingForHim(
        db,
        await coordinator(),
        { eventId: ev.id, bookingId: row.id, slotTime: "11:00" },
        EARLY,
      ),
    ).toEqual({ ok: false, reason: "sample-taken" });
  });

  it("refuses at a cancelled event", async () => {
    const { db } = database;
    const { ev, row } = await freePlace();
    await db.update(event).set({ status: "cancelled" }).where(eq(event.id, ev.id));
    expect(
      await moveBookingForHim(
        db,
        await coordinator(),
        { eventId: ev.id, bookingId: row.id, slotTime: "11:00" },
        EARLY,
      ),
    ).toEqual({ ok: false, reason: "event-cancelled" });
  });

  it("refuses a booking whose account he has deleted: no e-mail could tell him", async () => {
    const { db } = database;
    const { ev, man, row } = await freePlace();
    await db
      .update(user)
      .set({ email: erasedAccountEmail(man.id) })
      .where(eq(user.id, man.id));
    const actor = await coordinator();
    expect(
      (await staffMovePreview(db, actor, { eventId: ev.id, bookingId: row.id, now: EARLY }))
        ?.refusal,
    ).toBe("account-deleted");
    expect(
      await moveBookingForHim(
        db,
        actor,
        { eventId: ev.id, bookingId: row.id, slotTime: "11:00" },
        EARLY,
      ),
    ).toEqual({ ok: false, reason: "account-deleted" });
  });

  it("refuses a move from a time the page did not show, and takes a second press as done", async () => {
    const { db } = database;
    const { ev, man, row } = await freePlace({ slotTime: "10:00" });
    const one = await coordinator();
    const other = await coordinator();
    const move = (actor: typeof one, slotTime: string) =>
      moveBookingForHim(
        db,
        actor,
        { eventId: ev.id, bookingId: row.id, slotTime, fromTime: "10:00" },
        EARLY,
      );
    expect(await move(one, "11:00")).toMatchObject({ ok: true, slotTime: "11:00" });
    // The same press again: done, and nothing moved or sent twice.
    expect(await move(one, "11:00")).toMatchObject({ ok: true, slotTime: "11:00" });
    // Another coordinator's page still showed 10:00.
    expect(await move(other, "11:30")).toEqual({ ok: false, reason: "moved-meanwhile" });
    expect(await bookingRow(row.id)).toMatchObject({ slotTime: "11:00", calendarVersion: 1 });
    expect(await auditRows(db, { action: "booking.move", entityId: row.id })).toHaveLength(1);
    const mails = await mailsTo(man.email);
    expect(mails.filter((mail) => mail.subject.endsWith("has a new time"))).toHaveLength(1);
  });

  it("finds nothing for a booking of another event, or an id that is not one", async () => {
    const { db } = database;
    const { row } = await freePlace();
    const other = await insertFreeEvent(db, { eventDate: "2026-06-10" });
    const actor = await coordinator();
    for (const bookingId of [row.id, "not-an-id"]) {
      expect(
        await staffMovePreview(db, actor, { eventId: other.id, bookingId, now: EARLY }),
      ).toBeNull();
      expect(
        await moveBookingForHim(
          db,
          actor,
          { eventId: other.id, bookingId, slotTime: "11:00" },
          EARLY,
        ),
      ).toEqual({ ok: false, reason: "not-found" });
    }
    expect(await bookingRow(row.id)).toMatchObject({ eventId: row.eventId, slotTime: "10:00" });
  });

  it.each(["event_staff", "clinician", "admin"] as const)(
    "is refused to %s, in the service itself",
    async (role) => {
      const { db } = database;
      const { ev, row } = await freePlace();
      const actor = (await insertStaff(db, [role])).actor;
      // On the event's own day, when event staff work on its list.
      const day = new Date("2026-06-10T07:00:00Z");
      await expect(
        moveBookingForHim(db, actor, { eventId: ev.id, bookingId: row.id, slotTime: "11:00" }, day),
      ).rejects.toBeInstanceOf(PermissionDenied);
      await expect(
        staffMovePreview(db, actor, { eventId: ev.id, bookingId: row.id, now: day }),
      ).rejects.toBeInstanceOf(PermissionDenied);
      expect((await bookingRow(row.id)).slotTime).toBe("10:00");
    },
  );
});

describe("a coordinator moving a man's booking to another event when he asks", () => {
  /** His free event on 10 June, and another like it (same product, free) on 17 June. */
  async function twoEvents(targetValues: Parameters<typeof insertEvent>[2] = {}) {
    const { db } = database;
    const product = await insertProduct(db, 0);
    const own = await insertEvent(db, product.id, {
      eventDate: "2026-06-10",
      paymentRequired: false,
    });
    const other = await insertEvent(db, product.id, {
      name: "Halstead Rugby Club Screening",
      eventDate: "2026-06-17",
      paymentRequired: false,
      ...targetValues,
    });
    const man = await insertPatient(db, { firstName: "Albert", lastName: "Honeysett" });
    const row = await insertBooking(db, { eventId: own.id, userId: man.id, slotTime: "10:00" });
    await db.insert(consent).values({
      bookingId: row.id,
      userId: man.id,
      wordingVersion: "test",
      agreedAt: EARLY,
      testDate: "2026-06-10",
    });
    return { own, other, man, row };
  }

  it("lists the events like his, offers their free times, and moves him there", async () => {
    const { db } = database;
    const { own, other, man, row } = await twoEvents();
    await insertConfirmedBookings(db, other.id, 2, "10:30");
    // An event with another price is not one he can be moved to.
    await insertFreeEvent(db, { eventDate: "2026-06-17" });
    const actor = await coordinator();

    const preview = await staffMovePreview(db, actor, {
      eventId: own.id,
      bookingId: row.id,
      toEventId: other.id,
      now: EARLY,
    });
    expect(preview?.others.map((option) => option.id)).toEqual([other.id]);
    expect(preview?.chosen).toMatchObject({ id: other.id, current: false });
    // 10:30 is full there; his own time of day is free there.
    expect(preview?.times).toEqual([
      { time: "10:00", state: "available" },
      { time: "10:30", state: "full" },
      { time: "11:00", state: "available" },
      { time: "11:30", state: "available" },
    ]);

    expect(
      await moveBookingForHim(
        db,
        actor,
        { eventId: own.id, bookingId: row.id, toEventId: other.id, slotTime: "10:00" },
        EARLY,
      ),
    ).toEqual({ ok: true, reference: row.reference, eventId: other.id, slotTime: "10:00" });
    expect(await bookingRow(row.id)).toMatchObject({
      eventId: other.id,
      slotTime: "10:00",
      status: "confirmed",
      calendarVersion: 1,
    });
    const [kept] = await db.select().from(consent).where(eq(consent.bookingId, row.id));
    expect(kept!.testDate).toBe("2026-06-17");
    const moved = (await mailsTo(man.email)).find((mail) => mail.subject.endsWith("new time"));
    expect(moved!.text).toContain("Event: Halstead Rugby Club Screening");
    expect(moved!.text).toContain("Date: Wednesday, 17 June 2026");
    const [audit] = await auditRows(db, { action: "booking.move", entityId: row.id });
    expect(audit!.details).toEqual({
      eventId: own.id,
      toEventId: other.id,
      from: "10:00",
      to: "10:00",
    });
  });

  it.each([
    ["with another price", { pricePence: 1500, paymentRequired: true }, "different-terms"],
    [
      "whose laboratory needs an NHS number he has not given",
      { labName: "ESNEFT" },
      "not-eligible",
    ],
    ["not published", { status: "draft" as const }, "event-not-found"],
  ] as const)("refuses an event %s", async (_label, values, reason) => {
    const { db } = database;
    const { own, other, row } = await twoEvents(values);
    const actor = await coordinator();
    expect(
      (await staffMovePreview(db, actor, { eventId: own.id, bookingId: row.id, now: EARLY }))
        ?.others,
    ).toEqual([]);
    expect(
      await moveBookingForHim(
        db,
        actor,
        { eventId: own.id, bookingId: row.id, toEventId: other.id, slotTime: "10:00" },
        EARLY,
      ),
    ).toEqual({ ok: false, reason });
    expect(await bookingRow(row.id)).toMatchObject({ eventId: own.id, calendarVersion: 0 });
  });

  it("refuses once his event has ended, to his own event or another, as a cancellation is", async () => {
    const { db } = database;
    const { own, other, row } = await twoEvents();
    const actor = await coordinator();
    // The event ran 10:00 to 12:00 on 10 June; a minute after it ended, he is still "waiting".
    const ended = new Date("2026-06-10T11:01:00Z");
    const preview = await staffMovePreview(db, actor, {
      eventId: own.id,
      bookingId: row.id,
      now: ended,
    });
    expect(preview?.refusal).toBe("event-ended");
    expect(preview?.others).toEqual([]);
    for (const toEventId of [undefined, other.id])
      expect(
        await moveBookingForHim(
          db,
          actor,
          { eventId: own.id, bookingId: row.id, toEventId, slotTime: "11:30" },
          ended,
        ),
      ).toEqual({ ok: false, reason: "event-ended" });
    expect(await bookingRow(row.id)).toMatchObject({ eventId: own.id, slotTime: row.slotTime });
  });

  it("takes a second press of a move to another event as done", async () => {
    const { db } = database;
    const { own, other, row } = await twoEvents();
    const actor = await coordinator();
    const move = () =>
      moveBookingForHim(
        db,
        actor,
        {
          eventId: own.id,
          bookingId: row.id,
          toEventId: other.id,
          slotTime: "11:00",
          fromTime: "10:00",
        },
        EARLY,
      );
    const done = { ok: true, reference: row.reference, eventId: other.id, slotTime: "11:00" };
    expect(await move()).toEqual(done);
    expect(await move()).toEqual(done);
    expect(await auditRows(db, { action: "booking.move", entityId: row.id })).toHaveLength(1);
  });

  it("refuses an event he already has a booking at, and a full time there", async () => {
    const { db } = database;
    const { own, other, man, row } = await twoEvents();
    await insertConfirmedBookings(db, other.id, 2, "11:00");
    const actor = await coordinator();
    const move = (slotTime: string) =>
      moveBookingForHim(
        db,
        actor,
        { eventId: own.id, bookingId: row.id, toEventId: other.id, slotTime },
        EARLY,
      );
    expect(await move("11:00")).toEqual({ ok: false, reason: "slot-unavailable" });
    await insertBooking(db, { eventId: other.id, userId: man.id, slotTime: "11:30" });
    expect(await move("10:00")).toEqual({ ok: false, reason: "already-booked" });
    expect(await bookingRow(row.id)).toMatchObject({ eventId: own.id, slotTime: "10:00" });
  });
});
