import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { event as eventTable, user } from "#app/db/schema";
import { WORKER_JOBS } from "#app/services/booking/reconcile.server";
import { signedBookingQuery } from "#app/services/booking-links.server";
import { createPayPalProvider, setPaymentProvider } from "#app/services/payments/provider.server";
import { insertBooking } from "#tests/support/fixtures/bookings";
import { insertFreeEvent, insertPaidEvent, londonDay } from "#tests/support/fixtures/events";
import { uniqueId } from "#tests/support/fixtures/people";
import { PATIENT_PASSWORD, fillConsent, holdFirstTime, newPatientPage } from "./patient-support";
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

/**
 * "My bookings" and cancelling online, on the built site: the list, a booking's page, the terms
 * said before confirming, the place freed, the e-mail with the calendar entry cancelled, one
 * refund at PayPal however often it is asked for, another account's booking 404, signed e-mail
 * links, without JavaScript and by keyboard.
 */

const server = serverDatabaseForThisFile();
const browser = browserForThisFile();
const fakePayPalUrl = () => inject("fakePayPalUrl");

beforeAll(() => {
  // The booking worker's jobs run here, against the server's database, paying through the same
  // fake PayPal as the server (its default credentials).
  setPaymentProvider(
    createPayPalProvider({
      baseUrl: fakePayPalUrl(),
      clientId: "fake-client-id",
      clientSecret: "fake-client-secret",
    }),
  );
});
afterAll(() => setPaymentProvider(undefined));

/** The booking worker's refund job, as the server runs it every WORKER_INTERVAL_MS. */
function runRefundJob(now = new Date()) {
  const job = WORKER_JOBS.find((candidate) => candidate.code === "refunds_retried")!;
  return job.run(server.db, now);
}

async function userIdOf(email: string): Promise<string> {
  const [row] = await server.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return row!.id;
}

async function bookingRow(reference: string) {
  const [row] = await query<{
    id: string;
    status: string;
    payment_status: string;
    cancelled_by: string | null;
    refund_owed: boolean;
  }>(
    "select id, status, payment_status, cancelled_by, refund_owed from booking where reference = $1",
    [reference],
  );
  return row!;
}

/** The refund calls the fake PayPal has had for one booking. */
async function refundCallsFor(bookingId: string): Promise<number> {
  const state = (await (await fetch(`${fakePayPalUrl()}/__fake/state`)).json()) as {
    refundCalls: { requestId: string | null }[];
  };
  return state.refundCalls.filter((call) => call.requestId === `refund-${bookingId}`).length;
}

const fake = (path: string) => fetch(`${fakePayPalUrl()}${path}`, { method: "POST" });

/** A patient signed up through the site, with a paid booking made through the fake PayPal. */
async function paidBookingThroughTheSite(eventDate: string) {
  const { page, email } = await newPatientPage(browser(), { javaScriptEnabled: false });
  const event = await insertPaidEvent(server.db, {
    name: `Refund Screening ${uniqueId()}`,
    eventDate,
  });
  await holdFirstTime(page, event.id);
  await fillConsent(page);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.waitForURL(/\/checkout\?booking=/);
  await fake("/__fake/outcome?order=next&outcome=approve");
  await page.getByRole("button", { name: "Pay with PayPal or card" }).click();
  await page.waitForURL(/\/booking-success/);
  const reference = new URL(page.url()).searchParams.get("booking")!;
  expect((await bookingRow(reference)).payment_status).toBe("paid");
  return { page, email, reference };
}

/**
 * axe runs inside the page, so a page opened without JavaScript is checked again in a context
 * with it (same cookies, same address).
 */
async function axeWithScripts(page: Page) {
  const scripted = await newPage(browser());
  await scripted.context().addCookies(await page.context().cookies());
  await scripted.goto(page.url());
  await expectNoAxeViolations(scripted);
  await scripted.context().close();
}

/** Presses Tab until the named button has focus, then Enter: the keyboard alone. */
async function pressByKeyboard(page: Page, name: string) {
  for (let step = 0; step < 40; step++) {
    await page.keyboard.press("Tab");
    // Read through Playwright's own world: the page's scripts may be off.
    const focused = ((await page.locator(":focus").textContent()) ?? "").trim();
    if (focused === name) {
      await page.keyboard.press("Enter");
      return;
    }
  }
  throw new Error(`Tab never reached "${name}"`);
}

