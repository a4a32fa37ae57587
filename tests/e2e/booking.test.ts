import crypto from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { insertBooking } from "#tests/support/fixtures/bookings";
import { insertFreeEvent, insertPaidEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, uniqueId } from "#tests/support/fixtures/people";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import {
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  pageProblems,
  query,
  serverDatabaseForThisFile,
  waitForMail,
} from "./support";
import {
  fillConsent,
  holdFirstTime,
  newPatientPage,
  reachCheckout as goOnToCheckout,
} from "./patient-support";

/**
 * Booking, end to end: a free event with JavaScript and by keyboard alone, a paid event without
 * JavaScript through PayPal's redirect (against the fake PayPal: approved, declined then approved,
 * refused for good), medical results, and another account's booking and results answering 404.
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();
/** A new patient, signed up through the site's form, in a page of this file's browser. */
const signedInPage = (options: { javaScriptEnabled?: boolean } = {}) =>
  newPatientPage(browser(), options);

/** A free public event of the test's own, five days ahead, 10:00 to 12:00. */
const freeEvent = () =>
  insertFreeEvent(server.db, {
    name: `Booking Check Community Morning ${uniqueId()}`,
    eventDate: londonDay(5),
  });

/** A paid public event of the test's own (£25.00), six days ahead. */
const paidEvent = () =>
  insertPaidEvent(server.db, {
    name: `Booking Check Central Hall ${uniqueId()}`,
    eventDate: londonDay(6),
  });

async function expectNoSidewaysScroll(page: Page) {
  const width = page.viewportSize()?.width ?? 1280;
  await page.setViewportSize({ width: 320, height: 640 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width, height: 800 });
}

async function checkPage(page: Page) {
  await expectNoAxeViolations(page);
  await expectNoSidewaysScroll(page);
}

/**
 * axe and the reflow check run scripts in the page, which a page without JavaScript cannot, so
 * the same address is checked in a page with JavaScript and the same cookies.
 */
async function checkPageWithScripts(noScript: Page) {
  const page = await newPage(browser());
  await page.context().addCookies(await noScript.context().cookies());
  await page.goto(noScript.url());
  await checkPage(page);
  await page.context().close();
}

async function bookingOf(email: string) {
  return query<{ reference: string; status: string; payment_status: string }>(
    `select b.reference, b.status, b.payment_status from booking b join public.user u on u.id = b.user_id
     where u.email = $1 order by b.created_at`,
    [email],
  );
}

