import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import {
  booking,
  consent,
  event,
  eventAccessCode,
  eventUnlock,
  outboxEmail,
  screeningProduct,
  testResult,
} from "#app/db/schema";
import { changeOwnBooking, changePage } from "#app/services/booking/change.server";
import { placesTaken } from "#app/services/booking/places.server";
import { offerFreedPlaces } from "#app/services/waitlist.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  consentForm,
  consentFormSecrets,
  insertBooking,
  insertConfirmedBookings,
  insertEvent,
  insertPatient,
  insertProduct,
} from "#tests/support/fixtures";
import { insertResult } from "#tests/support/fixtures/results";

vi.mock("#app/services/waitlist.server", () => ({ offerFreedPlaces: vi.fn(async () => 0) }));

const database = testDatabaseForThisFile();
const db = () => database.db;

/**
 * Monday 1 June 2026, 10:00 in London: nine days before the fixture's event (Wednesday 10 June,
 * 10:00 to 12:00, 30-minute times of two places: 10:00, 10:30, 11:00, 11:30).
 */
const NOW = new Date("2026-06-01T09:00:00Z");

/** A paid product at £25.00 and a confirmed, paid booking of a new patient at 10:00 on 10 June. */
async function paidBooking(
  options: { eventDate?: string; slotTime?: string; withConsent?: boolean } = {},
) {
  const product = await insertProduct(db(), 2500);
  const ev = await insertEvent(db(), product.id, {
    paymentRequired: true,
    eventDate: options.eventDate ?? "2026-06-10",
  });
  const patient = await insertPatient(db());
  const orderId = `ORDER-${crypto.randomUUID()}`;
  const row = await insertBooking(db(), {
    eventId: ev.id,
    userId: patient.id,
    slotTime: options.slotTime ?? "10:00",
    pricePence: 2500,
    paymentRequired: true,
    paymentStatus: "paid",
    paymentOrderId: orderId,
    confirmedAt: new Date("2026-05-20T12:00:00Z"),
  });
  let consentId: string | null = null;
  if (options.withConsent !== false) {
    const [made] = await db()
      .insert(consent)
      .values({
        bookingId: row.id,
        userId: patient.id,
        testDate: ev.eventDate,
        answers: consentForm,
        gpConsent: true,
        wordingVersion: "test-1",
        agreedAt: new Date("2026-05-20T11:55:00Z"),
      })
      .returning();
    consentId = made!.id;
  }
  return { product, ev, patient, row, orderId, consentId };
}

const bookingRow = async (id: string) =>
  (await db().select().from(booking).where(eq(booking.id, id)))[0]!;
const mailsTo = (to: string) => db().select().from(outboxEmail).where(eq(outboxEmail.to, to));
const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, "");

