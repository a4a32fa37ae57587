import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  booking,
  outboxEmail,
  paymentTransaction,
  testResult,
  waitlistEntry,
} from "#app/db/schema";
import { capturePayment } from "#app/services/booking/capture.server";
import { cancelOwnBooking } from "#app/services/booking/cancel.server";
import {
  findMyBooking,
  listMyBookings,
  myBookingCalendar,
  openMyBooking,
} from "#app/services/booking/my-bookings.server";
import {
  checkBookingLink,
  manageBookingUrl,
  signedBookingQuery,
} from "#app/services/booking-links.server";
import { findEvent } from "#app/services/events.server";
import { cancelEvent } from "#app/services/admin-events.server";
import { config } from "#app/config.server";
import { retryDueRefunds } from "#app/services/payments/refunds.server";
import {
  owedPatientRefunds,
  recordOwedRefundByHand,
  retryOwedRefund,
} from "#app/services/payments/owed-refunds.server";
import { PermissionDenied } from "#app/domain/permissions";
import { auditLog } from "#app/db/schema";
import { joinWaitlist } from "#app/services/waitlist.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  bookingAtCheckout,
  fakePayPalForThisFile,
  holdFor,
  insertBooking,
  insertFreeEvent,
  insertPaidEvent,
  insertOwedRefund,
  insertPatient,
  insertStaff,
} from "#tests/support/fixtures";

const database = testDatabaseForThisFile();
const fakePayPal = fakePayPalForThisFile();

/** Monday 1 June 2026, 10:00 in London: nine days before the fixture's event (Wednesday 10 June). */
const NOW = new Date("2026-06-01T09:00:00Z");
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

const person = () => insertPatient(database.db);

/** A booking paid £25 through the fake PayPal at NOW, for an event on `eventDate` (default 10 June). */
async function paidBooking(eventDate = "2026-06-10") {
  const fake = fakePayPal();
  const ev = await insertPaidEvent(database.db, { eventDate }, 2500);
  const who = await person();
  const { bookingId, reference, orderId } = await bookingAtCheckout(
    database.db,
    { eventId: ev.id, userId: who.id, slotTime: "10:00" },
    NOW,
  );
  fake.setOutcome(orderId, "approve");
  fake.approve(orderId);
  const captured = await capturePayment(database.db, { userId: who.id, orderId }, minutes(3));
  expect(captured.outcome).toBe("confirmed");
  return { who, ev, bookingId, reference };
}

async function bookingRow(id: string) {
  const [row] = await database.db.select().from(booking).where(eq(booking.id, id));
  return row!;
}

const refundCalls = () => fakePayPal().requestsTo("POST", /^\/v2\/payments\/captures\/.+\/refund$/);

async function mailsTo(email: string) {
  return database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email));
}

