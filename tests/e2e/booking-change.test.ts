import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { booking, consent } from "#app/db/schema";
import {
  consentForm,
  insertBooking,
  insertEvent,
  insertProduct,
  londonDay,
  uniqueId,
} from "#tests/support/fixtures";
import { signedInPatient, type Jar } from "./staff-support";
import {
  baseURL,
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  pageProblems,
  serverDatabaseForThisFile,
  waitForMail,
} from "./support";

/**
 * A patient moves his own confirmed booking to another time, in the built site: with JavaScript
 * and without, to another time of his event and to another event, and the e-mail with both
 * calendar entries arrives. Another person's booking is a 404.
 */
const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

/**
 * A paid product, two events of it 10 and 12 days ahead (10:00 to 12:00, 30-minute times of one
 * place each), and a signed-in patient with a confirmed, paid booking at the first, at 10:00.
 */
async function bookedPatient() {
  const db = server.db;
  const product = await insertProduct(db, 2500);
  const common = { paymentRequired: true, placesPerSlot: 1, totalSpaces: 4 };
  const first = await insertEvent(db, product.id, {
    ...common,
    name: `Change Screening ${uniqueId()}`,
    eventDate: londonDay(10),
  });
  const second = await insertEvent(db, product.id, {
    ...common,
    name: `Other Change Screening ${uniqueId()}`,
    eventDate: londonDay(12),
  });
  const { patient, jar } = await signedInPatient(db);
  const row = await insertBooking(db, {
    eventId: first.id,
    userId: patient.id,
    slotTime: "10:00",
    pricePence: 2500,
    paymentRequired: true,
    paymentStatus: "paid",
  });
  await db.insert(consent).values({
    bookingId: row.id,
    userId: patient.id,
    testDate: first.eventDate,
    answers: consentForm,
    gpConsent: true,
    wordingVersion: "test-1",
    agreedAt: new Date(),
  });
  return { first, second, patient, jar, row };
}

async function pageFor(jar: Jar, javaScriptEnabled = true): Promise<Page> {
  const page = await newPage(browser(), { javaScriptEnabled });
  await jar.into(page.context());
  page.setDefaultTimeout(10_000);
  return page;
}

async function freeTimes(eventId: string, eventDate: string): Promise<string[]> {
  const response = await fetch(`${baseURL()}/api/events/${eventId}/slots`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as Record<string, { availableTimeSlots: string[] }>;
  return body[eventDate]!.availableTimeSlots;
}

const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, "");

