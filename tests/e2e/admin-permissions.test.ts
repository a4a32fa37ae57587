import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { insertOwedRefund } from "#tests/support/fixtures/bookings";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, insertStaff } from "#tests/support/fixtures/people";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import { routeTable } from "#tests/support/route-table";
import { query, serverDatabaseForThisFile } from "./support";
import { Jar, signedInPatient, signedInStaff, totpCode, uniqueEmail } from "./staff-support";

const server = serverDatabaseForThisFile();

type Role = "admin" | "coordinator" | "clinician" | "event_staff";
const ROLES = ["admin", "coordinator", "clinician", "event_staff"] as const;

/**
 * Who may open each back-office route, written out here from the issue rather than read from the
 * app: events for coordinators (and admins, who set them up), attendees for coordinators (and for
 * event staff on the event's own day: tests/e2e/attendees.test.ts), results for clinicians, people
 * and the audit log for admins.
 */
const EXPECTED: Record<string, readonly Role[]> = {
  "/admin": ["admin", "coordinator", "clinician", "event_staff"],
  "/admin/events": ["admin", "coordinator"],
  "/admin/events/new": ["admin", "coordinator"],
  "/admin/events/:eventId": ["admin", "coordinator"],
  "/admin/products": ["admin", "coordinator"],
  "/admin/refunds": ["admin", "coordinator"],
  "/admin/refunds/:reference/by-hand": ["admin", "coordinator"],
  // Finds bookings on the lists they may open (event staff: the day's events only).
  "/admin/find-booking": ["coordinator", "event_staff"],
  // Event staff open these on the event's own day only; this file's event was three days ago.
  "/admin/events/:eventId/attendees": ["coordinator"],
  "/admin/events/:eventId/attendees/print": ["coordinator"],
  "/admin/events/:eventId/attendees/:bookingId": ["coordinator"],
  "/admin/events/:eventId/attendees/:bookingId/cancel": ["coordinator"],
  "/admin/events/:eventId/attendees/:bookingId/move": ["coordinator"],
  "/admin/events/:eventId/lab.csv": ["coordinator"],
  "/admin/results": ["clinician"],
  "/admin/results/import": ["clinician"],
  "/admin/results/thresholds": ["clinician"],
  "/admin/results/:resultId": ["clinician"],
  "/admin/enquiries": ["admin", "coordinator"],
  "/admin/subscribers": ["admin"],
  "/admin/subscribers.csv": ["admin"],
  "/admin/staff": ["admin"],
  "/admin/audit": ["admin"],
};

/** Reached before two-factor sign-in is on, or without an account: tested on their own below. */
const SIGN_IN_STEPS = new Set(["/admin/setup", "/admin/two-factor"]);

const adminRoutes = routeTable().filter(
  (entry) => entry.path.startsWith("/admin") && !SIGN_IN_STEPS.has(entry.path),
);

const people: Record<string, Jar> = {};
const ids = { eventId: "", resultId: "", bookingId: "", owedRefundReference: "" };

function fill(path: string) {
  return path
    .replace(":eventId", ids.eventId)
    .replace(":resultId", ids.resultId)
    .replace(":bookingId", ids.bookingId)
    .replace(":reference", ids.owedRefundReference);
}

/** The session token in a jar's session cookie ("<token>.<signature>"). */
function sessionToken(jar: Jar): string {
  const [, value] = [...jar.cookies].find(([name]) => name.endsWith("session_token"))!;
  return decodeURIComponent(value).split(".")[0]!;
}

/** A patient account that has been given a staff role but has not set up two-factor sign-in. */
async function staffWithoutTwoFactor(): Promise<Jar> {
  return (await newStaffMember()).jar;
}

async function newStaffMember(): Promise<{ jar: Jar; email: string; password: string }> {
  const email = uniqueEmail("new-staff");
  const password = "marble teapot horizon";
  const jar = new Jar();
  const signup = await jar.post("/signup", {
    firstName: "Morgan",
    lastName: "Newstarter",
    "dateOfBirth-day": "3",
    "dateOfBirth-month": "9",
    "dateOfBirth-year": "1970",
    gender: "Male",
    ethnicity: "White - British",
    phone: "447700900123",
    homeAddressLine1: "2 Station Road",
    homePostcode: "CM2 9AA",
    homeCountry: "United Kingdom",
    email,
    password,
    confirmPassword: password,
  });
  expect(signup.status).toBe(302);
  await query(
    `insert into user_role (user_id, role) select id, 'coordinator' from "user" where email = $1`,
    [email],
  );
  return { jar, email, password };
}

