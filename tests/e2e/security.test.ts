import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { createAccessCode } from "#app/services/access-codes.server";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures/events";
import { uniqueId } from "#tests/support/fixtures/people";
import { requestFrom } from "#tests/support/http";
import { baseURL, mailsTo, query, serverDatabaseForThisFile, waitForMail } from "./support";

/**
 * The security items of the hardening issue, over HTTP against the built server: what the auth
 * library exposes, sign-in limits under forged headers, redirects, weak passwords, access-code
 * lock-outs, the dev mailbox, and no-store on every page a signed-in person sees.
 */

const server = serverDatabaseForThisFile();

const PASSWORD = "correct horse battery";
const COMMON_PASSWORD_MESSAGE = "This password is too easy to guess.";

const uniqueEmail = (label: string) =>
  `${label}-${crypto.randomBytes(4).toString("hex")}@example.com`;

function postForm(
  path: string,
  values: Record<string, string>,
  init: { cookie?: string; headers?: Record<string, string> } = {},
) {
  return fetch(baseURL() + path, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: baseURL(),
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...init.headers,
    },
    body: new URLSearchParams(values).toString(),
  });
}

function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(baseURL() + path, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/json", origin: baseURL(), ...headers },
    body: JSON.stringify(body),
  });
}

const signupValues = (email: string, password = PASSWORD) => ({
  firstName: "Walter",
  lastName: "Brennan",
  "dateOfBirth-day": "2",
  "dateOfBirth-month": "11",
  "dateOfBirth-year": "1958",
  gender: "Male",
  ethnicity: "White - British",
  phone: "447700900456",
  homeAddressLine1: "3 Quay Street",
  homePostcode: "CO12 3AA",
  homeCountry: "United Kingdom",
  email,
  password,
  confirmPassword: password,
});

/** Cookies to send back, from a response's Set-Cookie headers. */
const cookiesFrom = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

async function signUp(email: string) {
  const response = await postForm("/signup", signupValues(email));
  expect(response.status, "sign-up redirects to the success page").toBe(302);
  return cookiesFrom(response);
}

describe("the auth library's own endpoints", () => {
  it.each([
    ["POST", "/api/auth/sign-up/email"],
    ["POST", "/api/auth/sign-in/email"],
    ["POST", "/api/auth/update-user"],
    ["POST", "/api/auth/change-password"],
    ["POST", "/api/auth/change-email"],
    ["POST", "/api/auth/delete-user"],
    ["POST", "/api/auth/request-password-reset"],
    ["POST", "/api/auth/reset-password"],
    ["POST", "/api/auth/send-verification-email"],
    ["POST", "/api/auth/sign-out"],
    ["POST", "/api/auth/revoke-sessions"],
    ["POST", "/api/auth/sign-in/social"],
    ["GET", "/api/auth/get-session"],
    ["GET", "/api/auth/list-sessions"],
    ["GET", "/api/auth/list-accounts"],
    ["GET", "/api/auth/ok"],
    ["GET", "/api/auth/error"],
    ["GET", "/api/auth/callback/google"],
    ["GET", "/api/auth/account-info"],
  ])("%s %s answers 404", async (method, path) => {
    const email = uniqueEmail("side-door");
    const response = await fetch(baseURL() + path, {
      method,
      redirect: "manual",
      headers: { "content-type": "application/json", origin: baseURL() },
      body:
        method === "POST"
          ? JSON.stringify({ email, password: PASSWORD, name: "x", image: "javascript:alert(1)" })
          : undefined,
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("set-cookie")).toBeNull();
    if (path.includes("sign-up"))
      expect(await query("select 1 from public.user where email = $1", [email])).toEqual([]);
  });

  it("still follows the e-mail verification link, and only to a path on this site", async () => {
    const response = await fetch(
      `${baseURL()}/api/auth/verify-email?token=not-a-token&callbackURL=${encodeURIComponent("https://evil.example/")}`,
      { redirect: "manual" },
    );
    expect(response.status).not.toBe(404);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get("location") ?? "").not.toContain("evil.example");
  });
});

