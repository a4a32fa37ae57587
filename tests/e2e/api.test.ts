import { describe, expect, it } from "vitest";
import { createAccessCode } from "#app/services/access-codes.server";
import { insertPaidEvent, londonDay, uniqueId, uniqueTown } from "#tests/support/fixtures";
import { baseURL, query, serverDatabaseForThisFile, waitForMail } from "./support";

const server = serverDatabaseForThisFile();

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(baseURL() + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("POST /api/subscriptions", () => {
  it("asks the owner to confirm: the same 202 answer each time, and no subscription yet", async () => {
    const email = `api-${Date.now()}@example.com`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await postJson("/api/subscriptions", {
        name: "Api Reader",
        email,
        hear_about_event: true,
      });
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({
        status: "success",
        message:
          "Thank you! To finish subscribing to the newsletter, check your inbox and open the link we have sent you.",
      });
    }
    expect(await query("select 1 from newsletter_subscription where email = $1", [email])).toEqual(
      [],
    );
    const mail = await waitForMail((message) => message.to?.[0]?.address === email);
    expect(mail.subject).toBe("Confirm your subscription to the MHAT newsletter");
    expect(mail.text).toMatch(/\/newsletter\/confirm\?token=/);
  });

  it("newsletter opt-out is undone by anyone: an unsubscribed address posted again stays unsubscribed, its name unchanged", async () => {
    const email = `opted-out-${Date.now()}@example.com`;
    await query(
      "insert into newsletter_subscription (name, email, unsubscribed_at) values ('Owner Name', $1, now())",
      [email],
    );
    const response = await postJson("/api/subscriptions", {
      name: "Someone Else",
      email,
      hear_about_event: true,
    });
    expect(response.status).toBe(202);
    const rows = await query<{ name: string; unsubscribed: boolean }>(
      "select name, unsubscribed_at is not null as unsubscribed from newsletter_subscription where email = $1",
      [email],
    );
    expect(rows).toEqual([{ name: "Owner Name", unsubscribed: true }]);
  });

  it("answers 400 with the spec's message when a field is missing", async () => {
    const response = await postJson("/api/subscriptions", { name: "No Email" });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error).toBe("Please provide both name and email.");
    expect(body.details.fields.email).toBe("Enter your email address");
  });

  it("answers 400 to a malformed e-mail and to broken JSON, 415 to a form post", async () => {
    expect((await postJson("/api/subscriptions", { name: "A", email: "nope" })).status).toBe(400);
    const broken = await postJson("/api/subscriptions", "{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: "The body is not valid JSON" });
    const form = await fetch(`${baseURL()}/api/subscriptions`, {
      method: "POST",
      body: new URLSearchParams({ name: "A" }),
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({
      error: "Send the body as JSON (Content-Type: application/json)",
    });
  });

  it("answers 405 to GET", async () => {
    const response = await fetch(`${baseURL()}/api/subscriptions`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("POST /api/logs/error", () => {
  it("stores a report", async () => {
    const message = `Test error ${Date.now()}`;
    const response = await postJson("/api/logs/error", {
      errorMessage: message,
      description: "stack",
      page: "/news",
    });
    expect(response.status).toBe(204);
    expect(
      await query("select page from client_error where error_message = $1", [message]),
    ).toEqual([{ page: "/news" }]);
  });

  it("refuses a report without a message, and one over the size limit", async () => {
    expect((await postJson("/api/logs/error", { description: "no message" })).status).toBe(400);
    const tooBig = await postJson("/api/logs/error", {
      errorMessage: "x",
      description: "y".repeat(20_000),
    });
    expect(tooBig.status).toBe(413);
  });

  it("refuses a cross-site post", async () => {
    const response = await postJson(
      "/api/logs/error",
      { errorMessage: "x" },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
  });
});

describe("health", () => {
  it("answers 200 once the database answers", async () => {
    const response = await fetch(`${baseURL()}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});

describe("GET /api/events", () => {
  const get = (search: string) => fetch(`${baseURL()}/api/events${search}`);
  const names = async (search: string) =>
    ((await (await get(search)).json()) as { events: { event_name: string; category: string }[] })
      .events;

  it("answers every filter value and combination with matching events", async () => {
    const town = uniqueTown();
    const inTown = `location=${encodeURIComponent(town)}`;
    const mine: Record<string, string> = {};
    for (const [index, category] of (["community", "freemasons", "corporate"] as const).entries()) {
      const row = await insertPaidEvent(server.db, {
        name: `${town} ${category} screening`,
        city: town,
        category,
        eventDate: londonDay(3 + index),
      });
      mine[category] = row.name;
    }
    const all = await names("");
    for (const category of ["community", "freemasons", "corporate"]) {
      const events = await names(`?for=${category}`);
      expect(events.every((view) => view.category === category)).toBe(true);
      expect((await names(`?for=${category}&${inTown}`)).map((view) => view.event_name)).toEqual([
        mine[category],
      ]);
    }
    for (const date of ["today", "next-week", "next-month", "future-events"]) {
      expect((await get(`?date=${date}`)).status).toBe(200);
    }
    expect((await names("?date=future-events")).length).toBe(all.length);
    const combined = await names(`?for=community,corporate&${inTown}&date=next-month`);
    expect(combined.map((view) => view.event_name)).toEqual([mine.community, mine.corporate]);
    const repeated = await names(`?for=community&for=corporate&${inTown}&date=next-month`);
    expect(repeated).toEqual(combined);
    expect(await names(`?for=community,corporate&${inTown}&date=today`)).toEqual([]);
  });

  it("answers 400 with a JSON error to an unknown category or date", async () => {
    for (const search of [
      "?for=golf",
      "?for=community,golf",
      "?date=tomorrow",
      `?location=${"x".repeat(101)}`,
    ]) {
      const response = await get(search);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBeTruthy();
    }
  });
});

describe("GET /api/events/{id}/slots", () => {
  it("answers slots keyed by date, and 404 for an unknown event", async () => {
    const eventDate = londonDay(5);
    const row = await insertPaidEvent(server.db, {
      eventDate,
      startTime: "11:00",
      endTime: "13:00",
      sessionDuration: 15,
    });
    const response = await fetch(`${baseURL()}/api/events/${row.id}/slots`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body)).toEqual([eventDate]);
    expect(body[eventDate].availableTimeSlots.slice(0, 3)).toEqual(["11:00", "11:15", "11:30"]);
    expect(
      (await fetch(`${baseURL()}/api/events/00000000-0000-4000-8000-000000000000/slots`)).status,
    ).toBe(404);
    expect((await fetch(`${baseURL()}/api/events/nonsense/slots`)).status).toBe(404);
  });
});

describe("POST /api/events/{id}/check-access-code", () => {
  const checkCode = async (id: string, code: unknown, cookie?: string) =>
    postJson(
      `/api/events/${id}/check-access-code`,
      { access_code: code },
      cookie ? { cookie } : {},
    );
  /** A private event of its own, so that no other test's wrong guesses count against it. */
  const privateEvent = () =>
    insertPaidEvent(server.db, {
      isPublic: false,
      category: "freemasons",
      eventDate: londonDay(6),
    });

  it("refuses a wrong, used-up or expired code and accepts the right one", async () => {
    const lodge = await privateEvent();
    const code = `LODGE-${uniqueId().toUpperCase()}`;
    await createAccessCode(server.db, { eventId: lodge.id, code, maxUses: 60 });
    await createAccessCode(server.db, { eventId: lodge.id, code: "USED-UP", maxUses: 1, uses: 1 });
    await createAccessCode(server.db, {
      eventId: lodge.id,
      code: "EXPIRED-CODE",
      expiresAt: new Date(Date.now() - 86_400_000),
    });
    // The documented shape for every refusal; a right code that can no longer be used says why.
    for (const [wrong, why] of [
      ["WRONG", /^Invalid Access code$/],
      ["USED-UP", /^Invalid Access code: this code has been used as many times as it allows\./],
      ["EXPIRED-CODE", /^Invalid Access code: this code has expired\./],
    ] as const) {
      const response = await checkCode(lodge.id, wrong);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ status: "error", error: expect.stringMatching(why) });
    }
    const right = await checkCode(lodge.id, code.toLowerCase());
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ status: "success" });
    expect(right.headers.get("set-cookie")).toMatch(/mhat_unlocked_events=.*HttpOnly/i);
  });

  it("answers 400 for a public event or a missing code, and 404 for an unknown event", async () => {
    const open = await insertPaidEvent(server.db, { eventDate: londonDay(6) });
    expect((await checkCode(open.id, "anything")).status).toBe(400);
    const lodge = await privateEvent();
    expect((await postJson(`/api/events/${lodge.id}/check-access-code`, {})).status).toBe(400);
    expect((await checkCode("00000000-0000-4000-8000-000000000000", "x")).status).toBe(404);
  });

  it("is rate-limited per address and event, with 429 and a message", async () => {
    const lodge = await privateEvent();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++)
      statuses.push((await checkCode(lodge.id, `guess-${attempt}`)).status);
    expect(statuses.slice(0, 10).every((status) => status === 403)).toBe(true);
    const limited = await checkCode(lodge.id, "another");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
    expect((await limited.json()).error).toMatch(/Too many attempts/);
  });
});

describe("every /api answer is JSON (issue: unknown paths answered an HTML 404 or 405)", () => {
  const expectJsonError = async (response: Response, status: number, label: string) => {
    expect(response.status, label).toBe(status);
    expect(response.headers.get("content-type"), label).toMatch(/^application\/json\b/);
    const body = (await response.json()) as { error?: unknown };
    expect(typeof body.error, label).toBe("string");
  };

  it("answers 404 JSON for an unknown path, whatever the method", async () => {
    for (const path of [
      "/api",
      "/api/",
      "/api/no-such-thing",
      "/api/events/x/y/z",
      "/api/auth/no-such-thing",
    ]) {
      await expectJsonError(await fetch(baseURL() + path), 404, `GET ${path}`);
      await expectJsonError(await postJson(path, {}), 404, `POST ${path}`);
    }
  });

  it("answers 405 JSON with Allow for a known path asked with the wrong method", async () => {
    for (const path of [
      "/api/events",
      "/api/events/00000000-0000-4000-8000-000000000000/slots",
      "/api/medical/results/00000000-0000-4000-8000-000000000000",
    ]) {
      const response = await postJson(path, {});
      await expectJsonError(response, 405, `POST ${path}`);
      expect(response.headers.get("allow"), path).toBe("GET, HEAD");
    }
    const get = await fetch(`${baseURL()}/api/subscriptions`);
    await expectJsonError(get, 405, "GET /api/subscriptions");
    expect(get.headers.get("allow")).toBe("POST");
    const put = await fetch(`${baseURL()}/api/events`, { method: "PUT" });
    await expectJsonError(put, 405, "PUT /api/events");
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
  });
});
