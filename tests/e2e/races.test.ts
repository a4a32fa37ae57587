import { describe, expect, inject, it } from "vitest";
import { insertFreeEvent, insertPaidEvent, londonDay } from "#tests/support/fixtures";
import { baseURL, query, serverDatabaseForThisFile } from "./support";
import { signedInPatient, signedInStaff } from "./staff-support";

const server = serverDatabaseForThisFile();

/**
 * The money and capacity rules under a crowd, through the real HTTP endpoints of the built server
 * on Postgres: the last place goes to one person, an order is captured once however many times
 * the browser (or a reload) asks, and a cancelled event refunds each payment once however many
 * times staff press the button at once.
 */

/** A published event of this file's own, a week ahead, with `places` places in one time. */
async function insertEvent(places: number, pricePence: number) {
  const values = {
    name: "Race Check Screening",
    eventDate: londonDay(7),
    startTime: "10:00",
    endTime: "10:30",
    sessionDuration: 30,
    totalSpaces: places,
    placesPerSlot: places,
  };
  const row =
    pricePence > 0
      ? await insertPaidEvent(server.db, values, pricePence)
      : await insertFreeEvent(server.db, values);
  return row.id;
}

/** A patient of this file's own, signed in: the session cookie header. */
async function signUp(): Promise<string> {
  const { jar } = await signedInPatient(server.db);
  return jar.header();
}

const postJson = (path: string, cookie: string, body: unknown = {}) =>
  fetch(`${baseURL()}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: baseURL(), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const fakePayPal = (path: string, init?: RequestInit) =>
  fetch(`${inject("fakePayPalUrl")}${path}`, { redirect: "manual", ...init });

async function payPalState() {
  return (await (await fakePayPal("/__fake/state")).json()) as {
    captures: { id: string }[];
    refunds: { captureId: string }[];
  };
}

describe("under a crowd, through the HTTP endpoints", () => {
  it("gives the last place to exactly one of 20 people asking at once", async () => {
    const eventId = await insertEvent(1, 0);
    const people: string[] = [];
    for (let n = 0; n < 20; n++) people.push(await signUp());
    const answers = await Promise.all(
      people.map((cookie) => postJson("/api/appointments", cookie, { eventId, slotTime: "10:00" })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const live = await query(
      "select id from booking where event_id = $1 and status in ('held', 'awaiting_payment', 'confirmed')",
      [eventId],
    );
    expect(live).toHaveLength(1);
  });

  it("captures an order once when asked ten times at once, then refunds it once when staff cancel five times at once", async () => {
    const eventId = await insertEvent(2, 2500);
    const cookie = await signUp();
    const held = await postJson("/api/appointments", cookie, { eventId, slotTime: "10:00" });
    expect(held.status).toBe(201);
    const { reference } = (await held.json()) as { reference: string };
    // Consent is given (the consent form's own tests cover it); on to payment.
    await query(
      "update booking set status = 'awaiting_payment', hold_expires_at = now() + interval '10 minutes' where reference = $1",
      [reference],
    );
    const ordered = await postJson("/api/payments/orders", cookie, { reference });
    expect(ordered.status).toBe(201);
    const { id: orderId } = (await ordered.json()) as { id: string };
    // The payer approves on PayPal's page.
    const approved = await fakePayPal(`/checkoutnow?token=${orderId}`);
    expect(approved.status).toBe(302);

    const capturesBefore = (await payPalState()).captures.length;
    const captures = await Promise.all(
      Array.from({ length: 10 }, () => postJson(`/api/payments/orders/${orderId}/capture`, cookie)),
    );
    for (const answer of captures) {
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ outcome: "confirmed" });
    }
    expect((await payPalState()).captures.length - capturesBefore).toBe(1);
    const recorded = await query<{ capture_id: string }>(
      `select distinct t.capture_id from payment_transaction t join booking b on b.id = t.booking_id
       where b.reference = $1 and t.kind = 'capture' and t.capture_id is not null`,
      [reference],
    );
    expect(recorded).toHaveLength(1);

    const { jar: coordinator } = await signedInStaff(server.db, ["coordinator"]);
    const cancels = await Promise.all(
      Array.from({ length: 5 }, () =>
        coordinator.post(`/admin/events/${eventId}`, { intent: "cancel" }),
      ),
    );
    for (const answer of cancels) expect(answer.status).toBe(200);
    const refunds = (await payPalState()).refunds.filter(
      (refund) => refund.captureId === recorded[0]!.capture_id,
    );
    expect(refunds).toHaveLength(1);
    const [row] = await query<{ status: string; payment_status: string }>(
      "select status, payment_status from booking where reference = $1",
      [reference],
    );
    expect(row).toEqual({ status: "cancelled", payment_status: "refunded" });
  });
});