describe("sign-in limits", () => {
  it("hold per account and client address on every sign-in path, whatever X-Forwarded-For says", async () => {
    const email = uniqueEmail("forged");
    await signUp(email);
    const forged = () => ({ "x-forwarded-for": `198.51.100.${crypto.randomInt(1, 254)}` });
    for (let attempt = 0; attempt < 10; attempt++) {
      const path = attempt % 2 === 0 ? "/login" : "/login.data";
      const response = await postForm(
        path,
        { email, password: `wrong password ${attempt}` },
        { headers: forged() },
      );
      expect(response.status, `${path} attempt ${attempt + 1}`).toBe(401);
    }
    for (const path of ["/login", "/login.data"]) {
      const response = await postForm(path, { email, password: PASSWORD }, { headers: forged() });
      expect(response.status, path).toBe(429);
      expect(Number(response.headers.get("retry-after")), path).toBeGreaterThan(0);
    }
    // The library's own sign-in is not there to try instead.
    const direct = await postJson(
      "/api/auth/sign-in/email",
      { email, password: PASSWORD },
      forged(),
    );
    expect(direct.status).toBe(404);
  });
});

/** A form post from a chosen client address (see requestFrom). */
const postFormFrom = (from: string, path: string, values: Record<string, string>) =>
  requestFrom(from, baseURL() + path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseURL() },
    body: new URLSearchParams(values).toString(),
  });

describe("sign-in lock-out of someone else's account", () => {
  it("10 wrong passwords from one address leave the right one working from another; the first waits, told how long", async () => {
    const email = uniqueEmail("locked-out");
    await signUp(email);
    const attacker = "127.0.7.1";
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await postFormFrom(attacker, "/login", {
        email,
        password: `wrong password ${attempt}`,
      });
      expect(response.status, `wrong password ${attempt}`).toBe(401);
    }

    const owner = await postFormFrom("127.0.7.2", "/login", { email, password: PASSWORD });
    expect(owner.status, "the owner, from their own address").toBe(302);
    expect(owner.headers["set-cookie"]?.some((cookie) => cookie.includes("session_token="))).toBe(
      true,
    );

    for (const path of ["/login", "/login.data"]) {
      const refused = await postFormFrom(attacker, path, { email, password: PASSWORD });
      expect(refused.status, path).toBe(429);
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter, `${path} Retry-After`).toBeGreaterThan(0);
      expect(retryAfter, `${path} Retry-After`).toBeLessThanOrEqual(15 * 60);
      const minutes = Math.max(1, Math.ceil(retryAfter / 60));
      expect(refused.body, path).toContain(
        `Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again`,
      );
    }
  });
});