describe("my bookings", () => {
  it("lists confirmed and cancelled bookings, upcoming soonest first, and never a hold", async () => {
    const { db } = database;
    const who = await person();
    const later = await insertFreeEvent(db, { eventDate: "2026-07-01" });
    const sooner = await insertFreeEvent(db, { eventDate: "2026-06-10" });
    const past = await insertFreeEvent(db, { eventDate: "2026-05-01" });
    const held = await insertFreeEvent(db, { eventDate: "2026-06-20" });
    const dropped = await insertFreeEvent(db, { eventDate: "2026-06-15" });
    const confirmedAt = minutes(-60 * 24 * 40);
    const a = await insertBooking(db, { eventId: later.id, userId: who.id, confirmedAt });
    const b = await insertBooking(db, { eventId: sooner.id, userId: who.id, confirmedAt });
    const c = await insertBooking(db, { eventId: past.id, userId: who.id, confirmedAt });
    const d = await insertBooking(db, {
      eventId: dropped.id,
      userId: who.id,
      status: "cancelled",
      confirmedAt,
      cancelledAt: minutes(-60),
      cancelledBy: "patient",
    });
    await holdFor(db, { eventId: held.id, userId: who.id, slotTime: "10:00" }, NOW);
    // A payment that was refused is not a booking either.
    await insertBooking(db, { eventId: dropped.id, userId: who.id, status: "cancelled" });

    const listed = await listMyBookings(db, who.id, NOW);
    expect(listed.map((row) => [row.reference, row.state])).toEqual([
      [b.reference, "upcoming"],
      [a.reference, "upcoming"],
      [d.reference, "cancelled"],
      [c.reference, "past"],
    ]);
    expect(listed[0]!.mapUrl).toBe(
      "https://www.openstreetmap.org/?mlat=51.73560&mlon=0.46850#map=17/51.73560/0.46850",
    );
    expect(listed[0]!.canCancel).toBe(true);
    expect(listed[0]!.canChange).toBe(true);
    expect(listed[2]!.canCancel).toBe(false);
    expect(listed[3]!.canCancel).toBe(false);
  });

  it("lists a booking never confirmed whose money was taken, with where the refund stands", async () => {
    const { db } = database;
    const who = await person();
    const ev = await insertPaidEvent(db, { eventDate: "2026-06-10" }, 2500);
    const given = {
      eventId: ev.id,
      userId: who.id,
      status: "cancelled" as const,
      paymentRequired: true,
      pricePence: 2500,
      cancelledAt: minutes(-60),
    };
    // PayPal took another amount than the price: given back since.
    const refunded = await insertBooking(db, {
      ...given,
      slotTime: "10:00",
      paymentStatus: "refunded",
      cancelledBy: "payment",
    });
    // The event was cancelled during the payment: the refund is still to be made.
    const owed = await insertBooking(db, {
      ...given,
      slotTime: "10:30",
      paymentStatus: "paid",
      cancelledBy: "staff",
      refundOwed: true,
    });
    // A refused payment took nothing: not a booking.
    await insertBooking(db, { ...given, slotTime: "11:00", paymentStatus: "unpaid" });

    const listed = await listMyBookings(db, who.id, NOW);
    expect(listed.map((row) => [row.reference, row.state, row.refund?.state])).toEqual(
      expect.arrayContaining([
        [refunded.reference, "cancelled", "made"],
        [owed.reference, "cancelled", "owed"],
      ]),
    );
    expect(listed).toHaveLength(2);
    expect(
      (await findMyBooking(db, { userId: who.id, reference: refunded.reference }, NOW))?.refund,
    ).toMatchObject({ state: "made", pence: 2500 });
  });

  it("finds nothing for another account's reference or an unknown one", async () => {
    const { db } = database;
    const owner = await person();
    const other = await person();
    const ev = await insertFreeEvent(db);
    const row = await insertBooking(db, { eventId: ev.id, userId: owner.id, confirmedAt: NOW });
    expect(await findMyBooking(db, { userId: other.id, reference: row.reference }, NOW)).toBeNull();
    expect(
      await myBookingCalendar(db, { userId: other.id, reference: row.reference }, NOW),
    ).toBeNull();
    expect(
      await findMyBooking(db, { userId: owner.id, reference: "MHAT-0000-0000" }, NOW),
    ).toBeNull();
    expect(
      (await findMyBooking(db, { userId: owner.id, reference: row.reference.toLowerCase() }, NOW))
        ?.reference,
    ).toBe(row.reference);
  });

  it("serves the booking's calendar entry under the UID of its current time", async () => {
    const { db } = database;
    const who = await person();
    const ev = await insertFreeEvent(db);
    const row = await insertBooking(db, {
      eventId: ev.id,
      userId: who.id,
      confirmedAt: NOW,
      slotTime: "10:30",
      calendarVersion: 1,
    });
    const entry = await myBookingCalendar(db, { userId: who.id, reference: row.reference }, NOW);
    const ics = entry!.ics.replace(/\r\n[ \t]/g, "");
    expect(ics).toContain(`UID:${row.reference}-2@localhost`);
    expect(ics).toContain("METHOD:PUBLISH");
    // 10:30 in London on 10 June (summer time) is 09:30 UTC.
    expect(ics).toContain("DTSTART:20260610T093000Z");
  });
});