describe("my bookings and cancelling a free booking", () => {
  it("lists the booking, says what cancelling means, and frees the place at once, without JavaScript and by keyboard", async () => {
    const { db } = server;
    const { page, email } = await newPatientPage(browser(), { javaScriptEnabled: false });
    const event = await insertFreeEvent(db, {
      name: `Cancel Screening ${uniqueId()}`,
      eventDate: londonDay(10),
      totalSpaces: 1,
      placesPerSlot: 1,
      startTime: "10:00",
      endTime: "10:30",
    });
    const booked = await insertBooking(db, {
      eventId: event.id,
      userId: await userIdOf(email),
      confirmedAt: new Date(),
    });

    await page.goto("/portal");
    await page.getByRole("link", { name: "My bookings" }).click();
    await page.getByRole("heading", { name: "My bookings" }).waitFor();
    const item = page.locator(".result-item", { hasText: booked.reference });
    expect(await item.textContent()).toContain("10:00 to 10:30");
    expect(
      await item.getByRole("link", { name: /See the place on a map/ }).getAttribute("href"),
    ).toBe("https://www.openstreetmap.org/?mlat=51.73560&mlon=0.46850#map=17/51.73560/0.46850");
    expect(await item.textContent()).toContain("Wear a shirt with sleeves");
    await axeWithScripts(page);

    // The calendar entry again, under the UID of the one he was sent.
    const ics = await page.request.get(`/my-bookings/${booked.reference}/calendar.ics`);
    expect(ics.headers()["content-type"]).toMatch(/^text\/calendar/);
    expect((await ics.text()).replace(/\r\n[ \t]/g, "")).toContain(`UID:${booked.reference}@`);

    await item.getByRole("link", { name: /^Cancel booking/ }).click();
    await page.getByRole("heading", { name: "Cancel your booking" }).waitFor();
    const terms = await page.locator("main").textContent();
    expect(terms).toContain("If you cancel, your place is given up and someone else can book it.");
    // A free booking: nothing about money.
    expect(terms).not.toMatch(/£|refund/i);
    await axeWithScripts(page);

    await pressByKeyboard(page, "Yes, cancel my booking");
    await page.waitForURL(new RegExp(`/my-bookings/${booked.reference}\\?cancelled`));
    await page.getByText("Your booking is cancelled.").waitFor();
    await axeWithScripts(page);
    expect(await bookingRow(booked.reference)).toMatchObject({
      status: "cancelled",
      cancelled_by: "patient",
    });

    const mail = await waitForMail(
      (candidate) =>
        candidate.to?.some((to) => to.address === email) === true &&
        (candidate.subject ?? "").endsWith("is cancelled"),
    );
    const attachment = mail.attachments[0]!;
    const cancelIcs = (
      typeof attachment.content === "string"
        ? attachment.content
        : new TextDecoder().decode(attachment.content)
    ).replace(/\r\n[ \t]/g, "");
    expect(cancelIcs).toContain("METHOD:CANCEL");
    expect(cancelIcs).toContain(`UID:${booked.reference}@`);

    // The one place is free again at once: someone else takes it.
    const { page: other } = await newPatientPage(browser(), { javaScriptEnabled: false });
    expect(await holdFirstTime(other, event.id)).toMatch(/^MHAT-/);
    expect(pageProblems(page)).toEqual([]);
    await other.context().close();
    await page.context().close();
  });

  it("gives another account's booking, or an unknown one, 404", async () => {
    const { db } = server;
    const { email } = await newPatientPage(browser());
    const event = await insertFreeEvent(db, { eventDate: londonDay(12) });
    const theirs = await insertBooking(db, {
      eventId: event.id,
      userId: await userIdOf(email),
      confirmedAt: new Date(),
    });
    const { page } = await newPatientPage(browser());
    for (const path of [
      `/my-bookings/${theirs.reference}`,
      `/my-bookings/${theirs.reference}/cancel`,
      `/my-bookings/${theirs.reference}/calendar.ics`,
      "/my-bookings/MHAT-0000-0000",
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
    }
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    const posted = await page.request.post(`/my-bookings/${theirs.reference}/cancel`, {
      form: {},
      headers: { origin: baseURL() },
    });
    expect(posted.status()).toBe(404);
    expect((await bookingRow(theirs.reference)).status).toBe("confirmed");
    await page.context().close();
  });
});

describe("cancelling a paid booking", () => {
  it("with more than 2 business days' notice: says what comes back, and makes one refund however often it is asked", async () => {
    const { page, reference } = await paidBookingThroughTheSite(londonDay(21));
    const { id } = await bookingRow(reference);
    await page.goto(`/my-bookings/${reference}/cancel`);
    expect(await page.locator("main").textContent()).toContain(
      "You will get back £25.00, the full amount you paid.",
    );

    // Slow answers from PayPal, so that every caller below is under way at once.
    await fake("/__fake/delay?ms=600");
    try {
      const post = () =>
        // Another tab's "Yes, cancel", with the refund its page showed.
        page.request.post(`/my-bookings/${reference}/cancel`, {
          form: { refundPence: "2500" },
          headers: { origin: baseURL() },
          maxRedirects: 0,
        });
      const results = await Promise.all([
        page.getByRole("button", { name: "Yes, cancel my booking" }).click(),
        post(),
        post(),
        new Promise((resolve) => setTimeout(resolve, 200)).then(() => runRefundJob()),
        new Promise((resolve) => setTimeout(resolve, 300)).then(() => runRefundJob()),
      ]);
      expect(results[1].status()).toBe(302);
      expect(results[2].status()).toBe(302);
    } finally {
      await fake("/__fake/delay?ms=0");
    }
    await page.waitForURL(new RegExp(`/my-bookings/${reference}\\?cancelled`));
    await runRefundJob(new Date(Date.now() + 3_600_000));
    expect(await refundCallsFor(id)).toBe(1);
    expect(await bookingRow(reference)).toMatchObject({
      status: "cancelled",
      payment_status: "refunded",
      refund_owed: false,
    });
    await page.goto(`/my-bookings/${reference}`);
    expect(await page.locator("main").textContent()).toContain(
      "We have given back the £25.00 you paid.",
    );
    // The facts above it say so too, not a bare "Paid £25.00".
    expect(await page.locator("dt:text-is('Paid') + dd").textContent()).toBe(
      "£25.00, given back to you",
    );
    await page.context().close();
  });

  it("'Yes, cancel' never gives less than the page showed: when the terms change while it is open, it asks again", async () => {
    const { db } = server;
    const { page, email } = await newPatientPage(browser());
    const ev = await insertPaidEvent(db, { eventDate: londonDay(22) });
    const booked = await insertBooking(db, {
      eventId: ev.id,
      userId: await userIdOf(email),
      confirmedAt: new Date(),
      pricePence: 2500,
      paymentRequired: true,
      paymentStatus: "paid",
    });
    await page.goto(`/my-bookings/${booked.reference}/cancel`);
    expect(await page.locator("main").textContent()).toContain("You will get back £25.00");
    // While the page is open the appointment comes within 2 working days, as when the days pass.
    await db
      .update(eventTable)
      .set({ eventDate: londonDay(1) })
      .where(eq(eventTable.id, ev.id));
    await page.getByRole("button", { name: "Yes, cancel my booking" }).click();
    await page.getByText("Your booking is not cancelled").waitFor();
    await page.getByText("If you cancel now, the £25.00 you paid is not refunded.").waitFor();
    const main = await page.locator("main").textContent();
    expect(main).toContain("What you get back has changed since you opened this page");
    expect(main).toContain("If you cancel now, the £25.00 you paid is not refunded.");
    expect(main).not.toContain("You will get back £25.00");
    expect(await bookingRow(booked.reference)).toMatchObject({ status: "confirmed" });
    await expectNoAxeViolations(page);

    // Confirming the new terms cancels, and nothing goes back.
    await page.getByRole("button", { name: "Yes, cancel my booking" }).click();
    await page.waitForURL(new RegExp(`/my-bookings/${booked.reference}\\?cancelled`));
    await runRefundJob(new Date(Date.now() + 3_600_000));
    expect(await refundCallsFor(booked.id)).toBe(0);
    await page.context().close();
  });

  it("when PayPal does not answer: the page says calmly the refund is on its way, and the worker makes it", async () => {
    const { page, reference } = await paidBookingThroughTheSite(londonDay(22));
    const { id } = await bookingRow(reference);
    await page.goto(`/my-bookings/${reference}/cancel`);
    await fake("/__fake/drop-next?path=/v2/payments/captures/");
    await page.getByRole("button", { name: "Yes, cancel my booking" }).click();
    await page.waitForURL(new RegExp(`/my-bookings/${reference}\\?cancelled`));
    expect(await page.locator("main").textContent()).toContain(
      "Your refund of £25.00 is on its way.",
    );
    await axeWithScripts(page);
    expect((await bookingRow(reference)).refund_owed).toBe(true);

    await runRefundJob(new Date(Date.now() + 5 * 60_000));
    expect(await bookingRow(reference)).toMatchObject({
      payment_status: "refunded",
      refund_owed: false,
    });
    // Asked twice with the same request id; PayPal made one refund.
    expect(await refundCallsFor(id)).toBe(2);
    await page.reload();
    expect(await page.locator("main").textContent()).toContain("We have given back the £25.00");
    await page.context().close();
  });

  it("within 2 business days: says before he confirms that nothing comes back, and refunds nothing", async () => {
    const { db } = server;
    const { page, email } = await newPatientPage(browser());
    // Tomorrow: no whole business day lies between today and the appointment.
    const event = await insertPaidEvent(db, { eventDate: londonDay(1) });
    const booked = await insertBooking(db, {
      eventId: event.id,
      userId: await userIdOf(email),
      confirmedAt: new Date(),
      pricePence: 2500,
      paymentRequired: true,
      paymentStatus: "paid",
    });
    await page.goto(`/my-bookings/${booked.reference}/cancel`);
    const terms = await page.locator("main").textContent();
    expect(terms).toContain("The last day to cancel with a full refund was");
    expect(terms).toContain("If you cancel now, the £25.00 you paid is not refunded.");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Yes, cancel my booking" }).click();
    await page.waitForURL(new RegExp(`/my-bookings/${booked.reference}\\?cancelled`));
    await page.getByText("The £25.00 you paid was not refunded").waitFor();
    await runRefundJob(new Date(Date.now() + 3_600_000));
    expect(await refundCallsFor(booked.id)).toBe(0);
    expect(await bookingRow(booked.reference)).toMatchObject({
      status: "cancelled",
      payment_status: "paid",
      refund_owed: false,
    });
    await page.context().close();
  });
});

describe("signed links from our e-mails", () => {
  async function bookingOfNewPatient() {
    const { page, email } = await newPatientPage(browser());
    const event = await insertFreeEvent(server.db, { eventDate: londonDay(14) });
    const userId = await userIdOf(email);
    const booked = await insertBooking(server.db, {
      eventId: event.id,
      userId,
      confirmedAt: new Date(),
    });
    const linked = {
      id: booked.id,
      userId,
      reference: booked.reference,
      eventDate: event.eventDate,
    };
    return { page, email, booked, linked };
  }

  it("takes a signed-out owner through sign-in to his booking", async () => {
    const { page, email, booked, linked } = await bookingOfNewPatient();
    await page.context().close();
    const visitor = await newPage(browser(), { javaScriptEnabled: false });
    await visitor.goto(`/my-bookings/${booked.reference}?${signedBookingQuery(linked)}`);
    await visitor.waitForURL(/\/login\?redirectTo=/);
    await visitor.getByLabel("Email address").fill(email);
    await visitor.getByLabel("Password", { exact: true }).fill(PATIENT_PASSWORD);
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await visitor.waitForURL(new RegExp(`/my-bookings/${booked.reference}\\?expires=`));
    await visitor.getByRole("heading", { name: "Your booking" }).waitFor();
    await visitor.context().close();
  });

  it("refuses a changed link, an expired one (offering the booking itself) and another account with a valid one", async () => {
    const { page, booked, linked } = await bookingOfNewPatient();
    const valid = new URLSearchParams(signedBookingQuery(linked));
    const changed = new URLSearchParams(valid);
    const signature = valid.get("signature")!;
    changed.set("signature", `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`);
    let response = await page.goto(`/my-bookings/${booked.reference}?${changed}`);
    expect(response?.status()).toBe(403);
    await page.getByRole("heading", { name: "This link does not work" }).waitFor();
    expect(await page.locator("main").textContent()).not.toContain("Wear a shirt");
    await expectNoAxeViolations(page);

    // A signature of 43 characters but more bytes is refused the same way, never a server error.
    changed.set("signature", `é${signature.slice(1)}`);
    response = await page.goto(`/my-bookings/${booked.reference}?${changed}`);
    expect(response?.status()).toBe(403);
    await page.getByRole("heading", { name: "This link does not work" }).waitFor();

    // An expired link of his own (an e-mail about an earlier date) is refused, and offers him the
    // booking itself, which his session (not the link) shows.
    const expired = signedBookingQuery({ ...linked, eventDate: londonDay(-3) });
    response = await page.goto(`/my-bookings/${booked.reference}?${expired}`);
    expect(response?.status()).toBe(410);
    await page.getByRole("heading", { name: "This link has expired" }).waitFor();
    expect(await page.locator("main").textContent()).not.toContain("Wear a shirt");
    expect(response?.headers()["referrer-policy"]).toContain("same-origin");
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: `See booking ${booked.reference}` }).click();
    await page.getByRole("heading", { name: "Your booking" }).waitFor();
    expect(new URL(page.url()).search).toBe("");

    // "?cancelled" in the address announces nothing about a booking that is not cancelled.
    response = await page.goto(`/my-bookings/${booked.reference}?cancelled`);
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { name: "Your booking" }).waitFor();
    expect(await page.locator("main").textContent()).not.toContain("Your booking is cancelled");

    response = await page.goto(`/my-bookings/${booked.reference}?${valid}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toContain("same-origin");

    const { page: other } = await newPatientPage(browser());
    response = await other.goto(`/my-bookings/${booked.reference}?${valid}`);
    expect(response?.status()).toBe(404);
    await other.context().close();
    await page.context().close();
  });
});