describe("mail bombing through the account forms", () => {
  /** The rule (README, Accounts): one mail of each kind per address per 10 minutes, 4 an hour. */
  const KIND_WINDOW_MS = 10 * 60_000;
  const HOUR_MS = 60 * 60_000;
  const ANY_KIND_PER_HOUR = 4;
  /** How many of the rule's fixed windows the time from `start` to `end` touches. */
  const windowsTouched = (start: number, end: number, windowMs: number) =>
    Math.floor(end / windowMs) - Math.floor(start / windowMs) + 1;

  it("5 sign-ups and 5 password resets for one address, from 10 client addresses, deliver one mail of each kind", async () => {
    const email = uniqueEmail("mail-bombed");
    const started = Date.now();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await postFormFrom(`127.0.5.${attempt}`, "/signup", signupValues(email));
      expect(response.status, `sign-up ${attempt}`).toBe(302);
      expect(response.headers.location, `sign-up ${attempt}`).toMatch(/^\/signup-success/);
      // Made an hour ago: the later sign-ups are not a second press of the same form, which is
      // told nothing (sign-up.server.ts), but news to the address's owner.
      if (attempt === 1)
        await query(`update "user" set created_at = now() - interval '1 hour' where email = $1`, [
          email,
        ]);
    }
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await postFormFrom(`127.0.6.${attempt}`, "/login", {
        email,
        intent: "forgot",
      });
      expect(response.status, `reset ${attempt}`).toBe(200);
      expect(response.body, `reset ${attempt}`).toContain(
        "Password reset email sent. Check your inbox.",
      );
    }
    const finished = Date.now();

    // Wait until nothing for the address is left to send, then count what arrived.
    await expect
      .poll(
        async () =>
          (
            await query<{ n: number }>(
              `select count(*)::int as n from outbox_email where "to" = $1 and status = 'pending'`,
              [email],
            )
          )[0]!.n,
        { timeout: 15_000 },
      )
      .toBe(0);
    const mails = await mailsTo(email);
    const subjects = mails.map((mail) => mail.subject ?? "");
    const ofKind = (pattern: RegExp) => subjects.filter((subject) => pattern.test(subject)).length;
    const kinds = {
      verification: ofKind(/^Confirm your e-mail address/),
      alreadyRegistered: ofKind(/^Someone tried to register/),
      passwordReset: ofKind(/^Reset your/),
    };
    const perKind = windowsTouched(started, finished, KIND_WINDOW_MS);
    for (const [kind, count] of Object.entries(kinds)) {
      expect(count, `${kind}: the first one is sent`).toBeGreaterThanOrEqual(1);
      expect(count, `${kind}: no more than one per 10 minutes`).toBeLessThanOrEqual(perKind);
    }
    expect(mails.length, subjects.join("; ")).toBe(
      kinds.verification + kinds.alreadyRegistered + kinds.passwordReset,
    );
    expect(mails.length).toBeLessThanOrEqual(
      ANY_KIND_PER_HOUR * windowsTouched(started, finished, HOUR_MS),
    );
  });
});

describe("redirects after signing in", () => {
  const hostile = [
    "//evil.example",
    "/.//evil.example",
    "/\\evil.example",
    "%2F%2Fevil.example",
    "/\t/evil.example",
    "https://evil.example",
    "javascript:alert(1)",
  ];

  it.each(hostile)("stay on this site for redirectTo=%j", async (target) => {
    const cookie = await signUp(uniqueEmail("redirect"));
    for (const page of ["/login", "/signup"]) {
      const response = await fetch(`${baseURL()}${page}?redirectTo=${encodeURIComponent(target)}`, {
        redirect: "manual",
        headers: { cookie },
      });
      expect(response.status, page).toBe(302);
      const location = response.headers.get("location")!;
      expect(location, page).toMatch(/^\/(?![/\\])/);
      expect(location, page).not.toContain("evil.example");
    }
    const success = await fetch(
      `${baseURL()}/signup-success?redirectTo=${encodeURIComponent(target)}`,
    );
    expect(await success.text()).not.toMatch(/href="[^"]*evil\.example/);
  });
});

describe("weak passwords", () => {
  it.each(["password", "12345678", "aaaaaaaa"])("are refused at sign-up: %s", async (password) => {
    const email = uniqueEmail("weak");
    const response = await postForm("/signup", signupValues(email, password));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(COMMON_PASSWORD_MESSAGE);
    expect(await query("select 1 from public.user where email = $1", [email])).toEqual([]);
  });

  it("are refused when resetting a password, on a page that is never cached or referred", async () => {
    const email = uniqueEmail("reset-weak");
    await signUp(email);
    await postForm("/login", { email, intent: "forgot" });
    const mail = await waitForMail(
      (message) => message.to?.[0]?.address === email && /Reset your/.test(message.subject ?? ""),
    );
    const link = /https?:\/\/\S+\/api\/auth\/reset-password\/\S+/.exec(mail.text ?? "")![0];
    const callback = await fetch(link, { redirect: "manual" });
    const resetPage = new URL(callback.headers.get("location")!, baseURL());
    const token = resetPage.searchParams.get("token")!;
    expect(token).toBeTruthy();

    const page = await fetch(resetPage);
    expect(page.headers.get("cache-control")).toContain("no-store");
    // Helmet's site-wide policy comes first; browsers use the last one they know (W3C Referrer Policy §8.1).
    expect(page.headers.get("referrer-policy")?.split(",").at(-1)?.trim()).toBe("same-origin");
    // The form posts back to the page's own address, token and all, as a browser would.
    const action = /<form[^>]* action="([^"]+)"/
      .exec(await page.text())?.[1]
      ?.replaceAll("&amp;", "&");
    expect(action).toBe(`${resetPage.pathname}${resetPage.search}`);

    const weak = await postForm(action!, {
      token,
      newPassword: "12345678",
      confirmPassword: "12345678",
    });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain(COMMON_PASSWORD_MESSAGE);
  });
});