describe("a free event", () => {
  it("chooses a time, consents (empty first: every message), and is confirmed with a calendar e-mail", async () => {
    const { page, email } = await signedInPage();
    const event = await freeEvent();
    await page.goto(`/book-event?event=${event.id}`);
    await expect.poll(() => page.locator("h1").textContent()).toContain(event.name);
    expect(await page.getByRole("group", { name: "Available times" }).isVisible()).toBe(true);
    expect(
      await page.locator(".order-summary__total").getByText("Free", { exact: true }).isVisible(),
    ).toBe(true);
    await checkPage(page);

    // Proceeding without a time says so.
    await page.getByRole("button", { name: "Proceed to Consent Form" }).click();
    await expect
      .poll(() => page.locator(".error-summary").textContent())
      .toContain("Choose a time");
    await page.locator(".radio__input:not([disabled])").first().check();
    await page.getByRole("button", { name: "Proceed to Consent Form" }).click();
    await page.waitForURL(/\/book-event\/consent\?booking=MHAT-/);
    // Client-side navigation changes the address before the page renders: wait for the text.
    await page
      .getByText(/We are holding the \d\d:\d\d appointment for you until \d\d:\d\d/)
      .waitFor();
    await checkPage(page);
    // A free booking is made by this page's button: until when its time can be moved is said first.
    expect(await page.getByRole("region", { name: "If you cannot come" }).textContent()).toMatch(
      /You can change the time online until .+\. After that, please call our booking helpline on 01632 960 001\./,
    );

    await page.getByRole("button", { name: "Complete booking" }).click();
    const summary = page.locator(".error-summary");
    await summary.waitFor();
    const text = await summary.textContent();
    expect(text).toContain("This field is required.");
    expect(text).toContain("You must agree to the terms and conditions.");
    // Both consents are asked for at once, so that no new problem appears later (D-205).
    expect(text).toContain("You must consent that your samples will be taken and tested.");
    expect(text).toContain("Which PSA test will this be? This field is required.");
    await checkPage(page);

    // Yes without a relative asks which; the error clears once one is ticked.
    await page
      .getByRole("group", { name: "Has a relative had prostate cancer?" })
      .getByLabel("Yes", { exact: true })
      .check();
    await page.getByRole("button", { name: "Complete booking" }).click();
    await expect
      .poll(() => summary.textContent())
      .toContain("Please specify which relative(s) or provide additional details.");
    await page.getByLabel("I agree to the terms and conditions.").check();
    await page.getByRole("button", { name: "Complete booking" }).click();
    await expect
      .poll(() => summary.textContent())
      .toContain("You must consent that your samples will be taken and tested.");

    await fillConsent(page);
    await page.getByRole("button", { name: "Complete booking" }).click();
    await page.waitForURL(/\/booking-success\?booking=MHAT-/);
    await page.getByText("Successfully confirmed your booking!").waitFor();
    const reference = new URL(page.url()).searchParams.get("booking")!;
    expect(reference).toMatch(/^MHAT-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect(await page.locator(".reference").textContent()).toBe(reference);
    // Changing or cancelling: his own booking's page, with the phone as the other way.
    expect(
      await page.getByRole("link", { name: `your booking ${reference}` }).getAttribute("href"),
    ).toBe(`/my-bookings/${reference}`);
    expect(await page.locator("main").textContent()).toContain(
      "You can change the time online until",
    );
    await checkPage(page);
    // The deliberate mistakes above were answered 400; anything else would be a real problem.
    expect(pageProblems(page).filter((problem) => !/status of 40[09]/.test(problem))).toEqual([]);

    const [stored] = await bookingOf(email);
    expect(stored).toMatchObject({ reference, status: "confirmed" });
    const [consent] = await query<{ wording_version: string; gp_consent: boolean }>(
      "select c.wording_version, c.gp_consent from consent c join booking b on b.id = c.booking_id where b.reference = $1",
      [reference],
    );
    expect(consent!.wording_version).toBeTruthy();

    const mail = await waitForMail(
      (message) =>
        message.to?.[0]?.address === email && (message.subject ?? "").includes(reference),
    );
    const calendar = mail.attachments.find((file) => /\.ics$/.test(file.filename ?? ""));
    expect(calendar, "an .ics attachment").toBeTruthy();
    const ics =
      typeof calendar!.content === "string"
        ? calendar!.content
        : new TextDecoder().decode(calendar!.content as ArrayBuffer);
    expect(ics).toContain("BEGIN:VEVENT");
    expect(ics).toContain(reference);
    // No consent answers or health data in the e-mail.
    for (const answer of ["Father", "Proscar", "prostate cancer"])
      expect(mail.text ?? "").not.toContain(answer);
    await page.context().close();
  });

  it("can be booked with the keyboard alone", async () => {
    const { page, email } = await signedInPage();
    const event = await freeEvent();
    await page.goto(`/event/${event.id}`);
    const tabTo = async (matches: () => Promise<boolean>, limit = 80) => {
      for (let presses = 0; presses < limit; presses++) {
        await page.keyboard.press("Tab");
        if (await matches()) return;
      }
      throw new Error("never reached by Tab");
    };
    // What has focus now (nothing, just after a page loads).
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? "");
    const focusedAttribute = (name: string) =>
      page.evaluate((attribute) => document.activeElement?.getAttribute(attribute) ?? null, name);
    await tabTo(async () => (await focusedText()) === "BOOK EVENT");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/book-event\?event=/);
    await tabTo(async () => (await focusedAttribute("type")) === "radio");
    await page.keyboard.press("Space");
    await tabTo(async () => (await focusedText()) === "Proceed to Consent Form");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/book-event\/consent/);

    // Radios: Tab into each group, arrows choose; checkboxes: Space.
    const answerGroup = async (name: string) => {
      await tabTo(async () => (await focusedAttribute("name")) === name);
      await page.keyboard.press("Space");
    };
    await answerGroup("numberOfPsaTest");
    await tabTo(async () => (await focusedAttribute("name")) === "familyHistoryProstateCancer");
    await page.keyboard.press("ArrowDown"); // Yes → No
    await answerGroup("familyHistoryBreastOvarianCancer");
    await page.keyboard.press("ArrowDown");
    await answerGroup("medicationHistory");
    await answerGroup("terms");
    await answerGroup("sampleConsent");
    await tabTo(async () => (await focusedText()) === "Complete booking");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/booking-success/);
    await page.getByText("Successfully confirmed your booking!").waitFor();
    // The page's reference is this person's one booking, of this event, confirmed with consent.
    const reference = new URL(page.url()).searchParams.get("booking");
    const booked = await query<{ reference: string; event_id: string; status: string }>(
      `select b.reference, b.event_id, b.status from booking b join "user" u on u.id = b.user_id
       where u.email = $1`,
      [email],
    );
    expect(booked).toEqual([{ reference, event_id: event.id, status: "confirmed" }]);
    const consents = await query<{ gp_consent: boolean }>(
      "select c.gp_consent from consent c join booking b on b.id = c.booking_id where b.reference = $1",
      [reference],
    );
    expect(consents).toHaveLength(1);
    await page.context().close();
  });
});

