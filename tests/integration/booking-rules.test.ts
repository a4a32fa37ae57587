import crypto from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { booking, event, eventAccessCode, outboxEmail, testResult, user } from "#app/db/schema";
import { cancelEvent, findEventForAdmin } from "#app/services/admin-events.server";
import {
  createAccessCode,
  readBrowserUnlocks,
  unlockPrivateEvent,
} from "#app/services/access-codes.server";
import { listAppointmentsAndResults } from "#app/services/booking/appointments.server";
import { capturePayment } from "#app/services/booking/capture.server";
import { startPayment } from "#app/services/booking/checkout.server";
import { submitConsent } from "#app/services/booking/consent.server";
import { bookingPage } from "#app/services/booking/page.server";
import { findEvent } from "#app/services/events.server";
import { setPaymentProvider } from "#app/services/payments/provider.server";
import { createSimulatedProvider } from "#app/services/payments/simulated.server";
import { signUpPatient } from "#app/services/sign-up.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  bookingAtCheckout,
  consentForm,
  insertBooking,
  insertFreeEvent,
  insertPaidEvent,
  insertPatient,
  insertStaff,
  nextClientAddress,
  requestHold,
  uniqueEmail,
} from "#tests/support/fixtures";

/**
 * The booking rules issue 14 found skipped: each test is named after its finding, and each
 * calls the service the pages and the API share, so no way in can skip the rule.
 */

const database = testDatabaseForThisFile();
beforeAll(() => {
  setPaymentProvider(createSimulatedProvider());
});
afterAll(() => {
  setPaymentProvider(undefined);
});

/** Nine days before the fixture's event (10 June 2026, 10:00 to 12:00, 30-minute slots). */
const NOW = new Date("2026-06-01T09:00:00Z");
const HOLD_MINUTES = 15;
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

const person = () => insertPatient(database.db);
const paidEvent = (overrides: Parameters<typeof insertPaidEvent>[1] = {}) =>
  insertPaidEvent(database.db, overrides);
const freeEvent = (overrides: Parameters<typeof insertFreeEvent>[1] = {}) =>
  insertFreeEvent(database.db, overrides);

/** The events at which this person holds a place now (held, or paying). */
async function liveHoldsOf(userId: string) {
  const rows = await database.db
    .select({ eventId: booking.eventId })
    .from(booking)
    .where(and(eq(booking.userId, userId), inArray(booking.status, ["held", "awaiting_payment"])));
  return rows.map((row) => row.eventId);
}

/** A Green result (retest in two years) for a sample of 2 June 2026, released on 3 June. */
async function insertReleasedResult(bookingId: string, psaValue: string) {
  await database.db.insert(testResult).values({
    bookingId,
    psaValue,
    flag: "green",
    retestYears: 2,
    sampleDate: "2026-06-02",
    releasedAt: at(3000),
  });
}

async function bookingRow(reference: string) {
  const [row] = await database.db.select().from(booking).where(eq(booking.reference, reference));
  return row!;
}

/** Asks for a place, from an address of its own unless told. */
const hold = (
  eventId: string,
  userId: string,
  slotTime = "10:00",
  now = NOW,
  clientAddress = nextClientAddress(),
) => requestHold(database.db, { eventId, userId, slotTime, clientAddress }, now);

/** A coordinator, as the back-office services are given one. */
async function coordinator() {
  return (await insertStaff(database.db, ["coordinator"])).actor;
}

describe("private event bypass (finding 1)", () => {
  async function privateEvent() {
    const ev = await freeEvent({ isPublic: false });
    await createAccessCode(database.db, { eventId: ev.id, code: "LODGE-RULES" });
    return ev;
  }

  it("refuses a hold on a private event by someone who never gave its access code", async () => {
    const { db } = database;
    const ev = await privateEvent();
    const patient = await person();
    const result = await hold(ev.id, patient.id);
    expect(result).toMatchObject({ ok: false, reason: "locked" });
    const rows = await db.select().from(booking).where(eq(booking.userId, patient.id));
    expect(rows).toEqual([]);
  });

  it("allows the hold once this person has unlocked the event with its code, on the server", async () => {
    const { db } = database;
    const ev = await privateEvent();
    const patient = await person();
    const unlocked = await unlockPrivateEvent(db, new Request("http://localhost/"), {
      eventId: ev.id,
      code: " lodge-rules ",
      clientAddress: nextClientAddress(),
      userId: patient.id,
    });
    expect(unlocked.status).toBe(200);
    const result = await hold(ev.id, patient.id);
    expect(result.ok).toBe(true);
  });

  it("does not let one person's unlock open the event for another", async () => {
    const { db } = database;
    const ev = await privateEvent();
    const [first, second] = [await person(), await person()];
    await unlockPrivateEvent(db, new Request("http://localhost/"), {
      eventId: ev.id,
      code: "LODGE-RULES",
      clientAddress: nextClientAddress(),
      userId: first.id,
    });
    expect(await hold(ev.id, second.id)).toMatchObject({ ok: false, reason: "locked" });
  });
});

