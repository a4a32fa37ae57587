import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseURL, query } from "./support";
import { PATIENT_PASSWORD, uniqueEmail } from "./patient-support";

/**
 * Issue 14, finding 1: a private event's id is public (GET /api/events lists it), so a signed-in
 * person with no access code could hold a place through the API or post the booking page's form
 * directly. Both ways in must refuse until this person has given the code.
 */

const ACCESS_CODE = "BYPASS-CHECK-7";

/** A bookable private event of this file's own, with an access code, a week from today. */
async function insertPrivateEvent() {
  const [product] = await query<{ id: string }>(
    "insert into screening_product (name, price_pence) values ('PSA Blood Test', 0) returning id",
  );
  const date = new Date(Date.now() + 7 * 24 * 3600_000).toISOString().slice(0, 10);
  const [row] = await query<{ id: string }>(
    `insert into event (name, product_id, event_date, start_time, end_time, session_duration,
       total_spaces, places_per_slot, category, address_line_1, city, postcode, is_public, status,
       payment_required)
     values ('Bypass Check Lodge Screening', $1, $2, '10:00', '12:00', 30, 8, 2, 'freemasons',
       '1 Lodge Lane', 'Ipswich', 'IP1 1AA', false, 'published', false)
     returning id`,
    [product!.id, date],
  );
  // The code is stored as the server does: HMAC-SHA-256 under the server's secret.
  const [secret] = await query<{ value: string }>(
    "select value from app_meta where key = 'generated_auth_secret'",
  );
  const hash = crypto.createHmac("sha256", String(secret!.value)).update(ACCESS_CODE).digest("hex");
  await query("insert into event_access_code (event_id, code_hash) values ($1, $2)", [
    row!.id,
    hash,
  ]);
  return row!.id;
}

/** A new patient signed up through /signup; returns the session cookie header. */
async function signUp(): Promise<string> {
  const response = await fetch(`${baseURL()}/signup`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseURL() },
    body: new URLSearchParams({
      firstName: "Cedric",
      lastName: "Hollingworth",
      "dateOfBirth-day": "3",
      "dateOfBirth-month": "9",
      "dateOfBirth-year": "1957",
      gender: "Male",
      ethnicity: "White - British",
      phone: "447700900456",
      homeAddressLine1: "4 Quay Street",
      homePostcode: "IP4 1AA",
      homeCountry: "United Kingdom",
      email: uniqueEmail("bypass"),
      password: PATIENT_PASSWORD,
      confirmPassword: PATIENT_PASSWORD,
    }).toString(),
  });
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

const post = (path: string, cookie: string, body: string, type: string) =>
  fetch(`${baseURL()}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: baseURL(), "content-type": type },
    body,
  });

const postJson = (path: string, cookie: string, body: unknown) =>
  post(path, cookie, JSON.stringify(body), "application/json");

describe("private event bypass (issue 14, finding 1)", () => {
  it("refuses POST /api/appointments for a private event without its access code (403)", async () => {
    const eventId = await insertPrivateEvent();
    const cookie = await signUp();
    const response = await postJson("/api/appointments", cookie, { eventId, slotTime: "10:30" });
    expect(response.status).toBe(403);
    expect(await query("select id from booking where event_id = $1", [eventId])).toEqual([]);
  });

  it("refuses the booking page's form posted for a private event without its access code, sending the person to enter it", async () => {
    const eventId = await insertPrivateEvent();
    const cookie = await signUp();
    const response = await post(
      `/book-event?event=${eventId}`,
      cookie,
      new URLSearchParams({ slotTime: "10:30" }).toString(),
      "application/x-www-form-urlencoded",
    );
    // A person (not a script) lands here only if the code stopped working: back to enter it.
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/event/${eventId}?access-code#access-code`);
    expect(await query("select id from booking where event_id = $1", [eventId])).toEqual([]);
  });

  it("holds a place once the same person has given the code, and only for them", async () => {
    const eventId = await insertPrivateEvent();
    const cookie = await signUp();
    const unlocked = await postJson(`/api/events/${eventId}/check-access-code`, cookie, {
      access_code: ACCESS_CODE.toLowerCase(),
    });
    expect(unlocked.status).toBe(200);
    // The unlock is this person's, kept on the server: it works without the browser's cookie.
    const held = await postJson("/api/appointments", cookie, { eventId, slotTime: "10:30" });
    expect(held.status).toBe(201);
    const someoneElse = await signUp();
    const refused = await postJson("/api/appointments", someoneElse, {
      eventId,
      slotTime: "11:00",
    });
    expect(refused.status).toBe(403);
  });
});