describe("cancelling one's own booking", () => {
  it("cancels a free booking: the place is free again at once, and the e-mail cancels the calendar entry", async () => {
    const { db } = database;
    const who = await person();
    const ev = await insertFreeEvent(db, { totalSpaces: 1, placesPerSlot: 1 });
    const row = await insertBooking(db, { eventId: ev.id, userId: who.id, confirmedAt: NOW });
    expect((await findEvent(db, ev.id, NOW))!.spaces_left).toBe(0);

    const outcome = await cancelOwnBooking(db, { userId: who.id, reference: row.reference }, NOW);
    expect(outcome).toEqual({ ok: true, reference: row.reference, refundPence: 0, refund: "none" });
    expect(await bookingRow(row.id)).toMatchObject({
      status: "cancelled",
      cancelledBy: "patient",
      cancelledAt: NOW,
      refundOwed: false,
    });
    expect((await findEvent(db, ev.id, NOW))!.spaces_left).toBe(1);

    const [mail] = await mailsTo(who.email);
    expect(mail!.subject).toBe(`Your MHAT screening booking ${row.reference} is cancelled`);
    // A free booking: nothing is said of money.
    expect(mail!.text).not.toMatch(/£|refund/i);
    const ics = mail!.attachments![0]!.content.replace(/\r\n[ \t]/g, "");
    expect(ics).toContain("METHOD:CANCEL");
    expect(ics).toContain(`UID:${row.reference}@localhost`);
    expect(ics).toContain("STATUS:CANCELLED");

    // A second press finds it cancelled, and sends nothing more.
    expect(await cancelOwnBooking(db, { userId: who.id, reference: row.reference }, NOW)).toEqual({
      ok: false,
      reason: "already-cancelled",
    });
    expect(await mailsTo(who.email)).toHaveLength(1);
  });

  it("offers the freed place to the first on the waiting list in its own transaction", async () => {
    const { db } = database;
    const who = await person();
    const ev = await insertFreeEvent(db, {
      totalSpaces: 1,
      placesPerSlot: 1,
      startTime: "10:00",
      endTime: "10:30",
    });
    const row = await insertBooking(db, { eventId: ev.id, userId: who.id, confirmedAt: NOW });
    const waiting = await person();
    await joinWaitlist(db, { eventId: ev.id, userId: waiting.id }, NOW);

    const outcome = await cancelOwnBooking(db, { userId: who.id, reference: row.reference }, NOW);
    expect(outcome).toMatchObject({ ok: true });
    // No worker pass: the cancellation offered the place itself.
    const [entry] = await db
      .select()
      .from(waitlistEntry)
      .where(and(eq(waitlistEntry.eventId, ev.id), eq(waitlistEntry.userId, waiting.id)));
    expect(entry).toMatchObject({ status: "offered", offeredSlotTime: "10:00" });
  });

  it("refuses another account's booking, and changes nothing", async () => {
    const { db } = database;
    const owner = await person();
    const other = await person();
    const ev = await insertFreeEvent(db);
    const row = await insertBooking(db, { eventId: ev.id, userId: owner.id, confirmedAt: NOW });
    expect(await cancelOwnBooking(db, { userId: other.id, reference: row.reference }, NOW)).toEqual(
      { ok: false, reason: "not-found" },
    );
    expect((await bookingRow(row.id)).status).toBe("confirmed");
  });

  it.each([
    ["checked in", { arrivedAt: NOW }, "not-cancellable"],
    ["did not come", { noShowAt: NOW }, "not-cancellable"],
    ["sample taken", { arrivedAt: NOW, sampleTakenAt: NOW, sampleId: "S-1" }, "sample-taken"],
    ["a hold", { status: "held" as const, holdExpiresAt: minutes(10) }, "not-cancellable"],
  ])("refuses a booking that is %s", async (_label, values, reason) => {
    const { db } = database;
    const who = await person();
    const ev = await insertFreeEvent(db);
    const row = await insertBooking(db, {
      eventId: ev.id,
      userId: who.id,
      confirmedAt: NOW,
      ...values,
    });
    expect(await cancelOwnBooking(db, { userId: who.id, reference: row.reference }, NOW)).toEqual({
      ok: false,
      reason,
    });
    expect((await bookingRow(row.id)).status).toBe(row.status);
  });

  it("refuses a booking with a result, and one whose appointment has begun", async () => {
    const { db } = database;
    const who = await person();
    const ev = await insertFreeEvent(db);
    const withResult = await insertBooking(db, {
      eventId: ev.id,
      userId: who.id,
      confirmedAt: NOW,
    });
    await db.insert(testResult).values({ bookingId: withResult.id, psaValue: "1.10" });
    expect(
      await cancelOwnBooking(db, { userId: who.id, reference: withResult.reference }, NOW),
    ).toEqual({ ok: false, reason: "sample-taken" });

    const other = await person();
    const started = await insertBooking(db, { eventId: ev.id, userId: other.id, confirmedAt: NOW });
    // 10:00 in London on 10 June is 09:00 UTC.
    expect(
      await cancelOwnBooking(
        db,
        { userId: other.id, reference: started.reference },
        new Date("2026-06-10T09:00:00Z"),
      ),
    ).toEqual({ ok: false, reason: "started" });
  });

  it("refunds a paid booking cancelled with more than 2 business days' notice, once however often it is asked", async () => {
    const { db } = database;
    const { who, bookingId, reference } = await paidBooking();
    const outcome = await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10));
    expect(outcome).toEqual({ ok: true, reference, refundPence: 2500, refund: "made" });
    expect(await bookingRow(bookingId)).toMatchObject({
      status: "cancelled",
      paymentStatus: "refunded",
      refundOwed: false,
    });
    const calls = refundCalls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.requestId).toBe(`refund-${bookingId}`);
    expect(calls[0]!.body).toMatchObject({ note_to_payer: expect.stringMatching(/You cancelled/) });

    // Pressed again, and the worker passing: no second call to PayPal.
    await cancelOwnBooking(db, { userId: who.id, reference }, minutes(11));
    await retryDueRefunds(db, minutes(60));
    expect(refundCalls()).toHaveLength(1);

    const [mail] = (await mailsTo(who.email)).filter((m) => m.subject.endsWith("is cancelled"));
    expect(mail!.text).toContain("We are giving you back £25.00");
    // 14 business days from Monday 1 June 2026: Friday 19 June.
    expect(mail!.text).toContain("by Friday, 19 June 2026");
  });

  it("keeps the money of a paid booking cancelled within 2 business days, and says so", async () => {
    const { db } = database;
    // Wednesday 3 June: one business day (Tuesday) between Monday 1 June and it.
    const { who, bookingId, reference } = await paidBooking("2026-06-03");
    const outcome = await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10));
    expect(outcome).toEqual({ ok: true, reference, refundPence: 0, refund: "none" });
    expect(await bookingRow(bookingId)).toMatchObject({
      status: "cancelled",
      paymentStatus: "paid",
      refundOwed: false,
    });
    await retryDueRefunds(db, minutes(60 * 24));
    expect(refundCalls()).toHaveLength(0);
    const [mail] = (await mailsTo(who.email)).filter((m) => m.subject.endsWith("is cancelled"));
    // Three business days before Wednesday 3 June: Friday 29 May, Monday 1, Tuesday 2 June.
    expect(mail!.text).toContain(
      "The last day to cancel with a full refund was Thursday, 28 May 2026. The £25.00 you paid was not refunded.",
    );
  });

  it("does not cancel for less than the refund he was shown: the day changed while the page was open", async () => {
    const { db } = database;
    // Wednesday 10 June: the last day for a full refund is Thursday 4 June (Friday 5, Monday 8
    // and Tuesday 9 June are left). He opens the page at 23:55 on Thursday and confirms at 00:05.
    const { who, bookingId, reference } = await paidBooking();
    const friday0005 = new Date("2026-06-04T23:05:00Z");
    // A request that does not say what he was shown is asked again, too.
    expect(
      await cancelOwnBooking(db, { userId: who.id, reference, shownRefundPence: null }, friday0005),
    ).toEqual({ ok: false, reason: "terms-changed" });
    const refused = await cancelOwnBooking(
      db,
      { userId: who.id, reference, shownRefundPence: 2500 },
      friday0005,
    );
    expect(refused).toEqual({ ok: false, reason: "terms-changed" });
    expect(await bookingRow(bookingId)).toMatchObject({
      status: "confirmed",
      paymentStatus: "paid",
    });
    expect((await mailsTo(who.email)).filter((m) => m.subject.endsWith("is cancelled"))).toEqual(
      [],
    );

    // Shown the new terms (nothing back), he confirms again: cancelled, nothing refunded.
    const outcome = await cancelOwnBooking(
      db,
      { userId: who.id, reference, shownRefundPence: 0 },
      new Date(friday0005.getTime() + 60_000),
    );
    expect(outcome).toEqual({ ok: true, reference, refundPence: 0, refund: "none" });
    expect(refundCalls()).toHaveLength(0);
  });

  it("cancels with the refund he was shown while it still holds", async () => {
    const { db } = database;
    const { who, reference } = await paidBooking();
    // 23:55 on Thursday 4 June in London: still the last day for a full refund.
    const outcome = await cancelOwnBooking(
      db,
      { userId: who.id, reference, shownRefundPence: 2500 },
      new Date("2026-06-04T22:55:00Z"),
    );
    expect(outcome).toEqual({ ok: true, reference, refundPence: 2500, refund: "made" });
  });

  it("leaves a refund whose answer was lost owed, and the worker makes it with the same request id", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const { who, bookingId, reference } = await paidBooking();
    fake.dropNextResponse("/v2/payments/captures/");
    const outcome = await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10));
    expect(outcome).toEqual({ ok: true, reference, refundPence: 2500, refund: "owed" });
    expect(await bookingRow(bookingId)).toMatchObject({ refundOwed: true, paymentStatus: "paid" });

    // Not yet due (the first retry waits a few minutes), then due.
    await retryDueRefunds(db, new Date(minutes(10).getTime() + 30_000));
    expect(refundCalls()).toHaveLength(1);
    const run = await retryDueRefunds(db, minutes(60));
    expect(run.refunded).toBe(1);
    expect(refundCalls().map((call) => call.requestId)).toEqual([
      `refund-${bookingId}`,
      `refund-${bookingId}`,
    ]);
    // PayPal made it once: the second call was answered with the first refund.
    expect(fake.refunds.size).toBe(1);
    expect(await bookingRow(bookingId)).toMatchObject({
      refundOwed: false,
      paymentStatus: "refunded",
    });
    const completed = await db
      .select()
      .from(paymentTransaction)
      .where(
        and(eq(paymentTransaction.bookingId, bookingId), eq(paymentTransaction.kind, "refund")),
      );
    expect(completed.filter((row) => row.status === "COMPLETED")).toHaveLength(1);
  });
});