describe("changing one's own booking", () => {
  it("moves the same booking to another time of its event, with its payment and consent, and mails both calendar entries", async () => {
    const { ev, patient, row, orderId, consentId } = await paidBooking();
    vi.mocked(offerFreedPlaces).mockClear();

    const result = await changeOwnBooking(
      db(),
      { userId: patient.id, reference: row.reference, eventId: ev.id, slotTime: "11:30" },
      NOW,
    );

    expect(result).toMatchObject({
      ok: true,
      booking: { reference: row.reference, eventId: ev.id, slotTime: "11:30", calendarVersion: 1 },
    });
    const moved = await bookingRow(row.id);
    expect(moved).toMatchObject({
      reference: row.reference,
      eventId: ev.id,
      slotTime: "11:30",
      status: "confirmed",
      paymentStatus: "paid",
      paymentOrderId: orderId,
      pricePence: 2500,
      calendarVersion: 1,
    });
    expect(moved.updatedAt.toISOString()).toBe(NOW.toISOString());
    const [kept] = await db().select().from(consent).where(eq(consent.bookingId, row.id));
    expect(kept).toMatchObject({ id: consentId, testDate: "2026-06-10" });
    // Only one booking of his, anywhere.
    expect(await db().select().from(booking).where(eq(booking.userId, patient.id))).toHaveLength(1);
    // The old time is free again, the new one taken.
    const taken = await placesTaken(db(), ev.id, NOW);
    expect(taken.perSlot.get("10:00")).toBeUndefined();
    expect(taken.perSlot.get("11:30")).toBe(1);

    const mails = await mailsTo(patient.email);
    // Two messages: mail programs act on one calendar file per message.
    expect(mails).toHaveLength(2);
    const mail = mails.find((message) => message.subject.includes("has a new time"))!;
    const oldTime = mails.find((message) => message.subject.includes("old"))!;
    expect(mail.subject).toContain(row.reference);
    expect(oldTime.subject).toContain(row.reference);
    expect(mail.text).toContain("11:30 to 12:00");
    expect(mail.text).toContain("10:00 to 10:30");
    expect(oldTime.text).toContain("10:00 to 10:30");
    expect(mail.text).toContain(`/my-bookings/${row.reference}`);
    for (const secret of consentFormSecrets) expect(JSON.stringify(mails)).not.toContain(secret);
    expect(mail.attachments).toHaveLength(1);
    expect(oldTime.attachments).toHaveLength(1);
    const [added, removed] = [mail, oldTime].map((message) =>
      unfolded(message.attachments![0]!.content),
    );
    // 11:30 on 10 June in London (summer time) is 10:30 UTC; 10:00 is 09:00 UTC.
    expect(added).toContain("METHOD:PUBLISH");
    expect(added).toContain(`UID:${row.reference}-2@`);
    expect(added).toContain("DTSTART:20260610T103000Z");
    expect(removed).toContain("METHOD:CANCEL");
    expect(removed).toContain("STATUS:CANCELLED");
    expect(removed).toMatch(new RegExp(`UID:${row.reference}@`));
    expect(removed).toContain("DTSTART:20260610T090000Z");
    expect(oldTime.attachments![0]!.contentType).toContain("method=CANCEL");

    expect(offerFreedPlaces).toHaveBeenCalledTimes(1);
    expect(vi.mocked(offerFreedPlaces).mock.calls[0]![1]).toMatchObject({ id: ev.id });
  });

  it("moves to another event of the same product and price, and the consent's test date with it", async () => {
    const { product, ev, patient, row, consentId } = await paidBooking();
    const other = await insertEvent(db(), product.id, {
      paymentRequired: true,
      eventDate: "2026-06-17",
      name: "Other Screening",
    });

    const result = await changeOwnBooking(
      db(),
      { userId: patient.id, reference: row.reference, eventId: other.id, slotTime: "10:30" },
      NOW,
    );

    expect(result.ok).toBe(true);
    expect(await bookingRow(row.id)).toMatchObject({
      eventId: other.id,
      slotTime: "10:30",
      paymentStatus: "paid",
      calendarVersion: 1,
    });
    const [kept] = await db().select().from(consent).where(eq(consent.bookingId, row.id));
    expect(kept).toMatchObject({ id: consentId, testDate: "2026-06-17" });
    expect((await placesTaken(db(), ev.id, NOW)).taken).toBe(0);
    expect((await placesTaken(db(), other.id, NOW)).perSlot.get("10:30")).toBe(1);
    const mails = await mailsTo(patient.email);
    const mail = mails.find((message) => message.subject.includes("has a new time"))!;
    const oldTime = mails.find((message) => message.subject.includes("old"))!;
    expect(mail.text).toContain("Other Screening");
    expect(mail.text).toContain("Wednesday, 17 June 2026");
    // The new day's own deadlines (the refund's moved with it): three working days must be left
    // before Wednesday 17 June for a refund, two to change the time online.
    expect(mail.text).toContain(
      "Cancel by the end of Thursday, 11 June 2026 and you get back the £25.00 you paid.",
    );
    expect(mail.text).toContain(
      "You can change the time online until the end of Sunday, 14 June 2026.",
    );
    const [added, removed] = [mail, oldTime].map((message) =>
      unfolded(message.attachments![0]!.content),
    );
    expect(added).toContain("DTSTART:20260617T093000Z");
    expect(removed).toContain("DTSTART:20260610T090000Z");
  });

  it("changes a second time under a third calendar UID, cancelling the second", async () => {
    const { ev, patient, row } = await paidBooking();
    const input = { userId: patient.id, reference: row.reference, eventId: ev.id };
    expect((await changeOwnBooking(db(), { ...input, slotTime: "10:30" }, NOW)).ok).toBe(true);
    expect((await changeOwnBooking(db(), { ...input, slotTime: "11:00" }, NOW)).ok).toBe(true);
    const mails = await mailsTo(patient.email);
    const calendars = mails.flatMap((mail) =>
      mail.attachments!.map((file) => unfolded(file.content)),
    );
    const added = calendars.find((ics) => ics.includes("METHOD:PUBLISH") && ics.includes("-3@"))!;
    const removed = calendars.find((ics) => ics.includes("METHOD:CANCEL") && ics.includes("-2@"))!;
    expect(added).toContain(`UID:${row.reference}-3@`);
    expect(removed).toContain(`UID:${row.reference}-2@`);
    expect((await bookingRow(row.id)).calendarVersion).toBe(2);
  });

  it("answers a second press of the same change with same-time, even once the new time is too near to change", async () => {
    const setup = await paidBooking();
    // Tuesday 2 June: open to booking on Monday 1 June, but too near for a change of its own.
    const sooner = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      eventDate: "2026-06-02",
    });
    const press = () =>
      changeOwnBooking(
        db(),
        {
          userId: setup.patient.id,
          reference: setup.row.reference,
          eventId: sooner.id,
          slotTime: "11:00",
        },
        NOW,
      );

    expect((await press()).ok).toBe(true);
    expect(await press()).toEqual({ ok: false, reason: "same-time" });
    expect(await mailsTo(setup.patient.email)).toHaveLength(2);

    // Once cancelled, the same press is refused for what the booking is, not taken as done.
    await db()
      .update(booking)
      .set({ status: "cancelled", cancelledAt: NOW })
      .where(eq(booking.id, setup.row.id));
    const afterCancel = await press();
    expect(afterCancel.ok).toBe(false);
    expect(afterCancel).not.toEqual({ ok: false, reason: "same-time" });
  });

  it("answers not-found for another person's booking and for an unknown reference, changing nothing", async () => {
    const { ev, row } = await paidBooking();
    const stranger = await insertPatient(db());
    for (const reference of [row.reference, "MHAT-ZZZZ-ZZZZ", "not a reference"]) {
      expect(
        await changeOwnBooking(
          db(),
          { userId: stranger.id, reference, eventId: ev.id, slotTime: "11:00" },
          NOW,
        ),
      ).toEqual({ ok: false, reason: "not-found" });
    }
    expect(await bookingRow(row.id)).toMatchObject({ slotTime: "10:00", calendarVersion: 0 });
    expect(await changePage(db(), { userId: stranger.id, reference: row.reference }, NOW)).toBe(
      null,
    );
  });

  it("lets a lapsed hold of his at the chosen event go, as a new hold would", async () => {
    const { product, patient, row } = await paidBooking();
    const other = await insertEvent(db(), product.id, { paymentRequired: true });
    const lapsed = await insertBooking(db(), {
      eventId: other.id,
      userId: patient.id,
      status: "held",
      holdExpiresAt: new Date(NOW.getTime() - 60_000),
      pricePence: 2500,
      paymentRequired: true,
      paymentStatus: "unpaid",
    });
    const result = await changeOwnBooking(
      db(),
      { userId: patient.id, reference: row.reference, eventId: other.id, slotTime: "11:00" },
      NOW,
    );
    expect(result.ok).toBe(true);
    expect((await bookingRow(lapsed.id)).status).toBe("expired");
  });
});

