import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "#app/db/client.server";
import { loadServerSecret } from "#app/services/secrets.server";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures";
import { createScratchDatabase } from "#tests/support/postgres";
import { startBuiltServer } from "#tests/support/server";
import { signedInPatient } from "./staff-support";

/**
 * The caches as they run in production (the shared test server turns them off, because tests
 * write straight into the database): a server of this file's own, on Postgres, with the default
 * PAGE_CACHE_SECONDS and EVENT_LIST_CACHE_MS. This file's writes straight into the database
 * stand for another instance's, which this server does not hear of.
 */
let server: Awaited<ReturnType<typeof startBuiltServer>>;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let database: Database;

beforeAll(async () => {
  scratch = await createScratchDatabase("mhat_page_cache");
  server = await startBuiltServer({ DATABASE_URL: scratch.url, DEMO_DATA: "0" });
  database = openDatabase({ url: scratch.url });
  await loadServerSecret(database.db, undefined);
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await scratch?.drop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers, redirect: "manual" });

describe("pages that are the same for everyone", () => {
  it("are sent to every visitor without a session as the same bytes, with no script, and may be kept", async () => {
    const first = await get("/about-us");
    // Read whole before asking again: a page is kept once it has been sent.
    const firstBody = await first.text();
    const second = await get("/about-us");
    const secondBody = await second.text();
    expect(first.status).toBe(200);
    expect(firstBody).not.toContain("<script");
    expect(secondBody).toBe(firstBody);
    for (const answer of [first, second]) {
      expect(answer.headers.get("cache-control")).toBe(
        "public, max-age=10, stale-while-revalidate=60",
      );
      expect(answer.headers.get("vary")).toMatch(/\bCookie\b/);
    }
    // The kept answer carries the first one's security headers; the page has no script, so its
    // policy lets no script run but the site's own files, with no nonce.
    for (const name of ["strict-transport-security", "x-frame-options", "referrer-policy"])
      expect(second.headers.get(name), name).toBe(first.headers.get(name));
    const policy = second.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/script-src 'self'[^;]*;/);
    expect(policy).not.toMatch(/nonce|unsafe/);
    expect(policy).toBe(
      (first.headers.get("content-security-policy") ?? "").replace(/ 'nonce-[^']*'/, ""),
    );
  });

  it("include the event list, kept for the seconds it says, while it is the same for everyone", async () => {
    const first = await get("/api/events");
    expect(first.headers.get("cache-control")).toBe("public, max-age=2");
    const firstBody = await first.text();
    const second = await get("/api/events");
    expect(await second.text()).toBe(firstBody);
    expect(second.headers.get("content-type")).toMatch(/^application\/json/);
    // It does not vary with cookies, so it goes to a signed-in visitor's map too.
    expect(first.headers.get("vary") ?? "").not.toMatch(/cookie/i);
    const { jar } = await signedInPatient(database.db);
    expect(await (await get("/api/events", { cookie: jar.header() })).text()).toBe(firstBody);
  });

  it("are never sent to someone signed in, whose pages nobody may keep", async () => {
    const anonymous = await (await get("/about-us")).text();
    const { jar } = await signedInPatient(database.db);
    const mine = await get("/about-us", { cookie: jar.header() });
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    const body = await mine.text();
    expect(body).not.toBe(anonymous);
    expect(body).toContain('href="/portal"');
    expect(anonymous).not.toContain('href="/portal"');
  });

  it("are not kept when they carry scripts, which have this request's nonce", async () => {
    const finder = await get("/book-event-main");
    expect(finder.headers.get("cache-control") ?? "").not.toMatch(/public/);
    expect(await finder.text()).toMatch(/<script[^>]* nonce=/);
  });

  it("are dropped, with the event lists, the moment a booking changes the places here", async () => {
    const first = await insertFreeEvent(database.db, {
      name: `Cache Check First Screening`,
      eventDate: londonDay(9),
    });
    // Once what was kept before it existed has expired, the page shows it, and keeps showing it.
    await expect
      .poll(async () => (await (await get("/")).text()).includes(first.name), { timeout: 30_000 })
      .toBe(true);

    // Another instance adds an event: this one still sends the page it keeps.
    const second = await insertFreeEvent(database.db, {
      name: `Cache Check Second Screening`,
      eventDate: londonDay(8),
    });
    expect(await (await get("/")).text()).not.toContain(second.name);
    const api = async () => (await (await get("/api/events")).text()).includes(second.name);
    expect(await api()).toBe(false);

    // A hold here changes the places: the kept page and the shared lists are dropped at once.
    const { jar } = await signedInPatient(database.db);
    const held = await fetch(`${server.url}/api/appointments`, {
      method: "POST",
      headers: { cookie: jar.header(), origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ eventId: first.id, slotTime: "10:00" }),
    });
    expect(held.status).toBe(201);
    expect(await (await get("/")).text()).toContain(second.name);
    expect(await api()).toBe(true);
  });
});
