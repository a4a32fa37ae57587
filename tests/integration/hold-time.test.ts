import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { booking } from "#app/db/schema";
import { submitConsentKeepingAnswers } from "#app/services/booking/consent.server";
import { extendHold, moreTimeFor } from "#app/services/booking/hold.server";
import { findBookingForUser } from "#app/services/booking/view.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  consentForm,
  holdFor,
  insertConfirmedBookings,
  insertFreeEvent,
  insertPatient,
  nextClientAddress,
} from "#tests/support/fixtures";

/**
 * "I need more time" and a consent sent after the hold ended, through the services every way in
 * shares: the cap is the service's, and a lapsed hold is taken again only as a new hold would be.
 */

const database = testDatabaseForThisFile();

/** Nine days before the fixture's event (10 June 2026, 10:00 to 12:00, two places a time). */
const NOW = new Date("2026-06-01T09:00:00Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

async function heldAtTen() {
  const ev = await insertFreeEvent(database.db);
  const patient = await insertPatient(database.db);
  const held = await holdFor(database.db, { eventId: ev.id, userId: patient.id }, NOW);
  return { ev, patient, held };
}

const endOf = async (id: string) =>
  (await database.db.select().from(booking).where(eq(booking.id, id)))[0]!.holdExpiresAt;

describe("extendHold", () => {
  it("gives fifteen minutes from now, then stops at thirty from the first choice", async () => {
    const { patient, held } = await heldAtTen();
    const input = { userId: patient.id, reference: held.reference };
    expect(await extendHold(database.db, input, at(12))).toEqual({
      ok: true,
      holdExpiresAt: at(27),
    });
    expect(await extendHold(database.db, input, at(25))).toEqual({
      ok: true,
      holdExpiresAt: at(30),
    });
    expect(await extendHold(database.db, input, at(28))).toEqual({
      ok: false,
      reason: "capped",
      holdExpiresAt: at(30),
    });
    expect(await endOf(held.id)).toEqual(at(30));
  });

  it("gives nothing to a hold that has ended, or to somebody else", async () => {
    const { patient, held } = await heldAtTen();
    const stranger = await insertPatient(database.db);
    expect(
      await extendHold(database.db, { userId: stranger.id, reference: held.reference }, at(5)),
    ).toEqual({ ok: false, reason: "not-found" });
    expect(
      await extendHold(database.db, { userId: patient.id, reference: held.reference }, at(16)),
    ).toEqual({ ok: false, reason: "ended" });
    expect(await endOf(held.id)).toEqual(at(15));
  });
});

describe("moreTimeFor", () => {
  it("says what extendHold would do: give more time, not past the whole life, and not once a payment has started", async () => {
    const { patient, held } = await heldAtTen();
    const input = { userId: patient.id, reference: held.reference };
    const view = async (now: Date) => (await findBookingForUser(database.db, input, now))!;
    expect(moreTimeFor(await view(at(12)))).toBe("offered");
    expect(moreTimeFor(await view(at(16)))).toBe("ended");

    await database.db
      .update(booking)
      .set({ holdExpiresAt: at(30) })
      .where(eq(booking.id, held.id));
    expect(moreTimeFor(await view(at(28)))).toBe("capped");
    expect(await extendHold(database.db, input, at(28))).toMatchObject({ reason: "capped" });

    // Consented, with a PayPal order made: the payment has started.
    await database.db
      .update(booking)
      .set({ status: "awaiting_payment", paymentOrderId: "ORDER-STARTED", holdExpiresAt: at(15) })
      .where(eq(booking.id, held.id));
    expect(moreTimeFor(await view(at(12)))).toBe("paying");
    expect(await extendHold(database.db, input, at(12))).toEqual({ ok: false, reason: "paying" });
    expect(await endOf(held.id)).toEqual(at(15));
  });
});

describe("submitConsentKeepingAnswers", () => {
  it("books a time still free after the hold's whole life, as a new hold", async () => {
    const { patient, held } = await heldAtTen();
    const result = await submitConsentKeepingAnswers(
      database.db,
      {
        userId: patient.id,
        reference: held.reference,
        form: consentForm,
        clientAddress: nextClientAddress(),
      },
      at(45),
    );
    expect(result.next).toBe("confirmed");
  });

  it("asks only for a new time when the time has gone, and books the new one", async () => {
    const { ev, patient, held } = await heldAtTen();
    await insertConfirmedBookings(database.db, ev.id, 2, "10:00");
    const input = {
      userId: patient.id,
      reference: held.reference,
      form: consentForm,
      clientAddress: nextClientAddress(),
    };
    expect(await submitConsentKeepingAnswers(database.db, input, at(20))).toEqual({
      next: "choose-time",
      reference: held.reference,
      eventId: ev.id,
      slotTime: "10:00",
    });
    const again = await submitConsentKeepingAnswers(
      database.db,
      { ...input, slotTime: "10:30" },
      at(21),
    );
    expect(again.next).toBe("confirmed");
  });
});