describe("refunds owed to patients, for staff", () => {
  it("lists an owed refund with its failed tries until it is made, and lets a coordinator try again now", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const { who, bookingId, reference } = await paidBooking();
    fake.dropNextResponse("/v2/payments/captures/");
    await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10));

    const owed = (await owedPatientRefunds(db)).find((row) => row.reference === reference);
    expect(owed).toMatchObject({
      amountPence: 2500,
      failedAttempts: 1,
      lastReason: "NO_RESPONSE",
      retriesStopped: false,
    });

    const clinician = (await insertStaff(db, ["clinician"], { twoFactor: false })).actor;
    await expect(retryOwedRefund(db, clinician, reference, minutes(11))).rejects.toBeInstanceOf(
      PermissionDenied,
    );
    const coordinator = (await insertStaff(db, ["coordinator"], { twoFactor: false })).actor;
    expect(await retryOwedRefund(db, coordinator, reference, minutes(11))).toEqual({
      outcome: "refunded",
    });
    expect(await bookingRow(bookingId)).toMatchObject({
      refundOwed: false,
      paymentStatus: "refunded",
    });
    expect((await owedPatientRefunds(db)).map((row) => row.reference)).not.toContain(reference);
    const audited = await db.select().from(auditLog).where(eq(auditLog.entityId, bookingId));
    expect(audited).toMatchObject([
      { action: "refund.retry", actorUserId: coordinator.id, subjectUserId: who.id },
    ]);
    // Nothing is owed any more: trying again is refused without a call to PayPal.
    const calls = refundCalls().length;
    expect(await retryOwedRefund(db, coordinator, reference, minutes(12))).toEqual({
      outcome: "not-found",
    });
    expect(refundCalls()).toHaveLength(calls);
  });
});

