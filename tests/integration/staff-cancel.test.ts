import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { booking, outboxEmail, testResult, waitlistEntry } from "#app/db/schema";
import { PermissionDenied } from "#app/domain/permissions";
import { capturePayment } from "#app/services/booking/capture.server";
import {
  STAFF_CANCEL_REFUSALS,
  cancelBookingForHim,
  staffCancelPreview,
} from "#app/services/booking/cancel.server";
import { findMyBooking } from "#app/services/booking/my-bookings.server";
import { findEvent } from "#app/services/events.server";
import { retryDueRefunds } from "#app/services/payments/refunds.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  bookingAtCheckout,
  fakePayPalForThisFile,
  insertBooking,
  insertFreeEvent,
  insertPaidEvent,
  insertPatient,
  insertStaff,
  insertWaitlistEntry,
} from "#tests/support/fixtures";

const database = testDatabaseForThisFile();
const fakePayPal = fakePayPalForThisFile();

/** Monday 1 June 2026, 10:00 in London: nine days before each event here (Wednesday 10 June). */
const EARLY = new Date("2026-06-01T09:00:00Z");
/** Tuesday 9 June 2026, 10:00 in London: the day before, too late for a refund by the policy. */
const LATE = new Date("2026-06-09T09:00:00Z");
/** 10:00 in London on 10 June (summer time): the appointment begins. */
const BEGUN = new Date("2026-06-10T09:00:00Z");

const coordinator = async () => (await insertStaff(database.db, ["coordinator"])).actor;

/** A man's place at 10:00 on 10 June, paid £25 through the fake PayPal on 1 June. */
async function paidPlace() {
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
  const captured = await capturePayment(
    db,
    { userId: man.id, orderId },
    new Date(EARLY.getTime() + 60_000),
  );
  expect(captured.outcome).toBe("confirmed");
  return { ev, man, bookingId, reference };
}

async function freePlace(values: Partial<typeof booking.$inferInsert> = {}) {
  const { db } = database;
  const ev = await insertFreeEvent(db, { eventDate: "2026-06-10" });
  const man = await insertPatient(db);
  const row = await insertBooking(db, { eventId: ev.id, userId: man.id, ...values });
  return { ev, man, row };
}

async function bookingRow(id: string) {
  const [row] = await database.db.select().from(booking).where(eq(booking.id, id));
  return row!;
}

const refundCalls = () => fakePayPal().requestsTo("POST", /^\/v2\/payments\/captures\/.+\/refund$/);

async function cancellationMails(email: string) {
  const mails = await database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email));
  return mails.filter((mail) => mail.subject.endsWith("is cancelled"));
}