describe("a detail the booking needs", () => {
  it("is added from the booking page, which it then returns to, without JavaScript", async () => {
    const { page, email } = await signedInPage({ javaScriptEnabled: false });
    await query(
      `update profile set date_of_birth = null
        where user_id = (select id from public.user where email = $1)`,
      [email],
    );
    const event = await freeEvent();
    await page.goto(`/book-event?event=${event.id}`);
    await page.getByRole("link", { name: "Add your date of birth" }).click();
    await page.getByRole("heading", { name: "Edit Personal Information" }).waitFor();
    await page.getByLabel("Day").fill("12");
    await page.getByLabel("Month").fill("4");
    await page.getByLabel("Year").fill("1959");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.waitForURL(
      (url) => url.pathname === "/book-event" && url.searchParams.get("event") === event.id,
    );
    await page.getByRole("button", { name: "Proceed to Consent Form" }).waitFor();
    await page.context().close();
  });
});

describe("a paid event without JavaScript, through PayPal's approval page", () => {
  const setNextOutcome = (outcome: string) =>
    fetch(`${inject("fakePayPalUrl")}/__fake/outcome?order=next&outcome=${outcome}`, {
      method: "POST",
    });

  async function reachCheckout() {
    const { page, email } = await signedInPage({ javaScriptEnabled: false });
    const event = await paidEvent();
    await goOnToCheckout(page, event.id);
    // The checkout's panel words its total as the spec does, with no subtotal line.
    expect(await page.locator(".order-summary dt").allTextContents()).toEqual([
      expect.any(String),
      "Order Total",
    ]);
    await checkPageWithScripts(page);
    return { page, email };
  }

  it("pays when PayPal approves, and is confirmed", async () => {
    const { page, email } = await reachCheckout();
    await setNextOutcome("approve");
    await page.getByRole("button", { name: "Pay with PayPal or card" }).click();
    await page.waitForURL(/\/booking-success/);
    await page.getByText("Successfully confirmed your booking!").waitFor();
    expect((await bookingOf(email))[0]).toMatchObject({
      status: "confirmed",
      payment_status: "paid",
    });
    await checkPageWithScripts(page);
    await page.context().close();
  });

  it("says so when the card is declined, and pays on the second try", async () => {
    const { page, email } = await reachCheckout();
    await setNextOutcome("decline");
    await page.getByRole("button", { name: "Pay with PayPal or card" }).click();
    await page.waitForURL(/\/checkout\?booking=.*payment=declined/);
    expect(await page.getByRole("alert").first().textContent()).toMatch(/not completed/);
    await checkPageWithScripts(page);
    expect((await bookingOf(email))[0]?.status).toBe("awaiting_payment");

    await setNextOutcome("approve");
    await page.getByRole("button", { name: "Pay with PayPal or card" }).click();
    await page.waitForURL(/\/booking-success/);
    expect((await bookingOf(email))[0]).toMatchObject({
      status: "confirmed",
      payment_status: "paid",
    });
    await page.context().close();
  });

  it("shows the non-recoverable message with PayPal's reference, and makes no booking", async () => {
    const { page, email } = await reachCheckout();
    await setNextOutcome("refuse");
    await page.getByRole("button", { name: "Pay with PayPal or card" }).click();
    await page.waitForURL(/\/checkout\/return/);
    const alert = await page.getByRole("alert").textContent();
    expect(alert).toMatch(/Non-recoverable error: .+ \(.+\)/);
    expect(alert).toContain(
      "Sorry, your transaction could not be processed. Please try again later or with a different payment card.",
    );
    await checkPageWithScripts(page);
    expect((await bookingOf(email)).some((row) => row.status === "confirmed")).toBe(false);
    await page.context().close();
  });
});