describe("hold renewal (finding 2)", () => {
  it("does not extend a hold when the same time is posted again", async () => {
    const ev = await paidEvent();
    const patient = await person();
    const first = await hold(ev.id, patient.id, "10:00", NOW);
    expect(first.ok).toBe(true);
    const again = await hold(ev.id, patient.id, "10:00", at(10));
    expect(again.ok).toBe(true);
    const row = await bookingRow(first.ok ? first.booking.reference : "");
    expect(row.holdExpiresAt!.toISOString()).toBe(at(HOLD_MINUTES).toISOString());
  });

  it("keeps the hold's end when moving to another time", async () => {
    const ev = await paidEvent();
    const patient = await person();
    const first = await hold(ev.id, patient.id, "10:00", NOW);
    const moved = await hold(ev.id, patient.id, "10:30", at(5));
    expect(moved).toMatchObject({ ok: true, booking: { slotTime: "10:30" } });
    const row = await bookingRow(first.ok ? first.booking.reference : "");
    expect(row.holdExpiresAt!.toISOString()).toBe(at(HOLD_MINUTES).toISOString());
  });

  it("caps a hold's whole life at twice HOLD_MINUTES, through consent and payment", async () => {
    const { db } = database;
    const ev = await paidEvent();
    const patient = await person();
    const held = await hold(ev.id, patient.id, "10:00", NOW);
    const reference = held.ok ? held.booking.reference : "";
    expect(
      await submitConsent(db, { userId: patient.id, reference, form: consentForm }, at(14)),
    ).toEqual({ next: "checkout", reference });
    const afterConsent = await bookingRow(reference);
    expect(afterConsent.holdExpiresAt!.getTime()).toBeLessThanOrEqual(
      at(2 * HOLD_MINUTES).getTime(),
    );
    // Past the cap, the payment page cannot renew it: the person chooses a time again.
    const late = await startPayment(
      db,
      {
        userId: patient.id,
        reference,
        returnUrl: "http://localhost/r",
        cancelUrl: "http://localhost/c",
      },
      at(2 * HOLD_MINUTES + 1),
    );
    expect(late).toEqual({ outcome: "expired", reference });
  });
});

describe("one live hold per person (finding 2)", () => {
  it("lets go of a person's earlier hold at another event when they hold a new one", async () => {
    const { db } = database;
    const [first, second] = [await paidEvent(), await paidEvent()];
    const patient = await person();
    const a = await hold(first.id, patient.id);
    const b = await hold(second.id, patient.id);
    expect(a.ok && b.ok).toBe(true);
    const live = await liveHoldsOf(patient.id);
    expect(live).toEqual([second.id]);
    const firstView = await findEvent(db, first.id, NOW);
    expect(firstView!.booked_spaces).toBe(0);
  });

  it("refuses a new hold while the person is paying for another event", async () => {
    const { db } = database;
    const [first, second] = [await paidEvent(), await paidEvent()];
    const patient = await person();
    const a = await hold(first.id, patient.id);
    const reference = a.ok ? a.booking.reference : "";
    await submitConsent(db, { userId: patient.id, reference, form: consentForm }, at(1));
    const started = await startPayment(
      db,
      {
        userId: patient.id,
        reference,
        returnUrl: "http://localhost/r",
        cancelUrl: "http://localhost/c",
      },
      at(2),
    );
    expect(started.outcome).toBe("redirect");
    expect(await hold(second.id, patient.id, "10:00", at(3))).toEqual({
      ok: false,
      reason: "paying-elsewhere",
      reference,
      // At checkout, not yet with PayPal: he can finish it.
      checking: false,
    });
  });

  // PGlite has one connection, so there the two holds take turns and cannot race: this passed on
  // PGlite without the person's row lock. On PostgreSQL (CI runs this file there too) each runs on
  // its own connection; a few rounds, since one pair does not always meet.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "gives two holds at once by one person at two events at most one place (PostgreSQL only)",
    async () => {
      for (let round = 0; round < 5; round++) {
        const [first, second] = [await paidEvent(), await paidEvent()];
        const patient = await person();
        await Promise.all([hold(first.id, patient.id), hold(second.id, patient.id)]);
        const live = await liveHoldsOf(patient.id);
        expect(live).toHaveLength(1);
      }
    },
  );
});

