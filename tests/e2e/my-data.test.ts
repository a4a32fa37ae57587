import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { consent } from "#app/db/schema";
import { consentForm, insertBooking } from "#tests/support/fixtures/bookings";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, uniqueId } from "#tests/support/fixtures/people";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import { tablesHolding, validNhsNumber } from "#tests/support/personal-data";
import {
  baseURL,
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  pageProblems,
  query,
  serverDatabaseForThisFile,
} from "./support";

/**
 * Issue 16, part 5 (UK GDPR): "My data" shows and downloads everything held about the signed-in
 * man and nothing of anyone else; "Delete my account" erases him (with or without JavaScript),
 * signs him out, and he cannot sign in again; the database then holds nothing that names him but
 * the result the clinic keeps apart.
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();
const PASSWORD = "a long and private passphrase 77";

let labValues = 0;
const labValue = () =>
  `${Math.floor(Math.random() * 900) + 100}.${String(++labValues).padStart(3, "0")}`;

/** A man with a profile, a tested booking and its released result, and consent answers. */
async function manWithResult(label: string) {
  const id = uniqueId();
  const details = {
    firstName: `${label}${id}`,
    lastName: `Surname${id}`,
    email: `${label.toLowerCase()}-${id}@example.com`,
    phone: `01632 96${id.slice(0, 4)}`,
    nhsNumber: validNhsNumber(),
    homeAddressLine1: `${id} Orchard Way`,
  };
  const person = await insertPatient(server.db, { ...details, password: PASSWORD });
  const eventDate = londonDay(-5);
  const ev = await insertFreeEvent(server.db, { name: `${label} Screening ${id}`, eventDate });
  const tested = await insertSampledBooking(server.db, {
    eventId: ev.id,
    userId: person.id,
    eventDate,
  });
  const psaValue = labValue();
  await insertResult(server.db, tested.id, {
    psaValue,
    releasedAt: new Date(Date.now() - 86_400_000),
  });
  const secret = `${label}-secret-${id}`;
  await server.db.insert(consent).values({
    bookingId: tested.id,
    userId: person.id,
    testDate: eventDate,
    answers: { ...consentForm.answers, motherSideDetails: secret },
    gpConsent: true,
    wordingVersion: "2026-01",
    agreedAt: new Date(Date.now() - 7 * 86_400_000),
  });
  return {
    ...person,
    ...details,
    reference: tested.reference,
    psaValue,
    secret,
    shown: [
      details.firstName,
      details.lastName,
      details.email,
      details.phone,
      details.homeAddressLine1,
      psaValue,
      secret,
      tested.reference,
    ],
    needles: [
      details.firstName,
      details.lastName,
      details.email,
      details.phone,
      details.nhsNumber,
      details.homeAddressLine1,
    ],
  };
}