describe("a coordinator cancelling a man's booking when he asks", () => {
  it("the day before, as the policy says: nothing paid back, kept for good, audited", async () => {
    const { db } = database;
    const { ev, man, bookingId, reference } = await paidPlace();
    const actor = await coordinator();
    const before = refundCalls().length;

    const preview = await staffCancelPreview(db, actor, { eventId: ev.id, bookingId, now: LATE });
    expect(preview).toMatchObject({
      reference,
      name: "Walter Pryce",
      slotTime: "10:00",
      paidPence: 2500,
      policyRefundPence: 0,
      refusal: null,
    });

    const outcome = await cancelBookingForHim(
      db,
      actor,
      { eventId: ev.id, bookingId, refund: "policy", shownRefundPence: 0 },
      LATE,
    );
    expect(outcome).toEqual({ ok: true, reference, refundPence: 0, refund: "none" });
    expect(await bookingRow(bookingId)).toMatchObject({
      status: "cancelled",
      cancelledBy: "staff",
      cancelledAt: LATE,
      paymentStatus: "paid",
      refundOwed: false,
    });
    await retryDueRefunds(db, new Date(LATE.getTime() + 3_600_000));
    expect(refundCalls()).toHaveLength(before);
    // His own page says the money is kept, not that a refund is on its way.
    expect((await findMyBooking(db, { userId: man.id, reference }, LATE))?.refund).toMatchObject({
      state: "kept",
    });

    const [mail] = await cancellationMails(man.email);
    expect(mail!.text).toContain(
      "We have cancelled your screening appointment, as you asked us to.",
    );
    expect(mail!.text).toContain("The £25.00 you paid was not refunded.");

    // Opening the page was a read of his booking.
    const [read] = await auditRows(db, { action: "booking.view", entityId: bookingId });
    expect(read).toMatchObject({
      actorUserId: actor.id,
      subjectUserId: man.id,
      details: { eventId: ev.id },
    });
    const [audit] = await auditRows(db, { action: "booking.cancel", entityId: bookingId });
    expect(audit).toMatchObject({
      actorUserId: actor.id,
      subjectUserId: man.id,
      details: { eventId: ev.id, refund: "policy", refundPence: 0 },
    });
  });

  it("the day before, with everything he paid given back through PayPal, once", async () => {
    const { db } = database;
    const { ev, man, bookingId, reference } = await paidPlace();
    const actor = await coordinator();
    const before = refundCalls().length;

    const outcome = await cancelBookingForHim(
      db,
      actor,
      { eventId: ev.id, bookingId, refund: "full", shownRefundPence: 0 },
      LATE,
    );
    expect(outcome).toEqual({ ok: true, reference, refundPence: 2500, refund: "made" });
    expect(await bookingRow(bookingId)).toMatchObject({
      status: "cancelled",
      cancelledBy: "staff",
      paymentStatus: "refunded",
    });
    const calls = refundCalls().slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({
      note_to_payer: "We cancelled your appointment as you asked: a refund of what you paid.",
    });
    await retryDueRefunds(db, new Date(LATE.getTime() + 3_600_000));
    expect(refundCalls().slice(before)).toHaveLength(1);

    const [mail] = await cancellationMails(man.email);
    expect(mail!.text).toContain("We are giving you back £25.00, the full amount you paid.");
    // 14 working days from Tuesday 9 June 2026: Monday 29 June.
    expect(mail!.text).toContain("by Monday, 29 June 2026");
    const [audit] = await auditRows(db, { action: "booking.cancel", entityId: bookingId });
    expect(audit!.details).toEqual({ eventId: ev.id, refund: "full", refundPence: 2500 });
  });

  it("frees the place and offers it to the waiting list", async () => {
    const { db } = database;
    const ev = await insertFreeEvent(db, {
      eventDate: "2026-06-10",
      totalSpaces: 1,
      placesPerSlot: 1,
      startTime: "10:00",
      endTime: "10:30",
    });
    const man = await insertPatient(db);
    const row = await insertBooking(db, { eventId: ev.id, userId: man.id });
    const waiting = await insertPatient(db);
    await insertWaitlistEntry(db, { eventId: ev.id, userId: waiting.id });
    expect((await findEvent(db, ev.id, EARLY))!.spaces_left).toBe(0);

    const outcome = await cancelBookingForHim(
      db,
      await coordinator(),
      { eventId: ev.id, bookingId: row.id, refund: "policy", shownRefundPence: 0 },
      EARLY,
    );
    expect(outcome).toMatchObject({ ok: true, refundPence: 0, refund: "none" });
    const [entry] = await db
      .select()
      .from(waitlistEntry)
      .where(and(eq(waitlistEntry.eventId, ev.id), eq(waitlistEntry.userId, waiting.id)));
    expect(entry).toMatchObject({ status: "offered", offeredSlotTime: "10:00" });
    const [mail] = await cancellationMails(man.email);
    expect(mail!.text).toContain("This booking was free");
  });

  it("refuses for less than the page showed when the policy's refund has gone meanwhile", async () => {
    const { db } = database;
    const { ev, bookingId } = await paidPlace();
    const actor = await coordinator();
    // Opened on 1 June (a full refund by the policy), confirmed on 9 June.
    expect(
      (await staffCancelPreview(db, actor, { eventId: ev.id, bookingId, now: EARLY }))
        ?.policyRefundPence,
    ).toBe(2500);
    expect(
      await cancelBookingForHim(
        db,
        actor,
        { eventId: ev.id, bookingId, refund: "policy", shownRefundPence: 2500 },
        LATE,
      ),
    ).toEqual({ ok: false, reason: "terms-changed" });
    expect((await bookingRow(bookingId)).status).toBe("confirmed");
  });

  it.each([
    ["checked in", { arrivedAt: EARLY }, EARLY, "not-cancellable"],
    ["marked as a no-show", { noShowAt: EARLY }, EARLY, "not-cancellable"],
    ["sampled", { arrivedAt: EARLY, sampleTakenAt: EARLY, sampleId: "S-1" }, EARLY, "sample-taken"],
    ["a hold", { status: "held" as const, holdExpiresAt: LATE }, EARLY, "not-cancellable"],
    ["already begun", {}, BEGUN, "started"],
    ["cancelled", { status: "cancelled" as const, cancelledAt: EARLY }, EARLY, "already-cancelled"],
  ] as const)("refuses a booking %s, and says why", async (_label, values, now, reason) => {
    const { db } = database;
    const { ev, row } = await freePlace(values);
    const actor = await coordinator();
    expect(
      (await staffCancelPreview(db, actor, { eventId: ev.id, bookingId: row.id, now }))?.refusal,
    ).toBe(STAFF_CANCEL_REFUSALS[reason]);
    expect(
      await cancelBookingForHim(
        db,
        actor,
        { eventId: ev.id, bookingId: row.id, refund: "full", shownRefundPence: 0 },
        now,
      ),
    ).toEqual({ ok: false, reason });
    expect((await bookingRow(row.id)).status).toBe(row.status);
    expect(await auditRows(db, { action: "booking.cancel", entityId: row.id })).toHaveLength(0);
  });

  it("refuses a booking with a result even without a sample marked", async () => {
    const { db } = database;
    const { ev, row } = await freePlace();
    await db.insert(testResult).values({ bookingId: row.id, psaValue: "1.10" });
    expect(
      await cancelBookingForHim(
        db,
        await coordinator(),
        { eventId: ev.id, bookingId: row.id, refund: "policy", shownRefundPence: 0 },
        EARLY,
      ),
    ).toEqual({ ok: false, reason: "sample-taken" });
  });

  it("finds nothing for a booking of another event, or an id that is not one", async () => {
    const { db } = database;
    const { row } = await freePlace();
    const other = await insertFreeEvent(db, { eventDate: "2026-06-10" });
    const actor = await coordinator();
    for (const bookingId of [row.id, "not-an-id"]) {
      expect(
        await staffCancelPreview(db, actor, { eventId: other.id, bookingId, now: EARLY }),
      ).toBeNull();
      expect(
        await cancelBookingForHim(
          db,
          actor,
          { eventId: other.id, bookingId, refund: "policy", shownRefundPence: 0 },
          EARLY,
        ),
      ).toEqual({ ok: false, reason: "not-found" });
    }
    expect((await bookingRow(row.id)).status).toBe("confirmed");
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
        cancelBookingForHim(
          db,
          actor,
          { eventId: ev.id, bookingId: row.id, refund: "policy", shownRefundPence: 0 },
          day,
        ),
      ).rejects.toBeInstanceOf(PermissionDenied);
      await expect(
        staffCancelPreview(db, actor, { eventId: ev.id, bookingId: row.id, now: day }),
      ).rejects.toBeInstanceOf(PermissionDenied);
      expect((await bookingRow(row.id)).status).toBe("confirmed");
    },
  );
});