describe("what changing refuses", () => {
  /** Asks for the change and checks that nothing moved and no mail was queued. */
  async function refused(
    setup: Awaited<ReturnType<typeof paidBooking>>,
    target: { eventId?: string; slotTime: string },
    now = NOW,
  ) {
    const before = await bookingRow(setup.row.id);
    const result = await changeOwnBooking(
      db(),
      {
        userId: setup.patient.id,
        reference: setup.row.reference,
        eventId: target.eventId ?? setup.ev.id,
        slotTime: target.slotTime,
      },
      now,
    );
    expect(await bookingRow(setup.row.id)).toEqual(before);
    expect(await mailsTo(setup.patient.email)).toEqual([]);
    return result.ok ? "changed" : result.reason;
  }

  it("refuses a booking that is not confirmed and waiting for its day", async () => {
    const held = await paidBooking();
    await db()
      .update(booking)
      .set({ status: "held", holdExpiresAt: new Date(NOW.getTime() + 600_000) })
      .where(eq(booking.id, held.row.id));
    expect(await refused(held, { slotTime: "11:00" })).toBe("not-changeable");

    const cancelled = await paidBooking();
    await db()
      .update(booking)
      .set({ status: "cancelled", cancelledAt: NOW })
      .where(eq(booking.id, cancelled.row.id));
    expect(await refused(cancelled, { slotTime: "11:00" })).toBe("not-changeable");

    const arrived = await paidBooking();
    await db().update(booking).set({ arrivedAt: NOW }).where(eq(booking.id, arrived.row.id));
    expect(await refused(arrived, { slotTime: "11:00" })).toBe("not-changeable");
  });

  it("refuses once a sample is taken or a result exists", async () => {
    const sampled = await paidBooking();
    await db()
      .update(booking)
      .set({ sampleId: `S-${crypto.randomUUID().slice(0, 8)}`, sampleTakenAt: NOW })
      .where(eq(booking.id, sampled.row.id));
    expect(await refused(sampled, { slotTime: "11:00" })).toBe("sample-taken");

    const withResult = await paidBooking();
    await insertResult(db(), withResult.row.id, { releasedAt: null });
    expect(
      await db().select().from(testResult).where(eq(testResult.bookingId, withResult.row.id)),
    ).toHaveLength(1);
    expect(await refused(withResult, { slotTime: "11:00" })).toBe("sample-taken");
  });

  it("refuses once the appointment has started", async () => {
    const setup = await paidBooking();
    // 10:05 in London on the day (09:05 UTC).
    expect(await refused(setup, { slotTime: "11:00" }, new Date("2026-06-10T09:05:00Z"))).toBe(
      "started",
    );
  });

  it("refuses within 48 hours, and with fewer than 2 business days' notice even further ahead", async () => {
    // Wednesday 10 June 10:00: Monday 8 June 11:00 is 47 hours before.
    const within48 = await paidBooking();
    expect(await refused(within48, { slotTime: "11:00" }, new Date("2026-06-08T10:00:00Z"))).toBe(
      "too-late",
    );
    // Monday 15 June 10:00: Thursday 11 June 10:00 is 96 hours before, but only Friday lies
    // between as a business day.
    const mondayBooking = await paidBooking({ eventDate: "2026-06-15" });
    expect(
      await refused(mondayBooking, { slotTime: "11:00" }, new Date("2026-06-11T09:00:00Z")),
    ).toBe("too-late");
    // On the Wednesday before, both Thursday and Friday lie between: still free to change.
    const result = await changeOwnBooking(
      db(),
      {
        userId: mondayBooking.patient.id,
        reference: mondayBooking.row.reference,
        eventId: mondayBooking.ev.id,
        slotTime: "11:00",
      },
      new Date("2026-06-10T20:00:00Z"),
    );
    expect(result.ok).toBe(true);
  });

  it("refuses an event that is not published, unknown, or private and not unlocked by him", async () => {
    const setup = await paidBooking();
    const draft = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      status: "draft",
    });
    expect(await refused(setup, { eventId: draft.id, slotTime: "11:00" })).toBe("event-not-found");
    expect(await refused(setup, { eventId: crypto.randomUUID(), slotTime: "11:00" })).toBe(
      "event-not-found",
    );
    expect(await refused(setup, { eventId: "not-an-id", slotTime: "11:00" })).toBe(
      "event-not-found",
    );
    const hidden = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      isPublic: false,
    });
    expect(await refused(setup, { eventId: hidden.id, slotTime: "11:00" })).toBe("locked");
  });

  it("moves to a private event he has unlocked with its code", async () => {
    const setup = await paidBooking();
    const hidden = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      isPublic: false,
    });
    const [code] = await db()
      .insert(eventAccessCode)
      .values({ eventId: hidden.id, codeHash: "not-a-real-hash" })
      .returning();
    await db()
      .insert(eventUnlock)
      .values({ eventId: hidden.id, userId: setup.patient.id, accessCodeId: code!.id });
    const result = await changeOwnBooking(
      db(),
      {
        userId: setup.patient.id,
        reference: setup.row.reference,
        eventId: hidden.id,
        slotTime: "11:00",
      },
      NOW,
    );
    expect(result.ok).toBe(true);
  });

  it("refuses another product, another price or another payment requirement (the helpline moves those)", async () => {
    const setup = await paidBooking();
    const otherProduct = await insertProduct(db(), 2500);
    const samePriceOtherProduct = await insertEvent(db(), otherProduct.id, {
      paymentRequired: true,
    });
    const dearer = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      pricePence: 3000,
    });
    const free = await insertEvent(db(), setup.product.id, { paymentRequired: false });
    for (const target of [samePriceOtherProduct, dearer, free])
      expect(await refused(setup, { eventId: target.id, slotTime: "11:00" })).toBe(
        "different-terms",
      );
  });

  it("keeps, at his own event, the terms he booked on: a new price, a lab that needs an NHS number or a private event does not stop a move to another time", async () => {
    const setup = await paidBooking();
    // After he booked at £25.00: the product's price goes up (his event follows the product's),
    // the event moves to a laboratory that needs the NHS number he has not given, and it becomes
    // private, with no code unlocked by him.
    await db()
      .update(screeningProduct)
      .set({ pricePence: 3000 })
      .where(eq(screeningProduct.id, setup.product.id));
    await db()
      .update(event)
      .set({ labName: "ESNEFT", isPublic: false })
      .where(eq(event.id, setup.ev.id));

    const page = await changePage(
      db(),
      { userId: setup.patient.id, reference: setup.row.reference },
      NOW,
    );
    expect(page!.events.map((option) => [option.id, option.availableTimes])).toEqual([
      [setup.ev.id, 3],
    ]);

    const result = await changeOwnBooking(
      db(),
      {
        userId: setup.patient.id,
        reference: setup.row.reference,
        eventId: setup.ev.id,
        slotTime: "11:30",
      },
      NOW,
    );
    expect(result.ok).toBe(true);
    expect(await bookingRow(setup.row.id)).toMatchObject({
      eventId: setup.ev.id,
      slotTime: "11:30",
      pricePence: 2500,
      paymentStatus: "paid",
    });
  });

  it("refuses an event he already has a booking at", async () => {
    const setup = await paidBooking();
    const other = await insertEvent(db(), setup.product.id, { paymentRequired: true });
    await insertBooking(db(), {
      eventId: other.id,
      userId: setup.patient.id,
      pricePence: 2500,
      paymentRequired: true,
      paymentStatus: "paid",
    });
    expect(await refused(setup, { eventId: other.id, slotTime: "11:00" })).toBe("already-booked");
  });

  it("refuses an event he is not eligible for on its day", async () => {
    const setup = await paidBooking();
    // The ESNEFT laboratory needs an NHS number, which this patient has not given.
    const esneft = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      labName: "ESNEFT",
    });
    expect(await refused(setup, { eventId: esneft.id, slotTime: "11:00" })).toBe("not-eligible");
  });

  it("refuses a full or closed event, and a time that is taken, passed or not one of the event's", async () => {
    const setup = await paidBooking();
    const full = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      totalSpaces: 2,
    });
    await insertConfirmedBookings(db(), full.id, 2, "10:30");
    expect(await refused(setup, { eventId: full.id, slotTime: "11:00" })).toBe("event-unavailable");
    // Ends 20 hours from NOW: closed by the 24-hour rule.
    const closing = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      eventDate: "2026-06-02",
      startTime: "04:00",
      endTime: "06:00",
    });
    expect(await refused(setup, { eventId: closing.id, slotTime: "04:30" })).toBe(
      "event-unavailable",
    );
    await insertConfirmedBookings(db(), setup.ev.id, 2, "11:00");
    expect(await refused(setup, { slotTime: "11:00" })).toBe("slot-unavailable");
    expect(await refused(setup, { slotTime: "10:15" })).toBe("slot-unavailable");
    expect(await refused(setup, { slotTime: "12:00" })).toBe("slot-unavailable");
    expect(await refused(setup, { slotTime: "ten" })).toBe("slot-unavailable");
    expect(await refused(setup, { slotTime: "10:00" })).toBe("same-time");
  });
});

