import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SCROLL_TARGETS, mainNavigation } from "#app/content/navigation";
import type { event } from "#app/db/schema";
import { endingIn, insertPaidEvent, londonDay, uniqueTown } from "#tests/support/fixtures";
import { CONTENT_ROUTES } from "./site-tour";
import {
  browserForThisFile,
  disclosure,
  expectNoAxeViolations,
  newPage,
  pageProblems,
  scriptsStarted,
  serverDatabaseForThisFile,
} from "./support";

/** Each kind of event page, checked like the content routes on an event made for the test. */
const EVENT_PAGES: [kind: string, values: () => Partial<typeof event.$inferInsert>][] = [
  ["public, paid and bookable", () => ({ paymentRequired: true })],
  ["public, closed by the 24-hour rule", () => endingIn(3, { hours: 2 })],
  ["public, fully booked", () => ({ totalSpaces: 10, bookedSpaces: 10 })],
  ["public, passed", () => ({ eventDate: londonDay(-14) })],
  ["private", () => ({ isPublic: false, category: "freemasons" })],
  ["corporate-only", () => ({ category: "corporate", exclusiveFor: "CORPORATE" })],
  [
    "private and corporate-only",
    () => ({ category: "corporate", exclusiveFor: "CORPORATE", isPublic: false }),
  ],
  ["ESNEFT laboratory", () => ({ labName: "ESNEFT" })],
];

const NOT_FOUND_PATHS = [
  "/no-such-page",
  "/information-hub/no-such-article",
  "/news/patient-journey/nobody",
  "/about-us/nothing/here",
];

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

/**
 * What every page must do: answer with its status, show its heading, have a title (and, unless it
 * is an error page, a description), hydrate without errors, pass axe, and reflow at 320 CSS pixels
 * (1280 px at 400% zoom, WCAG 1.4.10) with nothing scrolling sideways, and pass axe there too.
 */
async function expectGoodPage(
  page: Page,
  path: string,
  { heading, status = 200 }: { heading: RegExp; status?: number },
) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(status);
  await expect.poll(() => page.locator("h1").first().textContent()).toMatch(heading);
  expect(await page.title()).toMatch(/\| Men's Health Advocacy Trust$/);
  if (status === 200)
    expect(await page.locator('meta[name="description"]').getAttribute("content")).toBeTruthy();
  await scriptsStarted(page);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 320, height: 640 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(320);
  await expectNoAxeViolations(page);
  // The browser reports the page's own error status as a failed load; nothing else may fail.
  const ownStatus = `the server responded with a status of ${status}`;
  expect(
    pageProblems(page).filter((problem) => status === 200 || !problem.includes(ownStatus)),
  ).toEqual([]);
}

describe("content routes", () => {
  for (const [path, heading] of CONTENT_ROUTES) {
    it(`${path} answers 200 with its content, a title, a description, no axe violations, and reflows at 320px`, async () => {
      const page = await newPage(browser());
      await expectGoodPage(page, path, { heading });
      await page.context().close();
    });
  }
});

describe("event pages", () => {
  for (const [kind, values] of EVENT_PAGES) {
    it(`/event/{id} of a ${kind} event passes axe and reflows at 320px`, async () => {
      const town = uniqueTown();
      const row = await insertPaidEvent(server.db, {
        name: `${town} Screening`,
        city: town,
        eventDate: londonDay(10),
        ...values(),
      });
      const page = await newPage(browser());
      await expectGoodPage(page, `/event/${row.id}`, { heading: new RegExp(escape(row.name)) });
      await page.context().close();
    });
  }
});