describe("a refund PayPal refuses for good (found by a payments review)", () => {
  it("is put to staff at once, never retried by itself, and can be recorded as given back another way", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const { who, bookingId, reference } = await paidBooking();
    const [capture] = fake.captures.values();
    fake.refuseRefunds(capture!.id, "REFUND_TIME_LIMIT_EXCEEDED");
    expect(await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10))).toMatchObject({
      ok: true,
      refund: "owed",
    });
    expect(refundCalls()).toHaveLength(1);

    // One refusal is enough: the list says a person must act, and so does his bookings page.
    expect((await owedPatientRefunds(db)).find((row) => row.reference === reference)).toMatchObject(
      { failedAttempts: 1, lastReason: "REFUND_TIME_LIMIT_EXCEEDED", retriesStopped: true },
    );
    const refundOn = async (at: Date) =>
      (await listMyBookings(db, who.id, at)).find((row) => row.reference === reference)!.refund;
    expect(await refundOn(minutes(20))).toMatchObject({ state: "stalled", pence: 2500 });
    // A week of the worker's passes asks PayPal nothing more.
    for (let hour = 1; hour <= 7 * 24; hour += 6)
      await retryDueRefunds(db, minutes(10 + hour * 60));
    expect(refundCalls()).toHaveLength(1);

    // Only a coordinator records it, once he has the money back; audited.
    const clinician = (await insertStaff(db, ["clinician"], { twoFactor: false })).actor;
    await expect(
      recordOwedRefundByHand(db, clinician, reference, minutes(30)),
    ).rejects.toBeInstanceOf(PermissionDenied);
    const coordinator = (await insertStaff(db, ["coordinator"], { twoFactor: false })).actor;
    expect(await recordOwedRefundByHand(db, coordinator, reference, minutes(30))).toEqual({
      outcome: "recorded",
    });
    expect(await bookingRow(bookingId)).toMatchObject({
      paymentStatus: "refunded",
      refundOwed: false,
    });
    expect((await owedPatientRefunds(db)).map((row) => row.reference)).not.toContain(reference);
    // Given back outside PayPal: no day is promised for it to reach his card.
    expect(await refundOn(minutes(40))).toEqual({
      state: "made",
      pence: 2500,
      by: null,
      lastFullRefundDay: "2026-06-04",
    });
    const audited = await db.select().from(auditLog).where(eq(auditLog.entityId, bookingId));
    expect(audited.map((row) => row.action)).toEqual(["refund.by-hand"]);
    // Recorded once: nothing is owed any more, and PayPal was asked nothing more.
    expect(await recordOwedRefundByHand(db, coordinator, reference, minutes(31))).toEqual({
      outcome: "not-found",
    });
    expect(await retryOwedRefund(db, coordinator, reference, minutes(31))).toEqual({
      outcome: "not-found",
    });
    expect(refundCalls()).toHaveLength(1);
  });

  it("cannot be recorded as given back another way while the site still tries PayPal", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const { who, bookingId, reference } = await paidBooking();
    fake.dropNextResponse("/v2/payments/captures/");
    await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10));
    const coordinator = (await insertStaff(db, ["coordinator"], { twoFactor: false })).actor;
    expect(await recordOwedRefundByHand(db, coordinator, reference, minutes(11))).toEqual({
      outcome: "still-trying",
    });
    expect(await bookingRow(bookingId)).toMatchObject({ paymentStatus: "paid", refundOwed: true });
    expect(await db.select().from(auditLog).where(eq(auditLog.entityId, bookingId))).toEqual([]);
  });
});