describe("the change page's choices", () => {
  it("offers his own event first, then only open events of the same product, price and payment with a free time", async () => {
    const setup = await paidBooking();
    const { product, patient } = setup;
    const later = await insertEvent(db(), product.id, {
      paymentRequired: true,
      eventDate: "2026-06-20",
      name: "Later Screening",
    });
    const sooner = await insertEvent(db(), product.id, {
      paymentRequired: true,
      eventDate: "2026-06-05",
      name: "Sooner Screening",
    });
    await insertEvent(db(), product.id, { paymentRequired: true, pricePence: 9900 });
    await insertEvent(db(), product.id, { paymentRequired: true, isPublic: false });
    await insertEvent(db(), product.id, { paymentRequired: true, status: "draft" });
    const full = await insertEvent(db(), product.id, { paymentRequired: true, totalSpaces: 1 });
    await insertConfirmedBookings(db(), full.id, 1);
    const bookedThere = await insertEvent(db(), product.id, { paymentRequired: true });
    await insertBooking(db(), {
      eventId: bookedThere.id,
      userId: patient.id,
      pricePence: 2500,
      paymentRequired: true,
      paymentStatus: "paid",
    });
    await insertEvent(db(), product.id, { paymentRequired: true, eventDate: "2026-05-20" });

    const page = await changePage(
      db(),
      { userId: patient.id, reference: setup.row.reference },
      NOW,
    );

    expect(page!.refusal).toBeNull();
    expect(page!.events.map((option) => option.id)).toEqual([setup.ev.id, sooner.id, later.id]);
    expect(page!.events[0]!.current).toBe(true);
    // His own time is not counted as free: three of the four.
    expect(page!.events[0]!.availableTimes).toBe(3);
    expect(page!.chosen!.id).toBe(setup.ev.id);
    expect(page!.times.map((choice) => choice.time)).toEqual(["10:00", "10:30", "11:00", "11:30"]);
    // For Wednesday 10 June two business days (Monday and Tuesday) must lie between: free to
    // change until the end of Sunday 7 June in London, sooner than 48 hours before.
    expect(page!.until!.toISOString()).toBe("2026-06-07T23:00:00.000Z");

    const other = await changePage(
      db(),
      { userId: patient.id, reference: setup.row.reference, eventId: later.id },
      NOW,
    );
    expect(other!.chosen!.id).toBe(later.id);
  });

  it("marks an event reserved for its host employer's staff, as its card in the finder does", async () => {
    const setup = await paidBooking();
    const corporate = await insertEvent(db(), setup.product.id, {
      paymentRequired: true,
      eventDate: "2026-06-20",
      name: "Works Screening",
      exclusiveFor: "CORPORATE",
    });
    const page = await changePage(
      db(),
      { userId: setup.patient.id, reference: setup.row.reference },
      NOW,
    );
    const marks = page!.events.map((option) => [option.id, option.corporateOnly]);
    expect(marks).toEqual([
      [setup.ev.id, false],
      [corporate.id, true],
    ]);
  });

  it("says why a booking cannot be changed, and offers nothing", async () => {
    const setup = await paidBooking();
    const page = await changePage(
      db(),
      { userId: setup.patient.id, reference: setup.row.reference },
      new Date("2026-06-09T09:00:00Z"),
    );
    expect(page).toMatchObject({ refusal: "too-late", events: [], chosen: null, times: [] });
    expect(
      await db()
        .select()
        .from(booking)
        .where(and(eq(booking.id, setup.row.id), eq(booking.slotTime, "10:00"))),
    ).toHaveLength(1);
  });
});