describe("new holds per client address (finding 2)", () => {
  it("limits new holds from one address, and leaves other addresses alone", async () => {
    const address = "198.51.100.77";
    const limit = 20;
    const results = [];
    for (let n = 0; n < limit + 1; n++) {
      const ev = await paidEvent();
      results.push(await hold(ev.id, (await person()).id, "10:00", NOW, address));
    }
    expect(results.slice(0, limit).every((result) => result.ok)).toBe(true);
    expect(results[limit]).toMatchObject({ ok: false, reason: "too-many-holds" });
    const elsewhere = await hold(
      (await paidEvent()).id,
      (await person()).id,
      "10:00",
      NOW,
      "198.51.100.78",
    );
    expect(elsewhere.ok).toBe(true);
  });
});

describe("a cancelled event keeping a released result (finding 11)", () => {
  it("leaves a booking whose sample was taken, and its released result, when the event is cancelled", async () => {
    const { db } = database;
    const ev = await freeEvent({ eventDate: "2026-06-02" });
    const [tested, untested] = [await person(), await person()];
    const bookTested = await hold(ev.id, tested.id, "10:00");
    const bookUntested = await hold(ev.id, untested.id, "10:30");
    const refTested = bookTested.ok ? bookTested.booking.reference : "";
    const refUntested = bookUntested.ok ? bookUntested.booking.reference : "";
    await submitConsent(db, { userId: tested.id, reference: refTested, form: consentForm }, at(1));
    await submitConsent(
      db,
      { userId: untested.id, reference: refUntested, form: consentForm },
      at(1),
    );
    const testedRow = await bookingRow(refTested);
    await db
      .update(booking)
      .set({ arrivedAt: at(1500), sampleTakenAt: at(1501), sampleId: `S-${crypto.randomUUID()}` })
      .where(eq(booking.id, testedRow.id));
    await insertReleasedResult(testedRow.id, "1.10");

    // The confirmation before it counts what will be cancelled and what stays.
    const before = await findEventForAdmin(db, ev.id, at(60));
    expect(before).toMatchObject({ activeBookings: 2, keptOnCancel: { bookings: 1, paid: 0 } });

    const result = await cancelEvent(db, await coordinator(), ev.id, at(60));
    expect(result).toMatchObject({ ok: true, bookingsCancelled: 1, bookingsKept: 1 });
    expect((await bookingRow(refTested)).status).toBe("confirmed");
    expect((await bookingRow(refUntested)).status).toBe("cancelled");
    const appointments = await listAppointmentsAndResults(db, tested.id, at(4000));
    expect(appointments.map((row) => [row.reference, row.result?.flag])).toEqual([
      [refTested, "green"],
    ]);
  });
});

describe("booked counts come from bookings (finding 12)", () => {
  it("counts confirmed bookings wherever they were written, with no stored counter to drift", async () => {
    const { db } = database;
    const ev = await freeEvent();
    for (const slotTime of ["10:00", "10:00", "10:30"]) {
      const patient = await person();
      // Written as staff tools or a later feature might, without the booking service's counter.
      await insertBooking(db, { eventId: ev.id, userId: patient.id, slotTime, confirmedAt: NOW });
    }
    const view = await findEvent(db, ev.id, NOW);
    expect(view!.booked_spaces).toBe(3);
    expect(view!.spaces_left).toBe(ev.totalSpaces - 3);
  });
});