describe("access codes", () => {
  /** A private lodge event of this test's own and its access code. */
  async function lodgeEvent() {
    const lodge = await insertFreeEvent(server.db, {
      name: "Security Check Masonic Hall Screening",
      category: "freemasons",
      isPublic: false,
      eventDate: londonDay(11),
    });
    const code = `LODGE-${uniqueId().toUpperCase()}`;
    await createAccessCode(server.db, { eventId: lodge.id, code });
    return { eventId: lodge.id, code };
  }
  const apiCheck = (from: string, eventId: string, code: string) =>
    requestFrom(from, `${baseURL()}/api/events/${eventId}/check-access-code`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseURL() },
      body: JSON.stringify({ access_code: code }),
    });

  it("guesses from one address never lock out the right code from another", async () => {
    const { eventId, code } = await lodgeEvent();
    const statuses: number[] = [];
    for (let guess = 0; guess < 15; guess++)
      statuses.push((await apiCheck("127.0.0.2", eventId, `WRONG-${guess}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));

    const limited = await apiCheck("127.0.0.2", eventId, code);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    const minutes = Math.max(1, Math.ceil(retryAfter / 60));
    expect(JSON.parse(limited.body).error).toContain(`wait ${minutes} minute`);

    // Codes are compared without case or surrounding spaces.
    const other = await apiCheck("127.0.0.3", eventId, ` ${code.toLowerCase()} `);
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body)).toEqual({ status: "success" });
  });

  it("answer with the same status on the page as in the API", async () => {
    const { eventId } = await lodgeEvent();
    const page = await requestFrom("127.0.0.4", `${baseURL()}/event/${eventId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseURL() },
      body: new URLSearchParams({ intent: "access-code", access_code: "NOT-IT" }).toString(),
    });
    const api = await apiCheck("127.0.0.4", eventId, "NOT-IT");
    expect([page.status, api.status]).toEqual([403, 403]);
    expect(page.body).toContain("Invalid Access code");
    expect(JSON.parse(api.body).error).toBe("Invalid Access code");
  });
});

describe("the development mailbox", () => {
  it("does not exist when SMTP_URL is set", async () => {
    const response = await fetch(`${baseURL()}/dev/mailbox`);
    expect(response.status).toBe(404);
  });
});

describe("caching of pages a signed-in person sees", () => {
  it("is refused on every route (no-store)", async () => {
    const cookie = await signUp(uniqueEmail("walk"));
    const event = await insertFreeEvent(server.db, {
      name: "Security Check Quay Screening",
      eventDate: londonDay(7),
    });
    const routes = [
      "/",
      "/about-us",
      "/about-us/research",
      "/support-us",
      "/information-hub",
      "/information-hub/mens-health",
      "/information-hub/statistics",
      "/information-hub/elderly-psa-testing",
      "/events",
      "/events/corporate-screening",
      "/events/community-screening",
      "/events/seminar-talks",
      "/news",
      "/news/patient-journey",
      "/news/patient-journey/robert-hale",
      "/refund-policy",
      "/privacy-notice",
      "/accessibility-statement",
      "/mhat-screening-event",
      "/world-cancer-day-poster",
      "/book-event-main",
      `/event/${event.id}`,
      `/book-event?event=${event.id}`,
      "/portal",
      "/portal?edit",
      "/medical-results",
      "/no-such-page",
    ];
    for (const route of routes) {
      const response = await fetch(baseURL() + route, { headers: { cookie }, redirect: "manual" });
      expect(response.status, route).toBeLessThan(500);
      expect(response.headers.get("cache-control") ?? "", route).toContain("no-store");
    }
  });
});