describe("medical results", () => {
  it("shows a patient's released results and appointments, with the traffic lights in words, and nothing unreleased", async () => {
    const { db } = server;
    const password = "velvet walnut compass";
    const patient = await insertPatient(db, { password });
    /** A visit of his to an event of its own that took place `daysAgo` days ago. */
    const visit = async (label: string, daysAgo: number) => {
      const eventDate = londonDay(-daysAgo);
      const event = await insertPaidEvent(db, {
        name: `Results Check ${label} ${uniqueId()}`,
        eventDate,
      });
      const booked = await insertSampledBooking(db, {
        eventId: event.id,
        userId: patient.id,
        eventDate,
        slotTime: "11:00",
      });
      return { event, booked };
    };
    const green = await visit("Rugby Club", 14);
    await insertResult(db, green.booked.id, {
      psaValue: "0.86",
      flag: "green",
      retestYears: 2,
      comments: null,
    });
    const amber = await visit("Corn Exchange", 5);
    await insertResult(db, amber.booked.id, {
      psaValue: "2.74",
      flag: "amber",
      retestYears: null,
    });
    // Imported but not released: he must not see it yet.
    const waiting = await visit("Masonic Centre", 2);
    await insertResult(db, waiting.booked.id, {
      psaValue: "5.31",
      flag: "red",
      retestYears: null,
      releasedAt: null,
    });
    // A sample taken a month ago whose result never came: someone to call, not "soon" for ever.
    const late = await visit("Guildhall", 30);
    const upcomingEvent = await insertFreeEvent(db, {
      name: `Results Check Library ${uniqueId()}`,
      eventDate: londonDay(5),
    });
    const upcoming = await insertBooking(db, { eventId: upcomingEvent.id, userId: patient.id });
    // A later appointment too: the upcoming ones are listed soonest first.
    const laterEvent = await insertFreeEvent(db, {
      name: `Results Check Later ${uniqueId()}`,
      eventDate: londonDay(40),
    });
    await insertBooking(db, { eventId: laterEvent.id, userId: patient.id });
    // One he did not come to: no result will come, and the page does not say it will.
    const missedEvent = await insertFreeEvent(db, {
      name: `Results Check Missed ${uniqueId()}`,
      eventDate: londonDay(-9),
    });
    await insertBooking(db, {
      eventId: missedEvent.id,
      userId: patient.id,
      noShowAt: new Date(Date.now() - 9 * 86_400_000),
    });

    const page = await newPage(browser());
    await page.goto("/login?redirectTo=%2Fmedical-results");
    await page.getByLabel("Email address").fill(patient.email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/medical-results$/);
    const main = page.locator("main");
    await expect.poll(() => main.textContent()).toContain("All Results");
    const card = async (name: string) =>
      (await page.locator(".result-item", { hasText: name }).textContent()) ?? "";

    const upcomingSection = page.getByRole("region", { name: "Upcoming appointments" });
    expect(await upcomingSection.locator(".result-item").count()).toBe(2);
    expect(await upcomingSection.textContent()).toContain(upcomingEvent.name);
    expect(await card(upcomingEvent.name)).toContain(
      `Upcoming appointment (reference ${upcoming.reference})`,
    );
    const greenCard = await card(green.event.name);
    expect(greenCard).toContain("0.86 ng/ml");
    expect(greenCard).toMatch(/Green: .*Have another test in 2 years/);
    expect(greenCard).toContain("Lab result ready");
    // No default comment beside a flag that already says when to test again (found by a review).
    expect(greenCard).not.toContain("Next appointment in years");
    // His results come before his upcoming appointments: they are what he came to read.
    const sections = await main.locator("h2").allTextContents();
    expect(sections.indexOf("Past appointments and results")).toBeGreaterThanOrEqual(0);
    expect(sections.indexOf("Past appointments and results")).toBeLessThan(
      sections.indexOf("Upcoming appointments"),
    );
    const amberCard = await card(amber.event.name);
    expect(amberCard).toContain("2.74 ng/ml");
    expect(amberCard).toMatch(/Amber: .*repeat the test in 3 months/);
    // What a raised level does not mean, when not to wait, and whom to ask (the patient review).
    expect(amberCard).toContain("A raised PSA level does not mean you have cancer.");
    expect(amberCard).toContain("see your GP without waiting for another test");
    expect(amberCard).toContain("call our medical enquiries line on 01632 960 003");
    expect(greenCard).not.toContain("A raised PSA level");
    expect(amberCard).toContain("Lab result ready");
    const waitingCard = await card(waiting.event.name);
    // A result still to come is said calmly, with when to expect it: no warning, no "N/A".
    expect(waitingCard).toContain("Your result is not back yet");
    expect(waitingCard).toContain("within two weeks");
    expect(waitingCard).not.toContain("No lab result");
    expect(waitingCard).not.toContain("N/A");
    expect(waitingCard).not.toContain("5.31");
    expect(waitingCard).not.toMatch(/Red:/);
    const lateCard = await card(late.event.name);
    expect(lateCard).toContain("more than three weeks since your test");
    expect(lateCard).toContain("01632 960 003");
    expect(lateCard).not.toContain("within two weeks");
    const missedCard = await card(missedEvent.name);
    expect(missedCard).toContain("No test was taken at this appointment");
    expect(missedCard).not.toContain("within two weeks");
    expect(await page.locator(".result-item").count()).toBe(7);
    // The spec's red "Appointment not linked" is for a result without an appointment, which
    // cannot be here (D-55): every result belongs to one booking, as the database insists.
    expect(await main.textContent()).not.toContain("Appointment not linked");
    const [bookingColumn] = await query<{ is_nullable: string }>(
      `select is_nullable from information_schema.columns
       where table_name = 'test_result' and column_name = 'booking_id'`,
    );
    expect(bookingColumn).toEqual({ is_nullable: "NO" });
    const upcomingNames = await page
      .getByRole("region", { name: "Upcoming appointments" })
      .locator(".result-item h3")
      .allTextContents();
    expect(upcomingNames).toEqual([upcomingEvent.name, laterEvent.name]);

    const response = await page.request.get("/medical-results");
    expect(response.headers()["cache-control"]).toContain("no-store");
    await checkPage(page);
    await page.context().close();
  });

  it("are nobody else's: another account's booking and results answer 404", async () => {
    const owner = await signedInPage();
    const event = await freeEvent();
    const reference = await holdFirstTime(owner.page, event.id);
    const [ownerProfile] = await query<{ id: string }>(
      "select p.id from profile p join public.user u on u.id = p.user_id where u.email = $1",
      [owner.email],
    );

    const other = await signedInPage();
    for (const path of [
      `/book-event/consent?booking=${reference}`,
      `/checkout?booking=${reference}`,
      `/booking-success?booking=${reference}`,
    ]) {
      const response = await other.page.goto(path);
      expect(response?.status(), path).toBe(404);
    }
    const api = await other.page.request.get(`/api/medical/results/${ownerProfile!.id}`);
    expect(api.status()).toBe(404);
    const own = await owner.page.request.get(`/api/medical/results/${ownerProfile!.id}`);
    expect(own.status()).toBe(200);
    await owner.page.context().close();
    await other.page.context().close();
  });
});