describe("a refund given back another way, guarded (found by a review of the change)", () => {
  it("is not stopped by a refusal a later try overtook, and the worker finds the refund PayPal made", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const { who, bookingId, reference } = await paidBooking();
    const [capture] = fake.captures.values();
    fake.refuseRefunds(capture!.id, "TRANSACTION_DISPUTED");
    await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10));
    const coordinator = (await insertStaff(db, ["coordinator"], { twoFactor: false })).actor;
    // The case is closed; Try again reaches PayPal, which refunds, but its answer is lost.
    fake.refuseRefunds(capture!.id, null);
    fake.dropNextResponse("/v2/payments/captures/");
    expect(await retryOwedRefund(db, coordinator, reference, minutes(20))).toMatchObject({
      outcome: "failed",
    });
    expect((await owedPatientRefunds(db)).find((row) => row.reference === reference)).toMatchObject(
      { retriesStopped: false, lastReason: "NO_RESPONSE" },
    );
    expect(await recordOwedRefundByHand(db, coordinator, reference, minutes(21))).toEqual({
      outcome: "still-trying",
    });
    // The worker asks again with the same request id and is given the refund PayPal made.
    await retryDueRefunds(db, minutes(60));
    expect(await bookingRow(bookingId)).toMatchObject({ paymentStatus: "refunded" });
    expect(fake.refunds.size).toBe(1);
    expect(await recordOwedRefundByHand(db, coordinator, reference, minutes(61))).toEqual({
      outcome: "not-found",
    });
  });

  it("waits for PayPal's answer when the last of the tries got none", async () => {
    const { db } = database;
    const ev = await insertPaidEvent(db, { eventDate: "2026-06-10" }, 2500);
    const row = await insertOwedRefund(db, { eventId: ev.id, userId: (await person()).id });
    // Thirteen refusals it can mend (the charity's balance), then a try whose answer was lost.
    for (let n = 1; n <= 13; n++)
      await db.insert(paymentTransaction).values({
        bookingId: row.id,
        kind: "refund",
        provider: "paypal",
        status: "UNPROCESSABLE_ENTITY",
        issue: "REFUND_FAILED_INSUFFICIENT_FUNDS",
        createdAt: minutes(n),
      });
    await db.insert(paymentTransaction).values({
      bookingId: row.id,
      kind: "refund",
      provider: "paypal",
      status: "NO_RESPONSE",
      createdAt: minutes(14),
    });
    const coordinator = (await insertStaff(db, ["coordinator"], { twoFactor: false })).actor;
    expect(
      (await owedPatientRefunds(db)).find((owed) => owed.reference === row.reference),
    ).toMatchObject({ retriesStopped: true });
    expect(await recordOwedRefundByHand(db, coordinator, row.reference, minutes(20))).toEqual({
      outcome: "answer-lost",
    });
    expect(await bookingRow(row.id)).toMatchObject({ paymentStatus: "paid" });
    expect(await db.select().from(auditLog).where(eq(auditLog.entityId, row.id))).toEqual([]);
  });

  it("records what he paid, which may not be the price", async () => {
    const { db } = database;
    const ev = await insertPaidEvent(db, { eventDate: "2026-06-10" }, 2500);
    const row = await insertOwedRefund(db, {
      eventId: ev.id,
      userId: (await person()).id,
      refusedBy: "REFUND_TIME_LIMIT_EXCEEDED",
    });
    // PayPal took £30 for the £25 booking (a payment that was not the price).
    await db.insert(paymentTransaction).values({
      bookingId: row.id,
      kind: "capture",
      provider: "paypal",
      captureId: "CAPTURE30POUNDS",
      status: "COMPLETED",
      amountPence: 3000,
      createdAt: minutes(-60),
    });
    expect(
      (await owedPatientRefunds(db)).find((owed) => owed.reference === row.reference),
    ).toMatchObject({ amountPence: 3000, retriesStopped: true });
    const coordinator = (await insertStaff(db, ["coordinator"], { twoFactor: false })).actor;
    expect(await recordOwedRefundByHand(db, coordinator, row.reference, minutes(20))).toEqual({
      outcome: "recorded",
    });
    const refunds = await db
      .select()
      .from(paymentTransaction)
      .where(
        and(eq(paymentTransaction.bookingId, row.id), eq(paymentTransaction.status, "COMPLETED")),
      );
    expect(refunds.filter((made) => made.kind === "refund")).toMatchObject([
      { provider: "by hand", amountPence: 3000 },
    ]);
    const [audited] = await db.select().from(auditLog).where(eq(auditLog.entityId, row.id));
    expect(audited).toMatchObject({ action: "refund.by-hand", details: { amountPence: 3000 } });
  });
});