beforeAll(async () => {
  const { db } = server;
  people.anonymous = new Jar();
  people.patient = (await signedInPatient(db)).jar;
  people.admin = (await signedInStaff(db, ["admin"])).jar;
  people.coordinator = (await signedInStaff(db, ["coordinator"])).jar;
  people.clinician = (await signedInStaff(db, ["clinician"])).jar;
  people.event_staff = (await signedInStaff(db, ["event_staff"])).jar;
  people.noTwoFactor = await staffWithoutTwoFactor();
  // An event of this file's own that took place, with an attendee and his result.
  const eventDate = londonDay(-3);
  const event = await insertFreeEvent(db, {
    name: "Permissions Check Screening",
    eventDate,
    // The lab CSV needs a laboratory to send to.
    labName: "Partner laboratory",
  });
  const attendee = await insertPatient(db);
  const booked = await insertSampledBooking(db, {
    eventId: event.id,
    userId: attendee.id,
    eventDate,
  });
  ids.eventId = event.id;
  ids.bookingId = booked.id;
  ids.resultId = (await insertResult(db, booked.id)).id;
  // A refund owed to a man who cancelled in time (still being tried: nothing can be recorded).
  const owed = await insertOwedRefund(db, {
    eventId: event.id,
    userId: (await insertPatient(db)).id,
  });
  ids.owedRefundReference = owed.reference;
});

describe("every back-office route has a rule here", () => {
  it("lists each /admin route of app/routes.ts", () => {
    expect(adminRoutes.length).toBeGreaterThan(10);
    expect(adminRoutes.map((entry) => entry.path).sort()).toEqual(Object.keys(EXPECTED).sort());
  });
});

describe.each(adminRoutes)("$path", (entry) => {
  const allowed = EXPECTED[entry.path] ?? [];
  const methods = entry.hasAction ? (["GET", "POST"] as const) : (["GET"] as const);

  async function send(person: string, method: "GET" | "POST") {
    const jar = people[person]!;
    return method === "GET"
      ? jar.fetch(fill(entry.path))
      : jar.post(fill(entry.path), { intent: "permission-check" });
  }

  it.each(methods)("%s: anyone not signed in is sent to sign in", async (method) => {
    const response = await send("anonymous", method);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/login\?redirectTo=%2Fadmin/);
  });

  it.each(methods)("%s: a patient gets 403", async (method) => {
    expect((await send("patient", method)).status).toBe(403);
  });

  it.each(methods)("%s: staff without two-factor sign-in go to enrolment", async (method) => {
    const response = await send("noTwoFactor", method);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin/two-factor");
  });

  it.each(methods)("%s: each role is let in or refused as the issue says", async (method) => {
    for (const role of ROLES) {
      const response = await send(role, method);
      if (allowed.includes(role)) {
        expect(response.status, `${role} ${method}`).not.toBe(403);
        expect(response.status, `${role} ${method}`).toBeLessThan(500);
        if (method === "GET") expect(response.status, `${role} GET`).toBe(200);
      } else {
        expect(response.status, `${role} ${method}`).toBe(403);
      }
    }
  });
});

describe("the sign-in steps", () => {
  it("/admin/two-factor: anyone not signed in signs in; a patient gets 403", async () => {
    const anonymous = await people.anonymous!.fetch("/admin/two-factor");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?/);
    expect((await people.patient!.fetch("/admin/two-factor")).status).toBe(403);
  });

  it("/admin/two-factor: staff who already use two-factor sign-in go to the dashboard", async () => {
    const response = await people.coordinator!.fetch("/admin/two-factor");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin");
  });

  it("a staff password alone does not sign in: the code is asked for next", async () => {
    const password = "willow quartz meadow";
    const clinician = await insertStaff(server.db, ["clinician"], { password });
    const jar = new Jar();
    const response = await jar.post("/login", {
      email: clinician.email,
      password,
      redirectTo: "/admin",
    });
    expect(response.headers.get("location")).toBe("/login/two-factor?redirectTo=%2Fadmin");
    expect((await jar.fetch("/admin")).status).toBe(302);
    const wrong = await jar.post("/login/two-factor", { code: "000000", redirectTo: "/admin" });
    expect(wrong.status).toBe(401);
  });

  it("a code from the app signs in once: the same code again is refused", async () => {
    // A new staff member with a key of their own, so that no other test uses its codes.
    const { jar, email, password } = await newStaffMember();
    expect((await jar.post("/admin/two-factor", { intent: "start", password })).status).toBe(302);
    const enrolment = await (await jar.fetch("/admin/two-factor")).text();
    const key = enrolment.match(/class="totp-key">([A-Z2-7 ]+)</)?.[1];
    expect(key, "the key shown as text").toBeTruthy();
    const enrolmentCode = await totpCode(key!);
    const enrolled = await jar.post("/admin/two-factor", { intent: "verify", code: enrolmentCode });
    expect(enrolled.headers.get("location")).toBe("/admin");

    async function signInWith(code: string) {
      const attempt = new Jar();
      const first = await attempt.post("/login", { email, password, redirectTo: "/admin" });
      expect(first.headers.get("location")).toBe("/login/two-factor?redirectTo=%2Fadmin");
      return {
        attempt,
        response: await attempt.post("/login/two-factor", { code, redirectTo: "/admin" }),
      };
    }

    const sessions = async () =>
      Number(
        (
          await query<{ count: string }>(
            `select count(*) from session s join "user" u on u.id = s.user_id where u.email = $1`,
            [email],
          )
        )[0]!.count,
      );
    const sessionsBefore = await sessions();

    // The code typed to turn two-factor sign-in on cannot sign in as well.
    const replayedEnrolment = await signInWith(enrolmentCode);
    expect(replayedEnrolment.response.status).toBe(401);
    expect(await replayedEnrolment.response.text()).toContain("That code has already been used");
    expect((await replayedEnrolment.attempt.fetch("/admin")).status).toBe(302);

    const code = await totpCode(key!);
    const accepted = await signInWith(code);
    expect(accepted.response.status).toBe(302);
    expect((await accepted.attempt.fetch("/admin")).status).toBe(200);
    const replayed = await signInWith(code);
    expect(replayed.response.status).toBe(401);
    expect((await replayed.attempt.fetch("/admin")).status).toBe(302);
    // Only the accepted sign-in made a session; each replay is in the audit log.
    expect(await sessions()).toBe(sessionsBefore + 1);
    const replays = await query(
      `select 1 from audit_log where action = 'staff.two-factor.replayed' and actor_email = $1`,
      [email],
    );
    expect(replays).toHaveLength(2);
  });

  it("/admin/setup with no token or a made-up one offers nothing", async () => {
    const page = await (await people.anonymous!.fetch("/admin/setup?token=made-up")).text();
    expect(page).toContain("This set-up link has expired or has already been used");
  });
});