describe("changing one's own booking", () => {
  it("moves to another time of the same event: the old time is free again, the new one taken, and the e-mail has both calendar entries", async () => {
    const { first, patient, jar, row } = await bookedPatient();
    expect(await freeTimes(first.id, first.eventDate)).toEqual(["10:30", "11:00", "11:30"]);
    const page = await pageFor(jar);

    await page.goto(`/my-bookings/${row.reference}/change`);
    await page.getByRole("heading", { name: "Change your appointment" }).waitFor();
    // The page has no script (D-140): it is ready as it arrives.
    expect(await page.locator("script").count()).toBe(0);
    await expect(page.getByText("You can change the time online until").count()).resolves.toBe(1);
    // His own time is shown and cannot be chosen.
    await expect(page.getByLabel("10:00 (your time now)").isDisabled()).resolves.toBe(true);
    await expectNoAxeViolations(page);

    // Nothing chosen: the error summary, and the time beside it.
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.locator(".error-summary").getByText("Choose a new time").waitFor();
    await expectNoAxeViolations(page);

    await page.getByLabel("11:00", { exact: true }).check();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("heading", { name: "Check your change" }).waitFor();
    const now = page.locator(".change-compare section").nth(0);
    const next = page.locator(".change-compare section").nth(1);
    await expect(now.textContent()).resolves.toContain("10:00 to 10:30");
    await expect(next.textContent()).resolves.toContain("11:00 to 11:30");
    await expectNoAxeViolations(page);

    // A page of its own (Continue redirects to it), so Back later comes to a page, not a form.
    expect(new URL(page.url()).searchParams.get("time")).toBe("11:00");

    await page.getByRole("button", { name: "Confirm the change" }).click();
    await page.getByRole("heading", { name: "Your appointment has been changed" }).waitFor();
    await expectNoAxeViolations(page);

    // Back: not the browser's "Confirm form resubmission", but his booking, at its new time.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === `/my-bookings/${row.reference}`);
    expect(await page.locator("main").textContent()).toContain("11:00");

    expect(await freeTimes(first.id, first.eventDate)).toEqual(["10:00", "10:30", "11:30"]);
    const [moved] = await server.db.select().from(booking).where(eq(booking.id, row.id));
    expect(moved).toMatchObject({ slotTime: "11:00", calendarVersion: 1, paymentStatus: "paid" });

    const mail = await waitForMail(
      (message) =>
        message.to?.some((to) => to.address === patient.email) === true &&
        (message.subject ?? "").includes("new time"),
    );
    expect(mail.text).toContain(`/my-bookings/${row.reference}`);
    const oldTime = await waitForMail(
      (message) =>
        message.to?.some((to) => to.address === patient.email) === true &&
        (message.subject ?? "").includes("old") &&
        (message.subject ?? "").includes(row.reference),
    );
    // Two messages, one calendar file each: mail programs act on one per message.
    const calendars = [mail, oldTime].flatMap((message) =>
      message.attachments.map((file) =>
        unfolded(
          typeof file.content === "string" ? file.content : new TextDecoder().decode(file.content),
        ),
      ),
    );
    expect(calendars).toHaveLength(2);
    const added = calendars.find((ics) => ics.includes("METHOD:PUBLISH"))!;
    const removed = calendars.find((ics) => ics.includes("METHOD:CANCEL"))!;
    expect(added).toContain(`UID:${row.reference}-2@`);
    expect(removed).toContain(`UID:${row.reference}@`);
    expect(removed).toContain("STATUS:CANCELLED");
    // The answer to "Continue" with no time chosen is a 400, which the browser reports.
    expect(pageProblems(page).filter((problem) => !problem.includes("status of 400"))).toEqual([]);
    await page.context().close();
  });

  it("moves to another event without JavaScript, keeping what was chosen on an error", async () => {
    const { first, second, jar, row } = await bookedPatient();
    // (axe runs in the page, so it checks these pages in the test above, with scripts on.)
    const page = await pageFor(jar, false);

    await page.goto(`/my-bookings/${row.reference}/change`);
    await page.getByLabel(new RegExp(second.name)).check();
    await page.getByRole("button", { name: "Show the times" }).click();
    await page.waitForURL(new RegExp(`event=${second.id}`));
    await page.getByRole("group", { name: /Times at Other Change Screening/ }).waitFor();
    // At its times, not at the top of the page.
    expect(new URL(page.url()).hash).toBe("#choose-time-title");

    // Continue without a time: the error, and still the other event's times.
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.locator(".error-summary").getByText("Choose a new time").waitFor();
    await page.getByRole("group", { name: /Times at Other Change Screening/ }).waitFor();

    await page.getByLabel("10:30", { exact: true }).check();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("heading", { name: "Check your change" }).waitFor();
    await expect(page.locator(".change-compare").textContent()).resolves.toContain(second.name);
    // His refund follows the new day: said before he confirms.
    expect(await page.locator("main").textContent()).toMatch(
      /After this change, you can cancel for a full refund until the end of \w+day, \d\d \w+ \d{4}\./,
    );
    await page.getByRole("button", { name: "Confirm the change" }).click();
    await page.getByRole("heading", { name: "Your appointment has been changed" }).waitFor();

    const [moved] = await server.db.select().from(booking).where(eq(booking.id, row.id));
    expect(moved).toMatchObject({ eventId: second.id, slotTime: "10:30" });
    const [kept] = await server.db.select().from(consent).where(eq(consent.bookingId, row.id));
    expect(kept!.testDate).toBe(second.eventDate);
    expect(await freeTimes(first.id, first.eventDate)).toEqual([
      "10:00",
      "10:30",
      "11:00",
      "11:30",
    ]);
    expect(await freeTimes(second.id, second.eventDate)).toEqual(["10:00", "11:00", "11:30"]);
    await page.context().close();
  });

  it("works by keyboard alone", async () => {
    const { jar, row } = await bookedPatient();
    const page = await pageFor(jar);
    await page.goto(`/my-bookings/${row.reference}/change`);
    // The page has no script (D-140): it is ready as it arrives.
    expect(await page.locator("script").count()).toBe(0);
    // Into the times: the first free one takes focus; an arrow key moves to the next.
    await page.locator(".radios--times .radio__input:not([disabled])").first().focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Space");
    await expect(page.getByLabel("11:00", { exact: true }).isChecked()).resolves.toBe(true);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Check your change" }).waitFor();
    await page.getByRole("button", { name: "Confirm the change" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Your appointment has been changed" }).waitFor();
    await page.context().close();
  });

  it("answers 404 for another person's booking and for an unknown reference", async () => {
    const { row } = await bookedPatient();
    const { jar: strangerJar } = await signedInPatient(server.db);
    const page = await pageFor(strangerJar);
    for (const reference of [row.reference, "MHAT-ZZZZ-ZZZZ"]) {
      const response = await page.goto(`/my-bookings/${reference}/change`);
      expect(response!.status()).toBe(404);
    }
    const posted = await strangerJar.post(`/my-bookings/${row.reference}/change`, {
      intent: "confirm",
      event: row.eventId,
      slotTime: "11:00",
    });
    expect(posted.status).toBe(404);
    const [unchanged] = await server.db.select().from(booking).where(eq(booking.id, row.id));
    expect(unchanged!.slotTime).toBe("10:00");
    await page.context().close();
  });
});

describe("POST /api/bookings/{reference}/change", () => {
  const post = (jar: Jar, reference: string, body: unknown) =>
    jar.fetch(`/api/bookings/${reference}/change`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("moves the signed-in person's booking, and answers 4xx JSON to anything else", async () => {
    const { first, second, jar, row } = await bookedPatient();

    const missing = await post(jar, row.reference, { eventId: first.id });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: "slotTime is required" });

    const taken = await post(jar, row.reference, { eventId: first.id, slotTime: "10:00" });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ details: { reason: "same-time" } });

    const { jar: strangerJar } = await signedInPatient(server.db);
    const stranger = await post(strangerJar, row.reference, {
      eventId: second.id,
      slotTime: "11:00",
    });
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ error: "Booking not found" });

    const moved = await post(jar, row.reference, { eventId: second.id, slotTime: "11:00" });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({
      reference: row.reference,
      eventId: second.id,
      eventDate: second.eventDate,
      slotTime: "11:00",
    });
    expect(await freeTimes(second.id, second.eventDate)).toEqual(["10:00", "10:30", "11:30"]);

    const signedOut = await fetch(`${baseURL()}/api/bookings/${row.reference}/change`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseURL() },
      body: JSON.stringify({ eventId: first.id, slotTime: "11:00" }),
    });
    expect(signedOut.status).toBe(401);
  });
});
