import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { insertPaidEvent, insertProduct } from "#tests/support/fixtures/events";
import { insertStaff, type StaffMember } from "#tests/support/fixtures/people";
import {
  baseURL,
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  pageProblems,
  query,
  serverDatabaseForThisFile,
  waitForMail,
} from "./support";
import { fillConsent, newPatientPage } from "./patient-support";
import { signIn, totpCode, uniqueEmail, type Jar } from "./staff-support";

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();
const run = promisify(execFile);

/**
 * The coordinator and the clinician of this journey, made with the fixtures (each with a TOTP key
 * of their own), who sign in with their password and a code as staff do. The admin comes from
 * create-admin below.
 */
const STAFF_PASSWORD = "saffron harbour kettle";
const staff: Record<"coordinator" | "clinician", StaffMember> = {} as never;
let productId = "";

beforeAll(async () => {
  const { db } = server;
  staff.coordinator = await insertStaff(db, ["coordinator"], { password: STAFF_PASSWORD });
  staff.clinician = await insertStaff(db, ["clinician"], { password: STAFF_PASSWORD });
  productId = (await insertProduct(db, 2500, "Journey PSA Blood Test")).id;
});

/** Signs one of the journey's staff in over HTTP: password, then a code from their own key. */
const signInAs = (role: keyof typeof staff) =>
  signIn({ email: staff[role].email, password: STAFF_PASSWORD }, staff[role].totpKey);

/** What the journey below carries from one step to the next. */
const journey = {
  adminEmail: "",
  adminPassword: "lantern pebble orchard",
  totpKey: "",
  eventName: `Halstead Rugby Club Screening ${Date.now().toString(36)}`,
  eventId: "",
  accessCode: "",
  patientEmail: "",
  reference: "",
  sampleId: `LAB-${Date.now().toString(36).toUpperCase()}`,
};

/** A London date `days` from today, as YYYY-MM-DD. */
function dateFromToday(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(date);
}

