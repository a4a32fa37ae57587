import type { Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { insertBooking, insertConsentFor } from "#tests/support/fixtures/bookings";
import { insertFreeEvent, insertPaidEvent, londonDay } from "#tests/support/fixtures/events";
import { uniqueId } from "#tests/support/fixtures/people";
import {
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  query,
  serverDatabaseForThisFile,
} from "./support";
import { fillConsent, holdFirstTime } from "./patient-support";
import { signedInPatient, signedInStaff } from "./staff-support";

/**
 * The error summary and the consent form's failures, as a person meets them: following a
 * summary link keeps every message on the page, a consent message names its question and the
 * link brings that question into view, and a failure while saving consent or confirming is said
 * on the page with the answers kept.
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

/** A page signed in as a new patient of this file's own. */
async function patientPage() {
  const { patient, jar } = await signedInPatient(server.db);
  const page = await newPage(browser());
  await jar.into(page.context());
  return { page, patient };
}

const freeEvent = () =>
  insertFreeEvent(server.db, {
    name: `Summary Check Morning ${uniqueId()}`,
    eventDate: londonDay(5),
  });

/** The form's own submit button (not "I need more time", nor the hidden one that keeps Enter sending). */
const consentSubmit = (page: Page) =>
  page.locator("form.consent-form button[type=submit]:not([name]):not([hidden])");

/** What the page shows as errors: the summary's links and the messages beside the fields. */
async function errorsShown(page: Page) {
  return {
    summary: await page.locator(".error-summary a").allTextContents(),
    inline: await page.locator(".field-error").count(),
  };
}

/**
 * Follows each link of the error summary in turn and checks that nothing shown went away and
 * that the link's field has focus. React Router settles a navigation within a tick or two, so a
 * short pause after each click is enough for a lost answer to show.
 */
async function followEverySummaryLink(page: Page) {
  await page.locator(".error-summary").waitFor();
  const before = await errorsShown(page);
  expect(before.summary.length, "the summary lists problems").toBeGreaterThan(0);
  expect(before.inline, "each problem is beside its field").toBeGreaterThan(0);
  for (let index = 0; index < before.summary.length; index++) {
    const link = page.locator(".error-summary a").nth(index);
    const target = (await link.getAttribute("href"))!.slice(1);
    await link.click();
    await page.waitForTimeout(400);
    expect(await errorsShown(page), `after following "${before.summary[index]}"`).toEqual(before);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(target);
  }
}

describe("following an error summary link keeps every error (JavaScript on)", () => {
  it("on sign-up", async () => {
    const page = await newPage(browser());
    await page.goto("/signup");
    await page.getByRole("button", { name: "Create account" }).click();
    await followEverySummaryLink(page);
    await page.context().close();
  });

  it("on sign-in", async () => {
    const page = await newPage(browser());
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await followEverySummaryLink(page);
    await page.context().close();
  });

  it("on the page that offers the times", async () => {
    const { page } = await patientPage();
    const event = await freeEvent();
    await page.goto(`/book-event?event=${event.id}`);
    await page.getByRole("button", { name: "Proceed to Consent Form" }).click();
    await followEverySummaryLink(page);
    await page.context().close();
  });

  it("on the consent form", async () => {
    const { page } = await patientPage();
    await holdFirstTime(page, (await freeEvent()).id);
    await consentSubmit(page).click();
    await followEverySummaryLink(page);
    await page.context().close();
  });

  it("on the back office's new event form", async () => {
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const page = await newPage(browser());
    await jar.into(page.context());
    await page.goto("/admin/events/new");
    await page.getByRole("button", { name: "Save as a draft" }).click();
    await followEverySummaryLink(page);
    await page.context().close();
  });

  it("on the attendees page's sample id", async () => {
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const { patient } = await signedInPatient(server.db);
    const event = await insertFreeEvent(server.db, {
      name: `Summary Check Clinic ${uniqueId()}`,
      eventDate: londonDay(0),
    });
    const place = await insertBooking(server.db, { eventId: event.id, userId: patient.id });
    await insertConsentFor(server.db, place, event.eventDate);
    const page = await newPage(browser());
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}/attendees`);
    await page.getByRole("button", { name: /^Record sample/ }).click();
    await followEverySummaryLink(page);
    await page.context().close();
  });
});

describe("the consent form's messages", () => {
  it("name their question, and a link brings the question into view", async () => {
    const { page } = await patientPage();
    await page.setViewportSize({ width: 1024, height: 700 });
    await holdFirstTime(page, (await freeEvent()).id);
    await consentSubmit(page).click();
    await page.locator(".error-summary").waitFor();

    // The spec's words, after the question they are about (written out here, not read from the code).
    const expected = [
      "Which PSA test will this be? This field is required.",
      "Has a relative had prostate cancer? This field is required.",
      "Has a relative had breast or ovarian cancer? This field is required.",
      "Do you take any of these medicines? This field is required.",
      "You must agree to the terms and conditions.",
      "You must consent that your samples will be taken and tested.",
    ];
    expect(await page.locator(".error-summary a").allTextContents()).toEqual(expected);
    // Beside each field, the same words (after the hidden "Error:").
    const inline = await page.locator(".field-error").allTextContents();
    expect(inline.map((text) => text.replace(/^Error:\s*/, ""))).toEqual(expected);
    // One place says what is wrong: no second box repeating the first message.
    const main = (await page.locator("main").textContent())!;
    expect(main.split(expected[0]!).length - 1, "the first message: summary and beside").toBe(2);
    expect(await page.getByRole("heading", { name: "Consent Required" }).count()).toBe(0);

    for (const message of expected) {
      await page.locator(".error-summary a", { hasText: message }).click();
      // The question (the legend of its group, or the checkbox's label) comes on to the screen
      // (the page scrolls smoothly, so it is waited for).
      const question = () =>
        page.evaluate(() => {
          const field = document.activeElement as HTMLElement;
          const text =
            field.closest("fieldset")?.querySelector(":scope > legend") ??
            document.querySelector(`label[for="${field.id}"]`);
          const box = text!.getBoundingClientRect();
          return {
            text: text!.textContent!,
            inView: box.top >= 0 && box.bottom <= window.innerHeight,
          };
        });
      await expect.poll(question, { message: `after following "${message}"` }).toMatchObject({
        inView: true,
      });
      const { text } = await question();
      expect(
        message.startsWith(text) ||
          text === "I agree to the terms and conditions." ||
          text === "I consent to a blood sample being taken and tested for PSA.",
      ).toBe(true);
    }
    await page.context().close();
  });
});

/**
 * The database refuses one step for one booking only: a trigger made by the test on its scratch
 * database, dropped afterwards, so the site's own code meets a real failure.
 */
const triggers: string[] = [];
afterEach(async () => {
  for (const name of triggers.splice(0)) {
    const [table, trigger] = name.split(":");
    await query(`drop trigger if exists ${trigger} on ${table}`);
    await query(`drop function if exists ${trigger}()`);
  }
});

async function refuse(table: "consent" | "booking", when: string) {
  const trigger = `forms_refuse_${uniqueId()}`;
  await query(
    `create function ${trigger}() returns trigger language plpgsql as $$
     begin raise exception 'refused by the test'; end $$`,
  );
  await query(
    `create trigger ${trigger} before insert or update on ${table} for each row when (${when}) execute function ${trigger}()`,
  );
  triggers.push(`${table}:${trigger}`);
  return async () => {
    await query(`drop trigger ${trigger} on ${table}`);
    await query(`drop function ${trigger}()`);
    triggers.splice(triggers.indexOf(`${table}:${trigger}`), 1);
  };
}

const bookingId = async (reference: string) =>
  (await query<{ id: string }>("select id from booking where reference = $1", [reference]))[0]!.id;

/** The consent answers fillConsent gives, still on the page. */
async function expectAnswersKept(page: Page) {
  const checked = (group: string, option: string) =>
    page.getByRole("group", { name: group }).getByLabel(option, { exact: true }).isChecked();
  expect(await checked("Which PSA test will this be?", "1st (my first PSA test)")).toBe(true);
  expect(await checked("Has a relative had prostate cancer?", "Yes")).toBe(true);
  expect(await page.getByLabel("Father", { exact: true }).isChecked()).toBe(true);
  expect(await checked("Has a relative had breast or ovarian cancer?", "No")).toBe(true);
  expect(await checked("Do you take any of these medicines?", "None")).toBe(true);
  expect(await page.getByLabel("I agree to the terms and conditions.").isChecked()).toBe(true);
  expect(
    await page
      .getByLabel("I consent to a blood sample being taken and tested for PSA.")
      .isChecked(),
  ).toBe(true);
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "with JavaScript off";
  describe(`a failure while booking says so on the page, answers kept (${mode})`, () => {
    async function consentPage() {
      const { jar } = await signedInPatient(server.db);
      const page = await newPage(browser(), { javaScriptEnabled });
      await jar.into(page.context());
      const event = await freeEvent();
      return { page, reference: await holdFirstTime(page, event.id) };
    }

    it("saving the consent: Consent Creation Failed", async () => {
      const { page, reference } = await consentPage();
      const allow = await refuse("consent", `new.booking_id = '${await bookingId(reference)}'`);
      await fillConsent(page);
      await consentSubmit(page).click();
      const alert = page.getByRole("alert").filter({ hasText: "Consent Creation Failed" });
      await alert.waitFor();
      expect(await alert.textContent()).toContain("Failed to create consent. Please try again.");
      // The button is at the foot of the form: the message comes into view (it takes focus).
      if (javaScriptEnabled)
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.textContent))
          .toContain("Consent Creation Failed");
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      expect(page.url()).toContain(`/book-event/consent?booking=${reference}`);
      await expectAnswersKept(page);
      const [row] = await query<{ status: string }>(
        "select status from booking where reference = $1",
        [reference],
      );
      expect(row!.status).toBe("held");

      // Once the database takes it again, the same answers book the place.
      await allow();
      await consentSubmit(page).click();
      await page.waitForURL(/\/booking-success\?booking=MHAT-/);
      await page.context().close();
    });

    it("confirming the booking: Booking Failed", async () => {
      const { page, reference } = await consentPage();
      await refuse(
        "booking",
        `new.id = '${await bookingId(reference)}' and new.status = 'confirmed'`,
      );
      await fillConsent(page);
      await consentSubmit(page).click();
      const alert = page.getByRole("alert").filter({ hasText: "Booking Failed" });
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        "Failed to confirm booking. Please try again later.",
      );
      await expectAnswersKept(page);
      // Nothing half-done: no consent without its booking's confirmation.
      const consents = await query(
        "select 1 from consent c join booking b on b.id = c.booking_id where b.reference = $1",
        [reference],
      );
      expect(consents).toEqual([]);
      await page.context().close();
    });
  });
}

describe("the finder's notice names the button that completes a booking", () => {
  /** The words the notice tells people to click. */
  async function buttonsNamedInNotice(page: Page) {
    await page.goto("/book-event-main");
    const notice = await page
      .getByRole("complementary", { name: "IMPORTANT - Please Read" })
      .textContent();
    return notice!;
  }

  it("a free event's last step is the button the notice names", async () => {
    const { page } = await patientPage();
    const notice = await buttonsNamedInNotice(page);
    await holdFirstTime(page, (await freeEvent()).id);
    const label = (await consentSubmit(page).textContent())!.trim();
    expect(label).toBe("Complete booking");
    expect(notice.toLowerCase()).toContain(`click ${label.toLowerCase()}`);
    await fillConsent(page);
    await consentSubmit(page).click();
    await page.waitForURL(/\/booking-success\?booking=MHAT-/);
    await page.context().close();
  });

  it("a paid event's consent button leads on to paying, as the notice says", async () => {
    const { page } = await patientPage();
    const notice = await buttonsNamedInNotice(page);
    const event = await insertPaidEvent(server.db, {
      name: `Summary Check Hall ${uniqueId()}`,
      eventDate: londonDay(6),
    });
    await holdFirstTime(page, event.id);
    const label = (await consentSubmit(page).textContent())!.trim();
    expect(label).toBe("Continue to payment");
    expect(notice).toContain(label);
    await page.context().close();
  });
});