describe("refunds owed after an event is cancelled, for staff (found by a coordinator review)", () => {
  it("are listed beside the others until made, and a coordinator can try one again", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const { bookingId, reference, ev } = await paidBooking("2026-06-11");
    const coordinator = (await insertStaff(db, ["coordinator"], { twoFactor: false })).actor;
    // PayPal does not answer the refund made as the event is cancelled.
    fake.dropNextResponse("/v2/payments/captures/");
    expect(await cancelEvent(db, coordinator, ev.id, minutes(10))).toMatchObject({
      refunds: { failed: 1 },
    });
    expect(await bookingRow(bookingId)).toMatchObject({
      status: "cancelled",
      paymentStatus: "paid",
      refundOwed: false,
    });
    expect((await owedPatientRefunds(db)).find((row) => row.reference === reference)).toMatchObject(
      { amountPence: 2500, failedAttempts: 1, lastReason: "NO_RESPONSE" },
    );

    expect(await retryOwedRefund(db, coordinator, reference, minutes(11))).toEqual({
      outcome: "refunded",
    });
    expect(await bookingRow(bookingId)).toMatchObject({ paymentStatus: "refunded" });
    expect((await owedPatientRefunds(db)).map((row) => row.reference)).not.toContain(reference);
    expect(fake.refunds.size).toBe(1);
  });
});

describe("a refund owed on a payment PayPal is still reviewing (found by a review)", () => {
  it("is listed as under review, with nothing to try yet", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const ev = await insertPaidEvent(db, { eventDate: "2026-06-12" }, 2500);
    const who = await person();
    const { reference, orderId } = await bookingAtCheckout(
      db,
      { eventId: ev.id, userId: who.id, slotTime: "10:00" },
      NOW,
    );
    fake.setOutcome(orderId, "pending");
    fake.approve(orderId);
    expect((await capturePayment(db, { userId: who.id, orderId }, minutes(3))).outcome).toBe(
      "pending",
    );
    const coordinator = (await insertStaff(db, ["coordinator"], { twoFactor: false })).actor;
    await cancelEvent(db, coordinator, ev.id, minutes(10));
    expect((await owedPatientRefunds(db)).find((row) => row.reference === reference)).toMatchObject(
      { underReview: true, retriesStopped: false },
    );
  });
});

describe("the day an owed refund should arrive by", () => {
  it("is given while it is ahead, and not once it has passed with the refund still owed", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const { who, reference } = await paidBooking();
    fake.dropNextResponse("/v2/payments/captures/");
    // Cancelled on Monday 1 June 2026: fourteen working days on is Friday 19 June.
    await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10));
    const refundOn = async (at: Date) =>
      (await listMyBookings(db, who.id, at)).find((row) => row.reference === reference)!.refund;
    expect(await refundOn(minutes(20))).toMatchObject({ state: "owed", by: "2026-06-19" });
    expect(await refundOn(new Date("2026-06-19T20:00:00Z"))).toMatchObject({
      state: "owed",
      by: "2026-06-19",
    });
    // Saturday 20 June in London (23:30 on the 19th in UTC), and still owed: no day is promised.
    expect(await refundOn(new Date("2026-06-19T23:30:00Z"))).toMatchObject({
      state: "owed",
      by: null,
    });
  });
});

describe("a refund the worker has stopped trying", () => {
  it("is shown to the patient as with our team, not as on its way, and to staff as stopped", async () => {
    const { db } = database;
    const fake = fakePayPal();
    const { who, bookingId, reference } = await paidBooking();
    fake.dropNextResponse("/v2/payments/captures/");
    await cancelOwnBooking(db, { userId: who.id, reference }, minutes(10));
    const mine = async () =>
      (await listMyBookings(db, who.id, minutes(20))).find((row) => row.reference === reference)!;
    expect((await mine()).refund).toMatchObject({ state: "owed" });
    // Thirteen more failed tries: fourteen in all, the worker's last.
    await db.insert(paymentTransaction).values(
      Array.from({ length: 13 }, () => ({
        bookingId,
        kind: "refund" as const,
        provider: "paypal",
        status: "UNPROCESSABLE_ENTITY",
        issue: "REFUND_FAILED_INSUFFICIENT_FUNDS",
      })),
    );
    expect((await mine()).refund).toMatchObject({ state: "stalled", pence: 2500 });
    expect((await owedPatientRefunds(db)).find((row) => row.reference === reference)).toMatchObject(
      { failedAttempts: 14, retriesStopped: true, lastReason: "REFUND_FAILED_INSUFFICIENT_FUNDS" },
    );
  });
});