/** Opens a page as a staff member signed in without a browser (password and TOTP code). */
async function staffPage(jar: Jar, options: { width?: number } = {}) {
  const page = await newPage(browser(), {
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  await jar.into(page.context());
  return page;
}

/** The patient's side: unlock the private event with its code, choose a time, consent, pay at the fake PayPal. */
async function bookAndPay(eventId: string, accessCode: string | null) {
  const { page, email } = await newPatientPage(browser(), { javaScriptEnabled: false });
  await page.goto(`/event/${eventId}`);
  if (accessCode) {
    await page.getByRole("link", { name: "BOOK EVENT" }).click();
    const form = page.locator("#access-code");
    await form.getByLabel("Please enter Access Code").fill(accessCode);
    await form.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(/\/book-event\?event=/);
  } else {
    await page.goto(`/book-event?event=${eventId}`);
  }
  await page.locator(".radio__input:not([disabled])").first().check();
  await page.getByRole("button", { name: "Proceed to Consent Form" }).click();
  await page.waitForURL(/\/book-event\/consent/);
  await fillConsent(page);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.waitForURL(/\/checkout\?booking=/);
  await fetch(`${inject("fakePayPalUrl")}/__fake/outcome?order=next&outcome=approve`, {
    method: "POST",
  });
  await page.getByRole("button", { name: "Pay with PayPal or card" }).click();
  await page.waitForURL(/\/booking-success/);
  const [booking] = await query<{ reference: string; status: string; payment_status: string }>(
    `select b.reference, b.status, b.payment_status from booking b join "user" u on u.id = b.user_id
     where u.email = $1 and b.event_id = $2`,
    [email, eventId],
  );
  expect(booking).toMatchObject({ status: "confirmed", payment_status: "paid" });
  return { page, email, reference: booking!.reference };
}

/** The fake PayPal's record of refunds of one capture. */
async function refundsAtPayPal(bookingReference: string) {
  const [capture] = await query<{ capture_id: string }>(
    `select t.capture_id from payment_transaction t join booking b on b.id = t.booking_id
     where b.reference = $1 and t.kind = 'capture'`,
    [bookingReference],
  );
  const state = (await (await fetch(`${inject("fakePayPalUrl")}/__fake/state`)).json()) as {
    refunds: { captureId: string }[];
  };
  return state.refunds.filter((refund) => refund.captureId === capture!.capture_id);
}

/** Audit rows of one action about one person. */
async function auditRows(action: string, subjectEmail: string | null, actorEmail: string) {
  return query<{ action: string; ip_address: string | null }>(
    `select a.action, a.ip_address from audit_log a left join "user" u on u.id = a.subject_user_id
     where a.action = $1 and a.actor_email = $2 and ($3::text is null or u.email = $3)`,
    [action, actorEmail, subjectEmail],
  );
}

/** `npm run create-admin -- --email …` against the e2e server's database, as an operator runs it. */
async function createAdmin(email: string): Promise<string> {
  const { stdout } = await run("node", ["scripts/create-admin.mjs", "--email", email], {
    env: { ...process.env, DATABASE_URL: inject("databaseUrl"), APP_URL: baseURL() },
  });
  const link = stdout.match(/https?:\/\/\S+\/admin\/setup\?token=\S+/)?.[0];
  expect(link, stdout).toBeTruthy();
  return link!;
}

async function signInAsJourneyAdmin(page: Page) {
  await page.goto("/login?redirectTo=%2Fadmin");
  await page.getByLabel("Email address").fill(journey.adminEmail);
  await page.getByLabel("Password").fill(journey.adminPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/login\/two-factor/);
  await page.getByLabel("Code").fill(await totpCode(journey.totpKey));
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/admin$/);
}

describe("the first admin", () => {
  it("comes from create-admin's one-time link, sets a password and turns on two-factor sign-in", async () => {
    journey.adminEmail = uniqueEmail("first-admin");
    const link = await createAdmin(journey.adminEmail);
    // Nothing secret is printed but the link, and no password was given on the command line.
    const [invitation] = await query<{ roles: string; accepted_at: Date | null }>(
      "select roles::text, accepted_at from staff_invitation where email = $1",
      [journey.adminEmail],
    );
    expect(invitation).toEqual({ roles: "{admin}", accepted_at: null });

    const page = await newPage(browser());
    await page.goto(link);
    await expect.poll(() => page.getByText(journey.adminEmail).count()).toBeGreaterThan(0);
    await expectNoAxeViolations(page);
    await page.getByLabel("Your name").fill("Jordan First");
    await page.getByLabel("Choose a password").fill(journey.adminPassword);
    await page.getByLabel("Type the password again").fill(journey.adminPassword);
    await page.getByRole("button", { name: "Continue" }).click();

    // Every back-office page asks for two-factor sign-in until it is on. The password he has just
    // chosen counts: the key is shown at once, without asking for it again.
    await page.waitForURL(/\/admin\/two-factor$/);
    await expect.poll(() => page.locator(".totp-key").count()).toBe(1);
    expect(await page.getByLabel("Confirm your password").count()).toBe(0);
    await expect(page.getByRole("img", { name: /QR code/ }).count()).resolves.toBe(1);
    expect(await page.locator(".recovery-codes li").count()).toBe(10);
    await expectNoAxeViolations(page);

    // Only this browser, which has just given the password, sees the key: the session alone does not.
    const sessionOnly = await newPage(browser());
    const cookies = await page.context().cookies();
    await sessionOnly
      .context()
      .addCookies(cookies.filter((cookie) => cookie.name.endsWith("session_token")));
    await sessionOnly.goto("/admin/two-factor");
    expect(await sessionOnly.getByLabel("Confirm your password").count()).toBe(1);
    expect(await sessionOnly.locator(".totp-key").count()).toBe(0);
    await sessionOnly.context().close();

    // The key as text, for people who cannot scan: typed into an "app" (otplib) to make a code.
    journey.totpKey = (await page.locator(".totp-key").innerText()).replace(/\s/g, "");
    expect(journey.totpKey).toMatch(/^[A-Z2-7]{32,}$/);
    await page.getByLabel("6-digit code").fill("123456");
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await expect.poll(() => page.getByText("That code is not right").count()).toBeGreaterThan(0);
    await expectNoAxeViolations(page);
    await page.getByLabel("6-digit code").fill(await totpCode(journey.totpKey));
    await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await page.waitForURL(/\/admin$/);
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Dashboard" }).count())
      .toBe(1);
    await expectNoAxeViolations(page);
    // The one refusal was the wrong code's 400; nothing else went wrong in the browser.
    expect(pageProblems(page).filter((problem) => !problem.includes("status of 400"))).toEqual([]);

    // The link worked once.
    const again = await newPage(browser());
    await again.goto(link);
    await expect
      .poll(() => again.getByText("This set-up link has expired or has already been used").count())
      .toBe(1);
    const [row] = await query<{ two_factor_enabled: boolean }>(
      `select two_factor_enabled from "user" where email = $1`,
      [journey.adminEmail],
    );
    expect(row!.two_factor_enabled).toBe(true);
    await page.context().close();
    await again.context().close();
  });

  it("signs in again with password and code", async () => {
    const page = await newPage(browser());
    await signInAsJourneyAdmin(page);
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("an event from the back office to a result on the patient's page", () => {
  it("the admin creates a paid private event with an access code and publishes it", async () => {
    const page = await newPage(browser());
    await signInAsJourneyAdmin(page);
    await page.goto("/admin/events/new");
    await expectNoAxeViolations(page);
    // Saving an empty form shows every problem, beside its field and in the summary.
    await page.getByRole("button", { name: "Save as a draft" }).click();
    await expect.poll(() => page.getByRole("alert").count()).toBeGreaterThan(0);
    await expectNoAxeViolations(page);

    await page.getByLabel("Event name").fill(journey.eventName);
    await page.getByLabel("What is tested").selectOption(productId);
    await page.getByLabel("Price for this event in pounds (optional)").fill("25.00");
    await page.getByLabel("Yes, they pay when they book").check();
    await page.getByLabel("Lab", { exact: true }).selectOption("Partner laboratory");
    await page.getByLabel("Date", { exact: true }).fill(dateFromToday(7));
    await page.getByLabel("Start time").fill("10:00");
    await page.getByLabel("End time").fill("12:00");
    await page.getByLabel("Length of one appointment, in minutes").fill("20");
    await page.getByLabel("Total places").fill("12");
    await page.getByLabel("People seen at the same time").fill("2");
    await page.getByLabel("Kind of event").selectOption("community");
    await page.getByLabel("Everyone aged 40 to 80").check();
    await page.getByLabel(/^Private: people need an access code/).check();
    await page
      .getByLabel("Address line 1", { exact: true })
      .fill("Halstead Rugby Club, Coggeshall Road");
    await page.getByLabel("Town or city").fill("Halstead");
    await page.getByLabel("Postcode").fill("CO9 2JP");
    await page.getByLabel("Latitude (optional)").fill("51.9447");
    await page.getByLabel("Longitude (optional)").fill("0.6402");
    await page.getByRole("button", { name: "Save as a draft" }).click();
    await page.waitForURL(/\/admin\/events\/[0-9a-f-]{36}/);
    journey.eventId = new URL(page.url()).pathname.split("/").pop()!;
    await expectNoAxeViolations(page);

    // A draft is not on the site yet.
    const before = await newPage(browser());
    await before.goto("/book-event-main");
    expect(await before.getByText(journey.eventName).count()).toBe(0);

    await page.getByLabel("Who the code is for (optional)").fill("Halstead Rugby Club members");
    await page.getByLabel("Most uses (optional)").fill("40");
    await page.getByRole("button", { name: "Make a code" }).click();
    await expect.poll(() => page.locator(".notice-panel .totp-key").count()).toBe(1);
    journey.accessCode = (await page.locator(".notice-panel .totp-key").innerText()).trim();
    expect(journey.accessCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Publish this event" }).click();
    await expect.poll(() => page.getByText("This event is on the site.").count()).toBe(1);
    await expectNoAxeViolations(page);

    await before.goto("/book-event-main");
    await expect.poll(() => before.getByText(journey.eventName).count()).toBeGreaterThan(0);
    const changes = await query<{ action: string }>(
      "select action from audit_log where actor_email = $1 order by id",
      [journey.adminEmail],
    );
    expect(changes.map((row) => row.action)).toEqual([
      "staff.setup",
      "staff.two-factor",
      "event.create",
      "access-code.create",
      "event.publish",
    ]);
    await before.context().close();
    await page.context().close();
  });

  it("a patient unlocks it with the code, books a time and pays", async () => {
    expect(journey.eventId).not.toBe("");
    const booked = await bookAndPay(journey.eventId, journey.accessCode);
    journey.patientEmail = booked.email;
    journey.reference = booked.reference;
    await booked.page.context().close();
  });

  it("the coordinator checks him in on a tablet, records his sample and exports the lab CSV", async () => {
    const jar = await signInAs("coordinator");
    const page = await staffPage(jar, { width: 768 });
    // A week ahead, check-in has not opened: the list says when it does and offers no buttons.
    await page.goto(`/admin/events/${journey.eventId}/attendees`);
    expect(await page.getByText("Check-in opens on the day of the appointment").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Arrived for Alfred Ketteridge" }).count()).toBe(
      0,
    );
    // The day of the event comes (the test cannot move the server's clock, so it moves the event).
    await query("update event set event_date = $1 where id = $2", [
      dateFromToday(0),
      journey.eventId,
    ]);
    await page.goto(`/admin/events/${journey.eventId}/attendees`);
    await expectNoAxeViolations(page);
    // Nothing sideways at 768 px: every button and field is on the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      768,
    );

    await page.getByLabel("Search by name or booking reference").fill(journey.reference);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Arrived for Alfred Ketteridge" }).click();
    await expect
      .poll(() => page.getByRole("button", { name: /Undo .* for Alfred Ketteridge/ }).count())
      .toBe(1);
    const button = page.getByRole("button", { name: "Record sample for Alfred Ketteridge" });
    const box = await button.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    // A barcode scanner types the id and presses Enter.
    await page.getByLabel("Sample id for Alfred Ketteridge").fill(journey.sampleId);
    await page.getByLabel("Sample id for Alfred Ketteridge").press("Enter");
    await expect.poll(() => page.getByText(journey.sampleId).count()).toBeGreaterThan(0);
    await expectNoAxeViolations(page);

    const csv = await jar.fetch(`/admin/events/${journey.eventId}/lab.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="lab-/);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe("reference,name,date of birth,NHS number,sample id,event date,lab");
    expect(lines.slice(1)).toEqual([
      `${journey.reference},Alfred Ketteridge,1959-04-12,9434765919,${journey.sampleId},${dateFromToday(0)},Partner laboratory`,
    ]);

    // Every look at his details is in the audit log, with where it came from.
    const coordinator = staff.coordinator.email;
    const views = await auditRows("attendees.view", journey.patientEmail, coordinator);
    expect(views.length).toBeGreaterThan(0);
    expect(views.every((row) => row.ip_address)).toBe(true);
    expect(await auditRows("attendees.export", journey.patientEmail, coordinator)).not.toEqual([]);
    expect(await auditRows("checkin.update", journey.patientEmail, coordinator)).not.toEqual([]);
    await page.context().close();
  });

  it("the clinician imports the lab's file (one good row, one bad), releases the result, and the patient reads it", async () => {
    const jar = await signInAs("clinician");
    const page = await staffPage(jar);
    await page.goto("/admin/results/import");
    await expectNoAxeViolations(page);
    const file = [
      "reference,sample id,psa,unit,sample date",
      `${journey.reference},${journey.sampleId},0.84,ng/ml,${dateFromToday(0)}`,
      "MHAT-ZZZZ-ZZZZ,,1.10,ng/ml,",
    ].join("\r\n");
    await page.locator("input[name=file]").setInputFiles({
      name: "lab-results.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(file, "utf8"),
    });
    await page.getByRole("button", { name: "Upload and check" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Import 1 result" }).count()).toBe(1);
    // The bad row is reported, by its line, and will not be imported.
    expect(await page.getByText(/MHAT-ZZZZ-ZZZZ/).count()).toBeGreaterThan(0);
    expect(await page.getByText("No booking has this reference").count()).toBeGreaterThan(0);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Import 1 result" }).click();
    const imported = () =>
      query<{ id: string; psa_value: string; released_at: Date | null }>(
        `select r.id, r.psa_value, r.released_at from test_result r join booking b on b.id = r.booking_id
         where b.reference in ($1, 'MHAT-ZZZZ-ZZZZ')`,
        [journey.reference],
      );
    await expect.poll(async () => (await imported()).length).toBe(1);
    const results = await imported();
    expect(results).toEqual([{ id: expect.any(String), psa_value: "0.84", released_at: null }]);

    // Not released yet: the patient does not see it.
    const patient = await newPage(browser());
    await patient.goto("/login?redirectTo=%2Fmedical-results");
    await patient.getByLabel("Email address").fill(journey.patientEmail);
    await patient.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await patient.getByRole("button", { name: "Sign in" }).click();
    await patient.waitForURL(/\/medical-results/);
    const released = patient.getByText(
      "Green: your PSA level is in the normal range for your age. Have another test in 2 years.",
    );
    expect(await released.count()).toBe(0);

    await page.goto(`/admin/results/${results[0]!.id}`);
    await expectNoAxeViolations(page);
    await page.locator('input[name="flag"][value="green"]').check();
    await page.locator('input[name="retestYears"][value="2"]').check();
    await page.getByRole("button", { name: "Release the result" }).click();
    await expect
      .poll(
        async () =>
          (
            await query<{ released_at: Date | null }>(
              "select released_at from test_result where id = $1",
              [results[0]!.id],
            )
          )[0]!.released_at,
      )
      .not.toBeNull();
    await expectNoAxeViolations(page);

    const mail = await waitForMail(
      (message) =>
        message.to?.[0]?.address === journey.patientEmail &&
        message.subject === "Your PSA test results are ready",
    );
    expect(mail.text).toContain("/medical-results");
    expect(mail.text).not.toContain("0.84");
    expect(mail.text).not.toMatch(/green/i);

    await patient.reload();
    await expect.poll(() => released.count()).toBe(1);
    await expectNoAxeViolations(patient);

    const clinician = staff.clinician.email;
    expect(await auditRows("result.view", journey.patientEmail, clinician)).not.toEqual([]);
    expect(await auditRows("result.release", journey.patientEmail, clinician)).not.toEqual([]);
    expect(await auditRows("results.import.commit", null, clinician)).not.toEqual([]);
    await patient.context().close();
    await page.context().close();
  });

  it("the coordinator cancels another event with a paid booking: the attendee is told and refunded once", async () => {
    const created = await insertPaidEvent(
      server.db,
      {
        name: `Braintree Leisure Centre Screening ${Date.now().toString(36)}`,
        eventDate: dateFromToday(9),
        startTime: "09:00",
        endTime: "11:00",
        sessionDuration: 20,
        totalSpaces: 10,
        placesPerSlot: 1,
        labName: "Partner laboratory",
        addressLine1: "Panfield Lane",
        city: "Braintree",
        postcode: "CM7 5AL",
      },
      3000,
    );
    const booked = await bookAndPay(created.id, null);
    await booked.page.context().close();

    const jar = await signInAs("coordinator");
    const page = await staffPage(jar);
    await page.goto(`/admin/events/${created.id}`);
    await page.getByRole("link", { name: "Cancel this event" }).click();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Yes, cancel the event" }).click();
    await expect.poll(() => page.getByText(/1 refund made/).count()).toBeGreaterThan(0);
    await expectNoAxeViolations(page);

    const mail = await waitForMail(
      (message) =>
        message.to?.[0]?.address === booked.email &&
        (message.subject ?? "").startsWith("Cancelled:"),
    );
    expect(mail.text).toContain(booked.reference);
    expect(await refundsAtPayPal(booked.reference)).toHaveLength(1);
    const [row] = await query<{ status: string; payment_status: string }>(
      "select status, payment_status from booking where reference = $1",
      [booked.reference],
    );
    expect(row).toEqual({ status: "cancelled", payment_status: "refunded" });
    expect(await auditRows("event.cancel", null, staff.coordinator.email)).not.toEqual([]);

    // Pressing it again (a retry) refunds nothing more.
    await page.goto(`/admin/events/${created.id}`);
    const retry = page.getByRole("button", { name: "Retry refunds" });
    if (await retry.count()) await retry.click();
    expect(await refundsAtPayPal(booked.reference)).toHaveLength(1);
    await page.context().close();
  });

  it("the audit log cannot be changed, even directly in the database", async () => {
    await expect(query("update audit_log set action = 'tampered'")).rejects.toThrow(/append-only/);
    await expect(query("delete from audit_log")).rejects.toThrow(/append-only/);
  });
});