/** Signs in through the form, going on to `target` (or staying on /login when refused). */
async function signIn(page: Page, email: string, target = "/portal") {
  await page.goto(`/login?redirectTo=${encodeURIComponent(target)}`);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("My data", () => {
  it("shows and downloads his own data, and nothing of another man's", async () => {
    const me = await manWithResult("Exporter");
    const other = await manWithResult("Neighbour");
    const page = await newPage(browser(), { acceptDownloads: true });
    await signIn(page, me.email, "/portal");
    await page.waitForURL(/\/portal$/);
    await page
      .getByRole("navigation", { name: "Your account" })
      .getByRole("link", { name: "My data" })
      .click();
    await page.getByRole("heading", { name: "My data", level: 1 }).waitFor();
    const text = await page.locator("main").innerText();
    for (const value of [...me.shown, "Exporter"]) expect(text).toContain(value);
    // His result in the words his results page uses.
    expect(text).toContain(
      "Green: your PSA level is in the normal range for your age. Have another test in 2 years.",
    );
    const nhs = me.nhsNumber;
    expect(text).toContain(`${nhs.slice(0, 3)} ${nhs.slice(3, 6)} ${nhs.slice(6)}`);
    for (const value of [...other.shown, other.nhsNumber]) expect(text).not.toContain(value);
    await expectNoAxeViolations(page);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download my data" }).click(),
    ]);
    const file = await readFile((await download.path())!, "utf8");
    const json = JSON.parse(file) as { profile: { nhsNumber: string } };
    expect(json.profile.nhsNumber).toBe(me.nhsNumber);
    for (const value of me.shown) expect(file).toContain(value);
    for (const value of [...other.shown, other.nhsNumber]) expect(file).not.toContain(value);

    const response = await page.request.get("/my-data.json");
    expect(response.headers()["cache-control"]).toBe("no-store");
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="my-data-/);
    expect(pageProblems(page)).toEqual([]);
    await page.context().close();

    const audited = await query<{ details: { format: string } }>(
      "select details from audit_log where subject_user_id = $1 and action = 'my-data.export'",
      [me.id],
    );
    expect(audited.map((row) => row.details.format).sort()).toEqual(["json", "json", "page"]);
  });

  it("sends anyone signed out to sign in, page and file alike", async () => {
    const response = await fetch(`${baseURL()}/my-data.json`, {
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
  });
});

describe.each([
  { javaScript: true, name: "with JavaScript" },
  { javaScript: false, name: "without JavaScript" },
])("Delete my account, $name", ({ javaScript }) => {
  it("says what goes and what stays, asks again, deletes, signs him out, and he cannot sign in", async () => {
    const me = await manWithResult(javaScript ? "Leaverjs" : "Leavernojs");
    const other = await manWithResult("Remainer");
    const page = await newPage(browser(), { javaScriptEnabled: javaScript });
    await signIn(page, me.email, "/my-data");
    await page.waitForURL(/\/my-data$/);
    await page.getByRole("link", { name: "delete it" }).click();
    await page.getByRole("heading", { name: "What we keep, and for how long" }).waitFor();
    await expect(page.locator("main").innerText()).resolves.toContain("8 years");

    // Sent empty, then with a wrong password: a message beside each field and in the summary.
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.locator(".error-summary").waitFor();
    await expect(page.locator(".error-summary").innerText()).resolves.toContain(
      "Enter your password",
    );
    await expect(page.locator(".error-summary").innerText()).resolves.toContain("Tick the box");
    // axe runs in the page, so only where it runs scripts (html-validity's tour covers both).
    if (javaScript) await expectNoAxeViolations(page);
    await page.getByLabel("Your password").fill("not the password");
    await page.getByLabel(/I understand that my account/).check();
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.getByText("The password is not right").first().waitFor();
    // The tick is kept; the password never is.
    await expect(page.getByLabel(/I understand that my account/).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel("Your password").inputValue()).resolves.toBe("");

    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL(/\/account-deleted$/);
    await page.getByRole("heading", { name: "Your account has been deleted" }).waitFor();
    if (javaScript) await expectNoAxeViolations(page);

    // Signed out: the portal asks him to sign in, and his password no longer opens anything.
    await page.goto("/portal");
    await page.waitForURL(/\/login/);
    await signIn(page, me.email);
    await page.getByText("The email address or password is not right").first().waitFor();
    expect(pageProblems(page).filter((problem) => !problem.includes("status of 4"))).toEqual([]);
    await page.context().close();

    // Nothing in any table names him but the result kept apart; his contact details nowhere.
    expect(await tablesHolding(server.db, me.needles)).toEqual({ retained_result: 1 });
    expect(
      await tablesHolding(server.db, [me.email, me.phone, me.homeAddressLine1, me.secret]),
    ).toEqual({});
    // The other man is untouched.
    expect(Object.keys(await tablesHolding(server.db, [other.email]))).toEqual(
      expect.arrayContaining(["user", "profile"]),
    );
  });
});

describe("Delete my account while an appointment is ahead", () => {
  it("asks him to cancel it first, with a link to My bookings, and offers no form", async () => {
    const me = await manWithResult("Booked");
    const ahead = await insertFreeEvent(server.db, {
      name: `Ahead Screening ${uniqueId()}`,
      eventDate: londonDay(9),
    });
    const upcoming = await insertBooking(server.db, { eventId: ahead.id, userId: me.id });
    const page = await newPage(browser());
    await signIn(page, me.email, "/delete-account");
    await page.waitForURL(/\/delete-account$/);
    await page.getByRole("heading", { name: "You cannot delete your account yet" }).waitFor();
    const text = await page.locator("main").innerText();
    expect(text).toContain(upcoming.reference);
    // The page's own link (the portal's navigation, beside it, has one too).
    const content = page.locator(".portal-panel ~ div");
    expect(await content.getByRole("link", { name: "My bookings" }).getAttribute("href")).toBe(
      "/my-bookings",
    );
    expect(await page.getByRole("button", { name: "Delete my account" }).count()).toBe(0);
    await page.context().close();
  });
});