describe("sign-ups per client address (finding 2)", () => {
  const signUpFrom = (clientAddress: string, n: number) => {
    const email = uniqueEmail(`signup-${n}`);
    return signUpPatient(database.db, {
      profile: {
        firstName: "Herbert",
        lastName: `Signup${n}`,
        dateOfBirth: "1958-02-03",
        phone: "01632 960 200",
        homeAddressLine1: "3 Mill Lane",
        homePostcode: "CM1 2AB",
        homeCountry: "United Kingdom",
      },
      email,
      password: "correct horse battery",
      clientAddress,
      headers: new Headers({ origin: "http://localhost:3000" }),
    });
  };

  it("limits new accounts from one address to ten an hour, and leaves other addresses alone", async () => {
    const address = "192.0.2.44";
    for (let n = 0; n < 10; n++) expect((await signUpFrom(address, n)).outcome).toBe("done");
    const refused = await signUpFrom(address, 10);
    expect(refused).toMatchObject({ outcome: "too-many" });
    expect(refused.outcome === "too-many" && refused.retryAfterSeconds).toBeGreaterThan(0);
    expect((await signUpFrom("192.0.2.45", 11)).outcome).toBe("done");
  });

  it("makes one account when 'Create account' is pressed twice at once, and answers both as done", async () => {
    const email = uniqueEmail("double-press");
    const press = () =>
      signUpPatient(database.db, {
        profile: {
          firstName: "Dennis",
          lastName: "Twice",
          dateOfBirth: "1958-02-03",
          phone: "01632 960 201",
          homeAddressLine1: "4 Mill Lane",
          homePostcode: "CM1 2AB",
          homeCountry: "United Kingdom",
        },
        email,
        password: "correct horse battery",
        clientAddress: "192.0.2.60",
        headers: new Headers({ origin: "http://localhost:3000" }),
      });

    const outcomes = await Promise.all([press(), press()]);

    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(["done", "done"]);
    expect(await database.db.select().from(user).where(eq(user.email, email))).toHaveLength(1);
  });

  it("tells no one 'someone tried to register' after a second press a moment later; later, it does", async () => {
    const { db } = database;
    const email = uniqueEmail("second-press");
    const press = () =>
      signUpPatient(db, {
        profile: {
          firstName: "Ernest",
          lastName: "Again",
          dateOfBirth: "1951-05-06",
          phone: "01632 960 202",
          homeAddressLine1: "5 Mill Lane",
          homePostcode: "CM1 2AB",
          homeCountry: "United Kingdom",
        },
        email,
        password: "correct horse battery",
        clientAddress: "192.0.2.61",
        headers: new Headers({ origin: "http://localhost:3000" }),
      });
    const notices = async () =>
      (await db.select().from(outboxEmail).where(eq(outboxEmail.to, email))).filter((mail) =>
        mail.subject.startsWith("Someone tried to register"),
      );

    expect((await press()).outcome).toBe("done");
    expect((await press()).outcome).toBe("done");
    expect(await notices()).toEqual([]);
    // An hour on, a sign-up with his address is news to him.
    await db
      .update(user)
      .set({ createdAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(user.email, email));
    expect((await press()).outcome).toBe("done");
    expect(await notices()).toHaveLength(1);
  });
});

describe("holds that end stay ended (review of finding 2)", () => {
  it("cannot keep a hold alive by asking again and again to capture an order nobody approved", async () => {
    const { db } = database;
    const ev = await paidEvent();
    const patient = await person();
    const { reference, orderId } = await bookingAtCheckout(
      db,
      { eventId: ev.id, userId: patient.id },
      NOW,
    );
    for (const minute of [18, 34, 50]) {
      const answer = await capturePayment(db, { userId: patient.id, orderId }, at(minute));
      expect(answer.outcome).not.toBe("confirmed");
    }
    const row = await bookingRow(reference);
    expect(row.status).toBe("expired");
    expect(row.holdExpiresAt!.getTime()).toBeLessThanOrEqual(at(2 * HOLD_MINUTES).getTime());
  });

  it("does not bring back a hold that ran out elsewhere while the person holds another place", async () => {
    const { db } = database;
    const [first, second] = [await paidEvent(), await paidEvent()];
    const patient = await person();
    const a = await hold(first.id, patient.id, "10:00", NOW);
    // A's hold ran out at 15 and the worker has not tidied it; the person holds B at 16.
    const b = await hold(second.id, patient.id, "10:00", at(16));
    expect(b.ok).toBe(true);
    const reference = a.ok ? a.booking.reference : "";
    expect(
      await submitConsent(db, { userId: patient.id, reference, form: consentForm }, at(17)),
    ).toEqual({ next: "expired", reference });
    const live = await liveHoldsOf(patient.id);
    expect(live).toEqual([second.id]);
  });

  it("changes nothing when a hold is refused: the person's hold elsewhere stays", async () => {
    const [first, second] = [await paidEvent(), await paidEvent()];
    const patient = await person();
    const address = "198.51.100.201";
    const a = await hold(first.id, patient.id, "10:00", NOW, address);
    // Everyone else behind this address has used up its new holds for the hour.
    for (let n = 0; n < 20; n++)
      await hold((await paidEvent()).id, (await person()).id, "10:00", at(1), address);
    expect(await hold(second.id, patient.id, "10:00", at(2), address)).toMatchObject({
      ok: false,
      reason: "too-many-holds",
    });
    expect((await bookingRow(a.ok ? a.booking.reference : "")).status).toBe("held");
  });

  it("does not bring back a lapsed hold on an event since unpublished, or whose code was revoked", async () => {
    const { db } = database;
    const draftLater = await freeEvent();
    const first = await person();
    const a = await hold(draftLater.id, first.id, "10:00", NOW);
    await db.update(event).set({ status: "draft" }).where(eq(event.id, draftLater.id));
    const refA = a.ok ? a.booking.reference : "";
    expect(
      await submitConsent(db, { userId: first.id, reference: refA, form: consentForm }, at(16)),
    ).toEqual({ next: "expired", reference: refA });

    const lodge = await freeEvent({ isPublic: false });
    const code = await createAccessCode(db, { eventId: lodge.id, code: "REVOKE-LATER" });
    const second = await person();
    await unlockPrivateEvent(db, new Request("http://localhost/"), {
      eventId: lodge.id,
      code: "REVOKE-LATER",
      clientAddress: nextClientAddress(),
      userId: second.id,
    });
    const b = await hold(lodge.id, second.id, "10:00", NOW);
    await db
      .update(eventAccessCode)
      .set({ revokedAt: at(5) })
      .where(eq(eventAccessCode.id, code.id));
    const refB = b.ok ? b.booking.reference : "";
    expect(
      await submitConsent(db, { userId: second.id, reference: refB, form: consentForm }, at(16)),
    ).toEqual({ next: "expired", reference: refB });
  });
});

describe("a code's uses (review of finding 1)", () => {
  it("opens an event for as many accounts as the code has uses, however its cookie is passed around", async () => {
    const { db } = database;
    const ev = await freeEvent({ isPublic: false });
    await createAccessCode(db, { eventId: ev.id, code: "ONE-USE", maxUses: 1 });
    // Given before signing in: the browser remembers it, and no use is counted yet.
    const anonymous = await unlockPrivateEvent(db, new Request("http://localhost/"), {
      eventId: ev.id,
      code: "one-use",
      clientAddress: nextClientAddress(),
    });
    expect(anonymous.status).toBe(200);
    const cookie = anonymous.status === 200 ? anonymous.setCookie.split(";")[0]! : "";
    const browser = new Request("http://localhost/", { headers: { Cookie: cookie } });
    const [first, second] = [await person(), await person()];
    for (const who of [first, second])
      await bookingPage(db, {
        userId: who.id,
        eventId: ev.id,
        browserUnlocks: await readBrowserUnlocks(browser),
      });
    expect((await hold(ev.id, first.id)).ok).toBe(true);
    expect(await hold(ev.id, second.id)).toMatchObject({ ok: false, reason: "locked" });
    const [row] = await db
      .select({ uses: eventAccessCode.uses })
      .from(eventAccessCode)
      .where(eq(eventAccessCode.eventId, ev.id));
    expect(row!.uses).toBe(1);
  });
});

describe("results are never lost with their booking (review of finding 11)", () => {
  it("still shows a released result whose booking a cancellation cancelled before this rule", async () => {
    const { db } = database;
    const ev = await freeEvent({ eventDate: "2026-06-02" });
    const patient = await person();
    const held = await hold(ev.id, patient.id, "10:00");
    const reference = held.ok ? held.booking.reference : "";
    await submitConsent(db, { userId: patient.id, reference, form: consentForm }, at(1));
    const row = await bookingRow(reference);
    // As the old cancellation left it: the booking cancelled, its released result still there.
    await db
      .update(booking)
      .set({ status: "cancelled", cancelledAt: at(3100) })
      .where(eq(booking.id, row.id));
    await insertReleasedResult(row.id, "0.90");
    const shown = await listAppointmentsAndResults(db, patient.id, at(4000));
    expect(shown.map((entry) => [entry.reference, entry.result?.flag])).toEqual([
      [reference, "green"],
    ]);
  });

  it("counts as cancelled only bookings that held a place; a hold that had run out just expires", async () => {
    const { db } = database;
    const ev = await freeEvent();
    const [booked, lapsed] = [await person(), await person()];
    const a = await hold(ev.id, booked.id, "10:00", NOW);
    await submitConsent(
      db,
      { userId: booked.id, reference: a.ok ? a.booking.reference : "", form: consentForm },
      at(1),
    );
    const b = await hold(ev.id, lapsed.id, "10:30", NOW);
    const result = await cancelEvent(db, await coordinator(), ev.id, at(30));
    expect(result).toMatchObject({ ok: true, bookingsCancelled: 1, emailsQueued: 1 });
    expect((await bookingRow(b.ok ? b.booking.reference : "")).status).toBe("expired");
  });
});
