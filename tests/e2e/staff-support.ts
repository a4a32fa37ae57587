import { generate } from "otplib";
import type { BrowserContext } from "playwright-core";
import { expect } from "vitest";
import type { Db } from "#app/db/client.server";
import type { StaffRole } from "#app/domain/roles";
import {
  insertPatient,
  insertSession,
  insertStaff,
  type Patient,
  type StaffMember,
} from "#tests/support/fixtures/people";
import { baseURL } from "./support";

export { uniqueEmail } from "./patient-support";

const STEP_SECONDS = 30;
const handedOut = new Map<string, Set<string>>();

/**
 * A code for `key` that the server accepts now and that this test file has not used yet for
 * `account`: a code signs in once (RFC 6238, section 5.2). The server also accepts the next
 * step's code and the previous one's (better-auth's window of one step each side), so three
 * sign-ins a step need no waiting; the previous step's code only while it has 10 s left to live.
 */
export async function totpCode(key: string, account = ""): Promise<string> {
  const secret = key.replace(/\s/g, "");
  // Codes are used up per person (two people could share a key, as the demo's staff do).
  const used = handedOut.get(`${account} ${secret}`) ?? new Set<string>();
  handedOut.set(`${account} ${secret}`, used);
  for (;;) {
    const now = Math.floor(Date.now() / 1000);
    const secondsLeftInStep = STEP_SECONDS - (now % STEP_SECONDS);
    const offsets = [0, STEP_SECONDS, ...(secondsLeftInStep >= 10 ? [-STEP_SECONDS] : [])];
    for (const offset of offsets) {
      const code = await generate({ secret, epoch: now + offset });
      if (!used.has(code)) {
        used.add(code);
        return code;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, secondsLeftInStep * 1000));
  }
}

/** A minimal cookie jar for requests made without a browser. */
export class Jar {
  cookies = new Map<string, string>();

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  take(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = pair!.split("=");
      if (/max-age=0/i.test(cookie) || value.join("=") === "") this.cookies.delete(name!);
      else this.cookies.set(name!, value.join("="));
    }
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${baseURL()}${path}`, {
      redirect: "manual",
      ...init,
      headers: { cookie: this.header(), origin: baseURL(), ...(init.headers ?? {}) },
    });
    this.take(response);
    return response;
  }

  post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Gives a browser context this jar's cookies. */
  async into(context: BrowserContext) {
    const { hostname } = new URL(baseURL());
    await context.addCookies(
      [...this.cookies].map(([name, value]) => ({ name, value, domain: hostname, path: "/" })),
    );
  }
}

/** Signs in with a password and, for staff with two-factor sign-in on, a code from the key. */
export async function signIn(
  account: { email: string; password: string },
  totpKey: string | null,
): Promise<Jar> {
  // Another test file may have signed this person in with the same code a moment ago; the server
  // then refuses it, and a fresh sign-in with the next code is what a person would do.
  for (let attempt = 1; ; attempt++) {
    const jar = new Jar();
    const first = await jar.post("/login", { ...account, redirectTo: "/admin" });
    expect(first.status, `sign-in of ${account.email}`).toBe(302);
    if (!first.headers.get("location")?.startsWith("/login/two-factor")) return jar;
    expect(totpKey, "a TOTP key for a staff account").not.toBeNull();
    const second = await jar.post("/login/two-factor", {
      code: await totpCode(totpKey!, account.email),
      redirectTo: "/admin",
    });
    if (second.status === 401 && attempt < 4 && (await second.text()).includes("already been used"))
      continue;
    expect(second.status, `code for ${account.email}`).toBe(302);
    return jar;
  }
}

/** A jar holding one cookie, given as "name=value" (as insertSession gives it). */
export function jarWith(cookie: string): Jar {
  const jar = new Jar();
  const [name, ...value] = cookie.split("=");
  jar.cookies.set(name!, value.join("="));
  return jar;
}

/**
 * A staff member of the calling test file's own, made with the fixtures (a TOTP key nobody else
 * uses), and a jar signed in as them: the session is written into the server's database as a
 * sign-in with password and code leaves it. For the sign-in itself, give them a password and use
 * `signIn` with their key.
 */
export async function signedInStaff(
  db: Db,
  roles: StaffRole[],
  options: Parameters<typeof insertStaff>[2] = {},
): Promise<{ staff: StaffMember; jar: Jar }> {
  const staff = await insertStaff(db, roles, options);
  const { cookie } = await insertSession(db, staff.id, {
    twoFactorVerified: staff.totpKey !== null,
  });
  return { staff, jar: jarWith(cookie) };
}

/** A patient of the calling test file's own and a jar signed in as him (a session in the database). */
export async function signedInPatient(
  db: Db,
  details: Parameters<typeof insertPatient>[1] = {},
): Promise<{ patient: Patient; jar: Jar }> {
  const patient = await insertPatient(db, details);
  const { cookie } = await insertSession(db, patient.id);
  return { patient, jar: jarWith(cookie) };
}