describe("staff sessions", () => {
  it("end after eight hours: the next page asks to sign in again", async () => {
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    expect((await jar.fetch("/admin")).status).toBe(200);
    const token = sessionToken(jar);
    await query(`update session set created_at = now() - interval '9 hours' where token = $1`, [
      token,
    ]);
    const response = await jar.fetch("/admin");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/login\?redirectTo=%2Fadmin&expired/);
    expect((await query("select 1 from session where token = $1", [token])).length).toBe(0);
  });

  it("say a check-in sent after the eight hours was not saved", async () => {
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const token = sessionToken(jar);
    await query(`update session set created_at = now() - interval '9 hours' where token = $1`, [
      token,
    ]);
    const list = `/admin/events/${ids.eventId}/attendees`;
    const response = await jar.post(list, { intent: "arrived", bookingId: crypto.randomUUID() });
    expect(response.status).toBe(302);
    const signIn = response.headers.get("location")!;
    expect(signIn).toBe(`/login?redirectTo=${encodeURIComponent(list)}&expired&unsaved`);
    // React's separators between text parts taken out.
    const page = (await (await new Jar().fetch(signIn)).text()).replaceAll("<!-- -->", "");
    expect(page).toContain("staff sign in again after 8 hours");
    expect(page).toContain("What you just sent was not saved");
    // A page asked for (not a form sent) loses nothing, and is not told it did.
    const asked = await new Jar().fetch(`/login?redirectTo=${encodeURIComponent(list)}&expired`);
    expect(await asked.text()).not.toContain("was not saved");
  });

  it("need the code to have been typed in that session: one made without it is signed out", async () => {
    // As a session made before enrolment, or by an e-mailed link, would be.
    const { jar } = await signedInStaff(server.db, ["clinician"]);
    expect((await jar.fetch("/admin/results")).status).toBe(200);
    const token = sessionToken(jar);
    await query("update session set two_factor_verified = false where token = $1", [token]);
    const response = await jar.fetch("/admin/results");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Fresults");
    expect(await query("select 1 from session where token = $1", [token])).toEqual([]);
  });

  it("a deactivated account cannot sign in", async () => {
    const jar = await staffWithoutTwoFactor();
    const [person] = await query<{ email: string }>(
      `select u.email from "user" u join session s on s.user_id = u.id
       where s.token = $1`,
      [sessionToken(jar)],
    );
    await query(`update "user" set deactivated_at = now() where email = $1`, [person!.email]);
    const again = new Jar();
    const response = await again.post("/login", {
      email: person!.email,
      password: "marble teapot horizon",
      redirectTo: "/admin",
    });
    expect(response.status).toBe(401);
  });
});

describe("ending someone's staff access", () => {
  it("unticking every role keeps their own account: back office 403, their results still open", async () => {
    const { jar, email } = await newStaffMember();
    const [person] = await query<{ id: string }>(`select id from "user" where email = $1`, [email]);
    // Their own account works as a coordinator's first (the page asks for two-factor set-up).
    expect((await jar.fetch("/admin")).headers.get("location")).toBe("/admin/two-factor");

    const saved = await people.admin!.post("/admin/staff", {
      intent: "roles",
      userId: person!.id,
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/staff?done=staffAccessEnded");
    expect(await query("select role from user_role where user_id = $1", [person!.id])).toEqual([]);

    expect((await jar.fetch("/admin")).status).toBe(403);
    expect((await jar.fetch("/medical-results")).status).toBe(200);
  });
});