describe("signed links to a booking's page", () => {
  const linked = {
    id: "5f0c6a8e-1111-4c3b-9d7e-000000000001",
    userId: "owner-user-id",
    reference: "MHAT-7KQ3-9XZ2",
    eventDate: "2026-06-10",
  };
  const queryOf = (url: string) => new URL(url).searchParams;

  it("points at the booking's page on this site, and is accepted for its booking and owner", () => {
    const url = manageBookingUrl(linked);
    expect(url.startsWith(`${config().publicBaseUrl}/my-bookings/MHAT-7KQ3-9XZ2?`)).toBe(true);
    expect(checkBookingLink(queryOf(url), linked, NOW)).toEqual({ kind: "valid" });
  });

  it("is refused for another booking or another owner, or once changed", () => {
    const query = queryOf(manageBookingUrl(linked));
    expect(checkBookingLink(query, { ...linked, userId: "someone-else" }, NOW).kind).toBe(
      "invalid",
    );
    expect(
      checkBookingLink(query, { ...linked, id: "5f0c6a8e-1111-4c3b-9d7e-000000000002" }, NOW).kind,
    ).toBe("invalid");
    const later = new URLSearchParams(query);
    later.set("expires", String(Number(query.get("expires")) + 86_400));
    expect(checkBookingLink(later, linked, NOW).kind).toBe("invalid");
    const forged = new URLSearchParams(query);
    forged.set("signature", "A".repeat(query.get("signature")!.length));
    expect(checkBookingLink(forged, linked, NOW).kind).toBe("invalid");
    expect(checkBookingLink(new URLSearchParams("expires=1"), linked, NOW).kind).toBe("invalid");
  });

  it("expires at the end of the day after the appointment", () => {
    const query = queryOf(manageBookingUrl(linked));
    // Midnight at the end of Thursday 11 June in London (summer time) is 23:00 UTC.
    expect(query.get("expires")).toBe(String(Date.parse("2026-06-11T23:00:00Z") / 1000));
    expect(checkBookingLink(query, linked, new Date("2026-06-11T22:59:59Z")).kind).toBe("valid");
    expect(checkBookingLink(query, linked, new Date("2026-06-11T23:00:00Z")).kind).toBe("expired");
  });

  it("refuses, without failing, a signature of the right length in characters but not in bytes", () => {
    const query = queryOf(manageBookingUrl(linked));
    const signature = query.get("signature")!;
    expect(signature).toHaveLength(43);
    for (const odd of [`é${signature.slice(1)}`, `${signature.slice(0, 42)}€`, "=".repeat(43)]) {
      const tampered = new URLSearchParams(query);
      tampered.set("signature", odd);
      expect(checkBookingLink(tampered, linked, NOW)).toEqual({ kind: "invalid" });
    }
  });

  it("refuses an expired link of the owner's own and a changed one, pointing him to the booking; another account gets not-found", async () => {
    const { db } = database;
    const owner = await person();
    const ev = await insertFreeEvent(db, { eventDate: "2026-06-10" });
    const row = await insertBooking(db, { eventId: ev.id, userId: owner.id, confirmedAt: NOW });
    // The link of an e-mail about an earlier date (before a change of time), long expired.
    const old = new URLSearchParams(
      signedBookingQuery({ ...row, userId: owner.id, eventDate: "2026-05-01" }),
    );
    const opened = await openMyBooking(
      db,
      { userId: owner.id, reference: row.reference, query: old },
      NOW,
    );
    expect(opened).toEqual({ kind: "link-refused", reason: "expired", reference: row.reference });
    const changed = new URLSearchParams(old);
    changed.set("expires", String(Number(old.get("expires")) + 1));
    expect(
      await openMyBooking(db, { userId: owner.id, reference: row.reference, query: changed }, NOW),
    ).toEqual({ kind: "link-refused", reason: "invalid", reference: row.reference });
    const other = await person();
    expect(
      await openMyBooking(db, { userId: other.id, reference: row.reference, query: old }, NOW),
    ).toEqual({ kind: "not-found" });
  });

  it("leaves an address without a signature to the session", () => {
    expect(checkBookingLink(new URLSearchParams(""), linked, NOW)).toEqual({ kind: "none" });
  });
});
