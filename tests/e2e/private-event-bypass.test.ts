import { describe, expect, it } from "vitest";
import { createAccessCode } from "#app/services/access-codes.server";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures";
import { baseURL, query, serverDatabaseForThisFile } from "./support";
import { signedInPatient } from "./staff-support";

/**
 * Issue 14, finding 1: a private event's id is public (GET /api/events lists it), so a signed-in
 * person with no access code could hold a place through the API or post the booking page's form
 * directly. Both ways in must refuse until this person has given the code.
 */

const ACCESS_CODE = "BYPASS-CHECK-7";
const server = serverDatabaseForThisFile();

/** A bookable private event of this file's own, with an access code, a week from today. */
async function insertPrivateEvent() {
  const row = await insertFreeEvent(server.db, {
    name: "Bypass Check Lodge Screening",
    category: "freemasons",
    isPublic: false,
    eventDate: londonDay(7),
    totalSpaces: 8,
  });
  await createAccessCode(server.db, { eventId: row.id, code: ACCESS_CODE });
  return row.id;
}

/** A patient of this file's own, signed in: the session cookie header. */
async function signUp(): Promise<string> {
  const { jar } = await signedInPatient(server.db);
  return jar.header();
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