describe("the stand-alone consent page (/test-consent)", () => {
  /** The link staff would send, signed here from the server's own secret (read from its database). */
  async function signedLink(profileId: string, testDate: string, expires: number) {
    const [row] = await query<{ value: string }>(
      "select value #>> '{}' as value from app_meta where key = 'generated_auth_secret'",
    );
    const signature = crypto
      .createHmac("sha256", row!.value)
      .update(`test-consent|${profileId}|${testDate}|${expires}`)
      .digest("base64url");
    return `/test-consent?${new URLSearchParams({
      profile_id: profileId,
      test_date: testDate,
      expires: String(expires),
      signature,
    })}`;
  }

  it("refuses a link without its parameters, a forged one, and someone else's profile", async () => {
    const owner = await signedInPage();
    const [ownerProfile] = await query<{ id: string }>(
      "select p.id from profile p join public.user u on u.id = p.user_id where u.email = $1",
      [owner.email],
    );
    const invalid = "Invalid or missing parameters. Please check your link or contact support.";
    const stranger = await signedInPage();
    for (const path of [
      "/test-consent",
      `/test-consent?profile_id=${ownerProfile!.id}&test_date=2026-12-01`,
      `/test-consent?profile_id=${ownerProfile!.id}&test_date=2026-12-01&expires=9999999999&signature=forged`,
      // As long as a signature in characters, longer in bytes: refused, not a server error.
      `/test-consent?profile_id=${ownerProfile!.id}&test_date=2026-12-01&expires=9999999999&signature=${encodeURIComponent("é".repeat(43))}`,
    ]) {
      const response = await stranger.page.goto(path);
      expect(response?.status(), path).toBe(400);
      expect(await stranger.page.getByRole("alert").textContent()).toBe(invalid);
    }
    await checkPage(stranger.page);
    // The owner, signed in, may use the plain address.
    const own = await owner.page.goto(
      `/test-consent?profile_id=${ownerProfile!.id}&test_date=2026-12-01`,
    );
    expect(own?.status()).toBe(200);
    // A day that does not exist is not a test date, even for him.
    const notADay = await owner.page.goto(
      `/test-consent?profile_id=${ownerProfile!.id}&test_date=2026-02-30`,
    );
    expect(notADay?.status()).toBe(400);
    await owner.page.context().close();
    await stranger.page.context().close();
  });

  it("keeps every answer, and says so at the top, when saving them fails", async () => {
    const { page: ownerPage, email } = await signedInPage();
    await ownerPage.context().close();
    const [profile] = await query<{ id: string; user_id: string }>(
      "select p.id, p.user_id from profile p join public.user u on u.id = p.user_id where u.email = $1",
      [email],
    );
    // The database refuses this man's consent, as a failing disk or a lost connection would.
    const refusal = `refuse_consent_${uniqueId().replace(/\W/g, "")}`.toLowerCase();
    await query(
      `create function ${refusal}() returns trigger language plpgsql as
       $$ begin raise exception 'refused for the test'; end $$`,
    );
    await query(
      `create trigger ${refusal} before insert on consent for each row
       when (new.user_id = '${profile!.user_id}') execute function ${refusal}()`,
    );
    // Without JavaScript: the page comes back whole from the server, answers and all.
    const page = await newPage(browser(), { javaScriptEnabled: false });
    try {
      const expires = Math.floor(Date.now() / 1000) + 3600;
      await page.goto(await signedLink(profile!.id, "2026-12-04", expires));
      await fillConsent(page);
      await page.getByRole("button", { name: "Submit" }).click();
      const alert = page.getByRole("alert").filter({ hasText: "Your consent was not saved" });
      await alert.waitFor();
      expect(await alert.textContent()).toContain("Failed to save consent. Please try again.");
      expect(
        await page
          .getByRole("group", { name: "Which PSA test will this be?" })
          .getByLabel("1st")
          .isChecked(),
      ).toBe(true);
      expect(
        await page
          .getByLabel("I consent to a blood sample being taken and tested for PSA.")
          .isChecked(),
      ).toBe(true);
    } finally {
      await query(`drop trigger if exists ${refusal} on consent`);
      await query(`drop function if exists ${refusal}()`);
      await page.context().close();
    }
  });

  it("takes consent from a signed link, signed in or not, and stores it with its wording version", async () => {
    const { page: ownerPage, email } = await signedInPage();
    await ownerPage.context().close();
    const [profile] = await query<{ id: string }>(
      "select p.id from profile p join public.user u on u.id = p.user_id where u.email = $1",
      [email],
    );
    const link = await signedLink(profile!.id, "2026-12-03", Math.floor(Date.now() / 1000) + 3600);
    const page = await newPage(browser());
    await page.goto(link);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.locator(".error-summary").waitFor();
    expect(await page.locator(".error-summary").textContent()).toContain("This field is required.");
    await checkPage(page);
    await fillConsent(page);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Consent form submitted successfully!").waitFor();
    const stored = await query<{ test_date: string; booking_id: string | null }>(
      `select to_char(c.test_date, 'YYYY-MM-DD') as test_date, c.booking_id from consent c
       join profile p on p.user_id = c.user_id where p.id = $1`,
      [profile!.id],
    );
    expect(stored).toEqual([{ test_date: "2026-12-03", booking_id: null }]);
    await page.context().close();
  });
});