describe("the 404 page", () => {
  it("passes axe and reflows at 320px", async () => {
    const page = await newPage(browser());
    await expectGoodPage(page, "/no-such-page", { heading: /Page not found/, status: 404 });
    await page.context().close();
  });
});

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("unknown paths", () => {
  for (const path of NOT_FOUND_PATHS) {
    it(`${path} answers 404 with the spec's texts`, async () => {
      const page = await newPage(browser());
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      const main = page.locator("main");
      await expect.poll(() => main.textContent()).toContain("404");
      const text = await main.textContent();
      expect(text).toContain("Page not found");
      expect(text).toContain("Sorry, we couldn't find the page you're looking for.");
      await page.getByRole("link", { name: "Go back home" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.goto(path);
      await expectNoAxeViolations(page);
      await page.context().close();
    });
  }
});

describe("layout", () => {
  it("shows the header, banner and footer, and hides the footer on /news", async () => {
    const page = await newPage(browser());
    await page.goto("/about-us");
    const header = page.locator("header.site-header");
    await expect.poll(() => header.textContent()).toContain("01632 960 001");
    expect(await header.getByRole("link", { name: "CONTACT US" }).getAttribute("href")).toBe(
      "mailto:info@example.org",
    );
    expect(await header.getByRole("link", { name: "Login" }).isVisible()).toBe(true);
    expect(await header.getByRole("link", { name: "Donate" }).isVisible()).toBe(true);
    expect(await page.getByRole("region", { name: "New booking system" }).textContent()).toContain(
      "1 January 2025",
    );
    expect(await page.locator("footer").count()).toBe(1);
    expect(await page.locator("footer").textContent()).toContain("Registered charity no. 0000000");
    await page.goto("/news");
    expect(await page.locator("footer").count()).toBe(0);
    await page.context().close();
  });

  it("keeps the main action on the first screen of a 375x667 phone, with the helpline, Login and Donate in reach", async () => {
    const page = await newPage(browser(), { viewport: { width: 375, height: 667 } });
    await page.goto("/");
    const book = page.locator(".hero").getByRole("link", { name: "BOOK AN EVENT" });
    const box = (await book.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(667);

    const header = page.locator("header.site-header");
    const helpline = header.getByRole("link", { name: "Booking helpline: 01632 960 001" });
    expect(await helpline.isVisible()).toBe(true);
    expect(await helpline.getAttribute("href")).toBe("tel:+441632960001");
    expect(await header.getByRole("link", { name: "Login" }).isVisible()).toBe(true);
    expect(await header.getByRole("link", { name: "Donate" }).isVisible()).toBe(true);
    // Every control in the bar and the masthead is at least 44 by 44 CSS pixels.
    const controls = header
      .locator(".contact-bar, .masthead")
      .locator("a:visible, summary:visible");
    expect(await controls.count()).toBeGreaterThanOrEqual(5);
    for (const control of await controls.all()) {
      const { width, height } = (await control.boundingBox())!;
      const name = (await control.textContent()) ?? "";
      expect(Math.round(width), name).toBeGreaterThanOrEqual(44);
      expect(Math.round(height), name).toBeGreaterThanOrEqual(44);
    }
    // No text in the header is smaller than 16px.
    const smallest = await header.evaluate((element) =>
      Math.min(
        ...[...element.querySelectorAll("*")]
          .filter((node) => node.checkVisibility() && node.textContent?.trim())
          .map((node) => parseFloat(getComputedStyle(node).fontSize)),
      ),
    );
    expect(smallest).toBeGreaterThanOrEqual(16);
    // The other numbers and the e-mail address are in the menu (and in the footer).
    await disclosure(page, "Menu").click();
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(
      await nav
        .getByRole("link", { name: "General enquiries: 01632 960 002" })
        .getAttribute("href"),
    ).toBe("tel:+441632960002");
    expect(
      await nav.getByRole("link", { name: "Contact us: info@example.org" }).getAttribute("href"),
    ).toBe("mailto:info@example.org");
    await page.context().close();
  });

  it("keeps the hero's BOOK AN EVENT on the first screen on a desktop too", async () => {
    const page = await newPage(browser(), { viewport: { width: 1280, height: 800 } });
    await page.goto("/");
    const box = (await page
      .locator(".hero")
      .getByRole("link", { name: "BOOK AN EVENT" })
      .boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    // The contact bar keeps its labels on wide screens, and the menu has no copy of them.
    const general = page
      .locator("header.site-header")
      .getByRole("link", { name: "General enquiries: 01632 960 002" });
    expect(await general.count()).toBe(1);
    expect(await general.locator(".contact-bar__label").isVisible()).toBe(true);
    await page.context().close();
  });

  it("says once on /login that the booking system is new, beside the form", async () => {
    const page = await newPage(browser());
    await page.goto("/login?redirectTo=%2Fportal");
    expect(await page.getByRole("region", { name: "New booking system" }).count()).toBe(0);
    expect(await page.getByText("1 January 2025").count()).toBe(1);
    const note = page.getByRole("note");
    expect(await note.textContent()).toContain("1 January 2025");
    expect(
      await note
        .getByRole("link", { name: "create a new account and password" })
        .getAttribute("href"),
    ).toBe("/signup?redirectTo=%2Fportal");
    // Other pages still carry the banner.
    await page.goto("/signup");
    expect(await page.getByRole("region", { name: "New booking system" }).count()).toBe(1);
    await page.context().close();
  });

  it("has every scroll target the navigation links to", async () => {
    const page = await newPage(browser());
    const byPage = new Map<string, string[]>();
    for (const item of mainNavigation) {
      for (const child of item.children ?? []) {
        const [path, hash] = child.to.split("#");
        if (hash) byPage.set(path!, [...(byPage.get(path!) ?? []), hash]);
      }
    }
    const found: string[] = [];
    for (const [path, ids] of byPage) {
      await page.goto(path);
      for (const id of ids) {
        expect(await page.locator(`#${id}`).count(), `#${id} on ${path}`).toBe(1);
        found.push(id);
      }
    }
    for (const target of SCROLL_TARGETS) expect(found).toContain(target);
    await page.context().close();
  });

  it("opens a dropdown by keyboard and by its toggle, with no script on the page", async () => {
    const page = await newPage(browser(), { viewport: { width: 1280, height: 800 } });
    await page.goto("/");
    expect(await page.locator("script").count()).toBe(0);
    const toggle = disclosure(page, "Events menu");
    const community = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Community" });
    await toggle.click();
    expect(await community.isVisible()).toBe(true);
    await toggle.click();
    // (The pointer moves off the toggle first, or hovering would keep the menu open.)
    await page.mouse.move(1000, 700);
    expect(await community.isVisible()).toBe(false);
    // By keyboard: Tab passes the closed menu by; its toggle opens it.
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Events", exact: true })
      .focus();
    await page.keyboard.press("Tab");
    expect(await community.isVisible()).toBe(false);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await community.isVisible()).toBe(true);
    await community.press("Enter");
    await page.waitForURL(/\/events#community$/);
    await page.context().close();
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`has a working mobile menu ${javaScriptEnabled ? "with JavaScript" : "with JavaScript off"}`, async () => {
      const page = await newPage(browser(), {
        viewport: { width: 375, height: 740 },
        javaScriptEnabled,
      });
      // A page with scripts, and one without.
      for (const start of ["/book-event-main", "/"]) {
        await page.goto(start);
        if (javaScriptEnabled) await scriptsStarted(page);
        const nav = page.getByRole("navigation", { name: "Main" });
        expect(await nav.isVisible(), start).toBe(false);
        await disclosure(page, "Menu").click();
        expect(await nav.isVisible(), start).toBe(true);
        await nav.getByRole("link", { name: "Information Hub" }).click();
        await page.waitForURL(/\/information-hub$/);
        await expect.poll(() => nav.isVisible(), { message: start }).toBe(false);
      }
      await page.context().close();
    });
  }

  it("offers a skip link as the first thing to tab to", async () => {
    const page = await newPage(browser());
    await page.goto("/");
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    expect(await focused.textContent()).toBe("Skip to main content");
    await page.keyboard.press("Enter");
    expect(page.url()).toMatch(/#main-content$/);
    await page.context().close();
  });

  it("scrolls to the top on a route change", async () => {
    const page = await newPage(browser(), { viewport: { width: 1280, height: 700 } });
    await page.goto("/about-us");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.locator("footer").getByRole("link", { name: "Refund Policy" }).click();
    await page.waitForURL(/\/refund-policy$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.context().close();
  });

  it("links from the footer to the privacy notice, which says who we are, the lawful bases, the rights and where to complain", async () => {
    const page = await newPage(browser());
    await page.goto("/events");
    await page.locator("footer").getByRole("link", { name: "Privacy Notice" }).click();
    await page.waitForURL(/\/privacy-notice$/);
    const main = page.locator("main");
    await expect.poll(() => main.locator("h1").textContent()).toBe("Privacy notice");
    const text = (await main.textContent()) ?? "";
    expect(text).toContain("Men's Health Advocacy Trust");
    expect(text).toContain("registered charity (number 0000000)");
    expect(text).toContain("1 Example Street, Chelmsford, CM1 0XX, United Kingdom");
    expect(text).toContain("Article 9(2)(a)");
    expect(text).toContain("PayPal");
    expect(text).toContain("laboratory");
    expect(await main.getByRole("link", { name: "My data" }).getAttribute("href")).toBe("/my-data");
    expect(
      await main
        .getByRole("link", { name: "make a complaint on the ICO website" })
        .getAttribute("href"),
    ).toBe("https://ico.org.uk/make-a-complaint/");
    // The contents list leads to each section.
    await main.getByRole("link", { name: "How long we keep it" }).click();
    await page.waitForURL(/#how-long-we-keep-it$/);
    await page.context().close();
  });

  it("links from the footer to the accessibility statement, with how to report a problem and the enforcement procedure", async () => {
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto("/");
    await page.locator("footer").getByRole("link", { name: "Accessibility Statement" }).click();
    await page.waitForURL(/\/accessibility-statement$/);
    const main = page.locator("main");
    expect(await main.locator("h1").textContent()).toBe("Accessibility statement");
    for (const heading of [
      "How accessible this website is",
      "Reporting a problem with this website",
      "Enforcement procedure",
    ])
      expect(await main.getByRole("heading", { level: 2, name: heading }).count()).toBe(1);
    const text = (await main.textContent()) ?? "";
    expect(text).toContain("WCAG");
    expect(text).toContain("2.2");
    expect(await main.getByRole("link", { name: "info@example.org" }).count()).toBeGreaterThan(0);
    await page.context().close();
  });
});
