import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import PostalMime, { type Email } from "postal-mime";
import pg from "pg";
import { and, eq, gte, notExists } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { openDatabase, type Database, type Db } from "#app/db/client.server";
import { booking, event, screeningProduct, waitlistEntry } from "#app/db/schema";
import { loadServerSecret } from "#app/services/secrets.server";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../scripts/lib/chromium.mjs";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

/** One browser for a test file, opened before its tests and closed after them. */
export function browserForThisFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}

export const baseURL = () => inject("baseURL");

/** A page in a fresh context; `javaScriptEnabled: false` for the no-script journeys. */
export async function newPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseURL(), ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  (page as Page & { problems: string[] }).problems = problems;
  return page;
}

/**
 * Says whether the page loads scripts, once it has arrived. A page with scripts marks `<html>`
 * with `js` from an inline script in its head, so the mark is there before the `<h1>` is. The
 * module scripts themselves are no sign: React Router's `<Scripts>` renders nothing once the page
 * has hydrated, so any later render of the root takes them out of the document.
 */
export async function scriptsStarted(page: Page): Promise<boolean> {
  await page.locator("h1").first().waitFor({ state: "attached" });
  return page.evaluate(() => document.documentElement.classList.contains("js"));
}

/**
 * Waits until React has hydrated the page's header: its elements then carry React's own
 * properties. React Router's route modules are on `window` earlier, before hydration has run,
 * so a key pressed then can reach a page whose handlers are not there yet. It does not wait for
 * the effects that run after: a listener added by one may come a moment later still.
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const summary = document.querySelector("header summary");
    return !!summary && Object.keys(summary).some((key) => key.startsWith("__reactFiber"));
  });
}

/** A disclosure's toggle (`<summary>`: Menu, "Events menu", Show More...) by its whole text. */
export const disclosure = (page: Page, name: string) =>
  page
    .locator("summary")
    .filter({ hasText: new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`) });

/** Whether the disclosure of this name is open. */
export const isOpen = (page: Page, name: string) =>
  disclosure(page, name).evaluate((summary) => (summary.parentElement as HTMLDetailsElement).open);

/** Browser errors seen on the page, including CSP refusals and hydration failures. */
export function pageProblems(page: Page): string[] {
  return (page as Page & { problems?: string[] }).problems ?? [];
}

/** Runs axe for WCAG 2.2 A and AA and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page) {
  // AxeBuilder's default runs axe in each frame and merges the parts in a blank page it opens for
  // the purpose, which is what testing cross-origin frames needs and takes a second or more a
  // call. Without such frames (every page but checkout, with PayPal's), axe.run in the page
  // ("legacy mode") checks the same rules on the same elements, several times faster.
  const origin = new URL(page.url()).origin;
  const crossOriginFrames = page
    .frames()
    .some(
      (frame) =>
        !["about:blank", "about:srcdoc", ""].includes(frame.url()) &&
        new URL(frame.url()).origin !== origin,
    );
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .setLegacyMode(!crossOriginFrames)
    .analyze();
  // WCAG 2.5.8 exempts a target whose function a full-size control on the same page also offers:
  // map markers of nearby towns overlap at zoom 8, and every event on the map is listed with its own link.
  for (const violation of results.violations) {
    if (violation.id === "target-size") {
      violation.nodes = violation.nodes.filter(
        (node) => !node.html.includes("leaflet-marker-icon"),
      );
    }
  }
  results.violations = results.violations.filter((violation) => violation.nodes.length > 0);
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/** Waits for an e-mail in the SMTP sink's folder that matches. */
export async function waitForMail(
  predicate: (mail: Email) => boolean,
  timeoutMs = 15_000,
): Promise<Email> {
  const folder = inject("mailFolder");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const file of readdirSync(folder)) {
      const mail = await PostalMime.parse(readFileSync(path.join(folder, file), "utf8"));
      if (predicate(mail)) return mail;
    }
    if (Date.now() > deadline) throw new Error("The expected e-mail did not arrive");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every e-mail in the SMTP sink's folder addressed to `address`, in no particular order. */
export async function mailsTo(address: string): Promise<Email[]> {
  const folder = inject("mailFolder");
  const mails = await Promise.all(
    readdirSync(folder).map((file) =>
      PostalMime.parse(readFileSync(path.join(folder, file), "utf8")),
    ),
  );
  return mails.filter((mail) => mail.to?.some((to) => to.address === address));
}

/** Runs one query against the e2e server's database. */
export async function query<T extends pg.QueryResultRow>(
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The e2e server's database, for a test file to write the data it needs with the fixture library
 * (tests/support/fixtures), instead of depending on the demo data. The server's secret is loaded
 * too, so access codes, session cookies and TOTP keys written here are the server's own. Events
 * and products this file added, with nothing booked and nobody on their waiting list, are removed afterwards, so that the next file
 * sees the demo data as seeded.
 */
export function serverDatabaseForThisFile(): { readonly db: Db } {
  let opened: Database | undefined;
  let startedAt: Date;
  beforeAll(async () => {
    startedAt = new Date();
    opened = openDatabase({ url: inject("databaseUrl") });
    // The server made its secret on its first start (it sets no AUTH_SECRET); this reads it.
    await loadServerSecret(opened.db, undefined);
  });
  afterAll(async () => {
    if (!opened) return;
    const { db } = opened;
    const booked = db.select().from(booking).where(eq(booking.eventId, event.id));
    const queued = db.select().from(waitlistEntry).where(eq(waitlistEntry.eventId, event.id));
    await db
      .delete(event)
      .where(and(gte(event.createdAt, startedAt), notExists(booked), notExists(queued)));
    const used = db.select().from(event).where(eq(event.productId, screeningProduct.id));
    await db
      .delete(screeningProduct)
      .where(and(gte(screeningProduct.createdAt, startedAt), notExists(used)));
    await opened.close();
  });
  return {
    get db() {
      if (!opened) throw new Error("The server's database opens in beforeAll: use it inside tests");
      return opened.db;
    },
  };
}
