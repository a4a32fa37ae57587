import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server";
import { insertEvent, insertProduct } from "#tests/support/fixtures";
import { startFakePayPal, type FakePayPal } from "#tests/support/fake-paypal";
import { createScratchDatabase } from "#tests/support/postgres";
import { startBuiltServer } from "#tests/support/server";
import { startSmtpSink } from "#tests/support/smtp-sink";
import { launchBrowser } from "./support";
import { fillConsent, fillSignupForm } from "./patient-support";

/**
 * Issue 14, item 3: `/checkout` answered HTTP 500 in production (with PayPal credentials) although
 * the page rendered, and nothing was logged. This file boots the built site as production runs it
 * (its own server: NODE_ENV=production, no demo data, real SMTP, PayPal credentials pointing at the
 * fake PayPal) and walks a paid booking, checking the status of every page on the way and that the
 * server logged nothing at error level.
 */

const EVENT_NAME = "Production Check Screening";

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let paypal: FakePayPal;
let server: Awaited<ReturnType<typeof startBuiltServer>>;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let mailFolder: string;
let eventId: string;

/** A London calendar day some days from now, well outside the 24-hour booking cut-off. */
function londonDateInDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString("en-CA", {
    timeZone: "Europe/London",
  });
}

beforeAll(async () => {
  scratch = await createScratchDatabase("mhat_prod");
  // Production refuses demo data, so the test makes the one paid event it books.
  const database = openDatabase({ url: scratch.url });
  await database.migrate();
  const product = await insertProduct(database.db, 2500);
  const row = await insertEvent(database.db, product.id, {
    name: EVENT_NAME,
    eventDate: londonDateInDays(10),
    paymentRequired: true,
  });
  eventId = row.id;
  await database.close();

  mailFolder = mkdtempSync(path.join(os.tmpdir(), "mhat-prod-mail-"));
  sink = await startSmtpSink({ folder: mailFolder });
  paypal = await startFakePayPal();
  // APP_URL is the server's own http://127.0.0.1:<port> (startBuiltServer sets it): Chromium counts
  // loopback as a secure context, so production's `__Host-` and Secure cookies work without https.
  server = await startBuiltServer({
    NODE_ENV: "production",
    DATABASE_URL: scratch.url,
    DEMO_DATA: "0",
    AUTH_SECRET: "production-e2e-secret-production-e2e-secret",
    SMTP_URL: sink.url,
    PAYPAL_CLIENT_ID: paypal.clientId,
    PAYPAL_CLIENT_SECRET: paypal.clientSecret,
    PAYPAL_ENV: "sandbox",
    PAYPAL_API_BASE: paypal.url,
    MAP_TILE_URL:
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
    LOG_LEVEL: "info",
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sink?.close();
  await paypal?.close();
  await scratch?.drop();
  if (mailFolder) rmSync(mailFolder, { recursive: true, force: true });
});

interface PageLoad {
  method: string;
  path: string;
  status: number;
}

/**
 * A page (no JavaScript unless asked, so every step is a server render) that records the status
 * of every document the browser loads from our server, redirects included.
 */
async function recordingPage(javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL: server.url, javaScriptEnabled });
  // There is no network here: PayPal's SDK fails to load, as when PayPal is unreachable.
  await context.route(/^https:\/\/[^/]*paypal\.com\//, (route) => route.abort());
  const page = await context.newPage();
  const loads: PageLoad[] = [];
  const problems: string[] = [];
  page.on("response", (response: Response) => {
    const url = new URL(response.url());
    if (url.origin !== server.url || !response.request().isNavigationRequest()) return;
    loads.push({
      method: response.request().method(),
      path: url.pathname,
      status: response.status(),
    });
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  return { page, loads, problems };
}

/** The server's log lines at error level (pino's 50) or above. */
function serverErrorLines(): string[] {
  return server
    .output()
    .split("\n")
    .filter((line) => {
      try {
        return (JSON.parse(line) as { level?: number }).level! >= 50;
      } catch {
        return false;
      }
    });
}

async function signUp(page: Page, email: string) {
  await fillSignupForm(page, email);
  await page.getByRole("button", { name: "Create account" }).click();
}

describe("production: /checkout answers 200 and a paid booking goes through PayPal", () => {
  it("walks a paid booking without JavaScript, every page 200 or a redirect, nothing logged as an error", async () => {
    const { page, loads } = await recordingPage(false);

    // The event page, then BOOK EVENT, which asks a signed-out visitor to sign in first.
    await page.goto(`/event/${eventId}`);
    await page.getByRole("link", { name: "BOOK EVENT" }).first().click();
    await page.waitForURL(/\/login\?/);
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL(/\/signup\?/);
    await signUp(page, "ambrose.production@example.com");
    await page.waitForURL(/\/signup-success/);
    // Without JavaScript, the success page's link goes back to the booking.
    await page.getByRole("link", { name: "Continue" }).click();
    await page.waitForURL(/\/book-event\?event=/);

    await page.locator(".radio__input:not([disabled])").first().check();
    await page.getByRole("button", { name: "Proceed to Consent Form" }).click();
    await page.waitForURL(/\/book-event\/consent\?booking=/);
    await fillConsent(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(/\/checkout\?booking=/);
    expect(await page.locator("h1").textContent()).toBe("Checkout");

    paypal.setOutcome("next", "approve");
    await page.getByRole("button", { name: "Pay with PayPal or card" }).click();
    await page.waitForURL(/\/booking-success\?booking=/);
    await page.getByText("Successfully confirmed your booking!").waitFor();
    expect(paypal.captures.size).toBe(1);

    const ourPages = loads.map((load) => `${load.method} ${load.path} ${load.status}`);
    const refused = loads.filter((load) => ![200, 302, 303].includes(load.status));
    expect(refused, ourPages.join("\n")).toEqual([]);
    expect(ourPages).toContain("GET /checkout 200");
    expect(ourPages).toContain("GET /booking-success 200");
    expect(serverErrorLines()).toEqual([]);
    await page.context().close();
  });

  it("with JavaScript, the checkout page answers 200 and loads PayPal's buttons only in the browser", async () => {
    const { page: noScript } = await recordingPage(false);
    await noScript.goto("/signup");
    await signUp(noScript, "ambrose.scripts@example.com");
    await noScript.waitForURL(/\/signup-success/);
    await noScript.goto(`/book-event?event=${eventId}`);
    await noScript.locator(".radio__input:not([disabled])").first().check();
    await noScript.getByRole("button", { name: "Proceed to Consent Form" }).click();
    await noScript.waitForURL(/\/book-event\/consent\?booking=/);
    await fillConsent(noScript);
    await noScript.getByRole("button", { name: "Continue to payment" }).click();
    await noScript.waitForURL(/\/checkout\?booking=/);
    const checkoutUrl = noScript.url();
    const cookies = await noScript.context().cookies();
    await noScript.context().close();

    // PayPal's script that never arrives (a stalled connection): after a while the page's own
    // button shows, rather than "Loading PayPal…" for ever.
    const stalledContext = await browser.newContext({ baseURL: server.url });
    await stalledContext.addCookies(cookies);
    await stalledContext.route(/^https:\/\/[^/]*paypal\.com\//, () => {});
    const stalled = await stalledContext.newPage();
    await stalled.goto(checkoutUrl);
    await stalled.getByText("Loading PayPal…").waitFor();
    await stalled
      .getByRole("button", { name: "Pay with PayPal or card" })
      .waitFor({ timeout: 20_000 });
    expect(await stalled.getByText("Loading PayPal…").count()).toBe(0);
    await stalledContext.close();

    const { page, loads, problems } = await recordingPage(true);
    await page.context().addCookies(cookies);
    const sdkRequests: string[] = [];
    page.on("request", (request) => {
      if (/paypal\.com\/sdk\/js/.test(request.url())) sdkRequests.push(request.url());
    });
    const response = await page.goto(checkoutUrl);
    expect(response?.status()).toBe(200);
    // After hydration the buttons' module asks for PayPal's SDK; it cannot load here, so the
    // spec's message and the "Pay with PayPal or card" button show instead.
    await expect.poll(() => sdkRequests.length).toBeGreaterThan(0);
    await page.getByText("Failed to load the PayPal JS SDK script.").waitFor();
    paypal.setOutcome("next", "approve");
    await page.getByRole("button", { name: "Pay with PayPal or card" }).click();
    await page.waitForURL(/\/booking-success\?booking=/);
    await page.getByText("Successfully confirmed your booking!").waitFor();

    expect(loads.filter((load) => ![200, 302, 303].includes(load.status))).toEqual([]);
    expect(problems).toEqual([]);
    expect(serverErrorLines()).toEqual([]);
    await page.context().close();
  });
});
