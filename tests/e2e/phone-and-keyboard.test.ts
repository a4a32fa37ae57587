import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { insertPaidEvent, londonDay } from "#tests/support/fixtures/events";
import { uniqueId } from "#tests/support/fixtures/people";
import { newPatientPage } from "./patient-support";
import { tourSite } from "./site-tour";
import {
  browserForThisFile,
  disclosure,
  hydrated,
  isOpen,
  newPage,
  scriptsStarted,
  serverDatabaseForThisFile,
} from "./support";

/**
 * What a man in his seventies with a phone set to large text and unsteady hands meets: no page
 * scrolls sideways at 200% text on a 375 px screen, every main control is a 44 by 44 px target
 * over its whole tile, and the keyboard reaches the content without walking through closed menus.
 */
const browser = browserForThisFile();
const server = serverDatabaseForThisFile();
const PHONE = { width: 375, height: 740 };

/** The phone's text size setting: Chromium's default font size (16 px) scaled, and 1rem with it. */
async function largeText(page: Page, percent: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.setFontSizes", {
    fontSizes: { standard: (16 * percent) / 100, fixed: Math.round((13 * percent) / 100) },
  });
}

for (const percent of [150, 200]) {
  describe(`${percent}% text on a 375 px phone`, () => {
    it("scrolls no page sideways: public, patient and back office, with their error states", async () => {
      const wide: string[] = [];
      const enlarged = new WeakSet<Page>();
      let visited = 0;
      await tourSite(
        browser(),
        server.db,
        async (page, name) => {
          if (!enlarged.has(page)) {
            await largeText(page, percent);
            enlarged.add(page);
          }
          const { rem, scrollWidth, innerWidth, culprit } = await page.evaluate(async () => {
            await new Promise((resolve) => requestAnimationFrame(resolve));
            // The deepest element reaching past the screen's right edge, to say what to fix.
            const past = [...document.body.querySelectorAll("*")].filter(
              (element) => element.getBoundingClientRect().right > window.innerWidth + 0.5,
            );
            const last = past.at(-1);
            return {
              rem: parseFloat(getComputedStyle(document.documentElement).fontSize),
              scrollWidth: document.documentElement.scrollWidth,
              innerWidth: window.innerWidth,
              culprit: last ? `${last.tagName.toLowerCase()}.${[...last.classList].join(".")}` : "",
            };
          });
          expect(rem, `the text size on ${name}`).toBe((16 * percent) / 100);
          visited++;
          if (scrollWidth > innerWidth) wide.push(`${name}: ${scrollWidth} px (${culprit})`);
        },
        { context: { viewport: PHONE } },
      );
      expect(visited).toBeGreaterThan(40);
      expect(wide).toEqual([]);
    }, 300_000);
  });
}

describe("the header with large text on a 360 by 640 phone (found by a review)", () => {
  it("leaves the page's heading on the first screen, signed out with the new-system notice too", async () => {
    const page = await newPage(browser(), { viewport: { width: 360, height: 640 } });
    await largeText(page, 200);
    for (const path of ["/", "/login", "/book-event-main"]) {
      await page.goto(path);
      const { headingTop, scrollWidth, brand } = await page.evaluate(() => ({
        headingTop: document.querySelector("main h1")!.getBoundingClientRect().top,
        scrollWidth: document.documentElement.scrollWidth,
        brand: document.querySelector(".brand")!.textContent,
      }));
      expect(headingTop, path).toBeLessThan(640);
      expect(scrollWidth, path).toBeLessThanOrEqual(360);
      // The initials shown are part of the link's name (WCAG 2.5.3), beside the full name.
      expect(brand).toContain("MHAT");
      expect(
        await page.getByRole("link", { name: /^Men's Health Advocacy Trust MHAT$/ }).count(),
      ).toBe(1);
    }
    await page.context().close();
  });
});

describe("200% zoom on a 375 px phone (188 CSS px across)", () => {
  it("scrolls no page sideways, nor breaks a page's heading inside a word: public, patient and back office, with their error states", async () => {
    const wide: string[] = [];
    const brokenWords: string[] = [];
    let visited = 0;
    await tourSite(
      browser(),
      server.db,
      async (page, name) => {
        const { scrollWidth, innerWidth, tooLong } = await page.evaluate(async () => {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          // A word of the page's heading wider than the heading itself must break inside it.
          const heading = document.querySelector("h1");
          const tooLong: string[] = [];
          const context = document.createElement("canvas").getContext("2d")!;
          const walker = heading && document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
          for (let text = walker?.nextNode(); text; text = walker!.nextNode()) {
            const style = getComputedStyle(text.parentElement!);
            context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            for (const word of (text.textContent ?? "").split(/[\s\u00a0\u202f]+/))
              if (word && context.measureText(word).width > heading!.clientWidth)
                tooLong.push(word);
          }
          return {
            scrollWidth: document.documentElement.scrollWidth,
            innerWidth: window.innerWidth,
            tooLong,
          };
        });
        visited++;
        if (scrollWidth > innerWidth) wide.push(`${name}: ${scrollWidth} px`);
        if (tooLong.length > 0) brokenWords.push(`${name}: ${tooLong.join(" ")}`);
      },
      { context: { viewport: { width: 188, height: 370 } } },
    );
    expect(visited).toBeGreaterThan(40);
    expect(wide).toEqual([]);
    expect(brokenWords).toEqual([]);
  }, 300_000);
});

/** The control's box, and whether a tap anywhere on it reaches the control. */
async function targetOf(page: Page, selector: string, index: number) {
  return page
    .locator(selector)
    .nth(index)
    .evaluate((tile) => {
      const box = tile.getBoundingClientRect();
      const input = tile.querySelector("input");
      const label = input?.labels?.[0];
      const responds = (hit: Element | null) => {
        if (!hit) return false;
        if (!input) return tile === hit || tile.contains(hit);
        return hit === input || (!!label && (label === hit || label.contains(hit)));
      };
      const misses: string[] = [];
      // Points across the tile, 3 px in from its edges (its border).
      for (const fx of [0, 0.25, 0.5, 0.75, 1])
        for (const fy of [0, 0.5, 1]) {
          const x = box.left + 3 + fx * (box.width - 6);
          const y = box.top + 3 + fy * (box.height - 6);
          if (!responds(document.elementFromPoint(x, y)))
            misses.push(`(${Math.round(x - box.left)}, ${Math.round(y - box.top)})`);
        }
      return {
        name: (tile.textContent ?? "").trim().slice(0, 40) || tile.outerHTML.slice(0, 60),
        width: box.width,
        height: box.height,
        misses,
      };
    });
}

async function expectTargets(page: Page, selector: string, least = 1) {
  const count = await page.locator(selector).count();
  expect(count, selector).toBeGreaterThanOrEqual(least);
  for (let index = 0; index < count; index++) {
    await page.locator(selector).nth(index).scrollIntoViewIfNeeded();
    const target = await targetOf(page, selector, index);
    expect(Math.round(target.width), `${selector} ${target.name}`).toBeGreaterThanOrEqual(44);
    expect(Math.round(target.height), `${selector} ${target.name}`).toBeGreaterThanOrEqual(44);
    expect(target.misses, `taps that miss ${selector} ${target.name}`).toEqual([]);
  }
}

describe("targets on a phone", () => {
  it("answers a tap anywhere on a time, answer or tick-box tile, and every main control is 44 by 44 px", async () => {
    const event = await insertPaidEvent(server.db, {
      name: `Target Check Screening ${uniqueId()}`,
      eventDate: londonDay(7),
    });
    const { page } = await newPatientPage(browser());
    await page.setViewportSize(PHONE);

    await page.goto(`/event/${event.id}`);
    await expectTargets(page, ".back-link");

    await page.goto(`/book-event?event=${event.id}`);
    await expectTargets(page, ".radios--times .radio:not(.radio--unavailable)", 4);
    await expectTargets(page, ".back-link");
    await page.locator(".radio__input:not([disabled])").first().check();
    await page.getByRole("button", { name: "Proceed to Consent Form" }).click();
    await page.waitForURL(/\/book-event\/consent/);
    // Client-side navigation changes the address before the page renders: wait for its questions.
    await page.getByRole("group", { name: "Which PSA test will this be?" }).waitFor();
    await expectTargets(page, ".radio", 6);
    // Conditional answers open under Yes: tick "Yes" for each so that every tick box shows.
    for (const yes of await page.getByLabel("Yes", { exact: true }).all()) await yes.check();
    await expectTargets(page, ".checkbox", 3);

    await page.goto("/portal");
    await expectTargets(page, ".portal-panel nav a", 3);
    await expectTargets(page, ".portal-panel button");

    await page.goto("/book-event-main");
    await page.locator(".leaflet-control-zoom a").first().waitFor();
    await expectTargets(page, ".leaflet-control-zoom a", 2);
    await page.context().close();
  });
});

describe("the portal on a phone", () => {
  it("opens a page reached from a page with scripts at its top, with focus at its start", async () => {
    const event = await insertPaidEvent(server.db, {
      name: `Phone Top Screening ${uniqueId()}`,
      eventDate: londonDay(18),
    });
    const page = await newPage(browser(), { viewport: PHONE });
    await page.goto(`/event/${event.id}`);
    await hydrated(page);
    // Far down the event page, which runs scripts, to a page without (sign-in, signed out).
    const book = page.getByRole("link", { name: "BOOK EVENT" });
    await book.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await book.click();
    await page.waitForURL((url) => url.pathname === "/login");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main-content");
    // The next Tab stays in the page's content, not in the footer below where the link was.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => !!document.activeElement?.closest("main"))).toBe(true);
    await page.context().close();
  });

  it("lets one finger scroll the page over the map on a phone; on a computer the map pans", async () => {
    const event = await insertPaidEvent(server.db, {
      name: `Phone Map Screening ${uniqueId()}`,
      eventDate: londonDay(18),
    });
    for (const [options, pans] of [
      [{ viewport: PHONE, isMobile: true, hasTouch: true }, false],
      [{ viewport: { width: 1280, height: 800 } }, true],
    ] as const) {
      const page = await newPage(browser(), options);
      await page.goto(`/event/${event.id}`);
      await page.locator(".leaflet-marker-icon").first().waitFor();
      // Leaflet marks a map it lets the pointer drag.
      expect(
        await page
          .locator(".leaflet-container")
          .evaluate((map) => map.classList.contains("leaflet-grab")),
      ).toBe(pans);
      await page.context().close();
    }
  });

  it("starts each page's own heading within the first screen, below the account panel", async () => {
    const { page } = await newPatientPage(browser());
    await page.setViewportSize(PHONE);
    for (const path of ["/portal", "/my-bookings", "/medical-results", "/my-data"]) {
      await page.goto(path);
      const panel = await page.locator(".portal-panel").boundingBox();
      const heading = await page.locator("main h1").boundingBox();
      expect(panel, path).not.toBeNull();
      expect(heading!.y, `${path}: the heading comes after the panel`).toBeGreaterThan(
        panel!.y + panel!.height,
      );
      expect(heading!.y + heading!.height, `${path}: the heading's foot`).toBeLessThanOrEqual(
        PHONE.height,
      );
    }
    await page.context().close();
  });
});

/**
 * Presses Escape and says whether the menu is then closed. React listens for Escape from an effect
 * that runs a moment after the menu's state changes, so a test presses it again until it works (a
 * menu that never closes still fails).
 */
async function escapeCloses(page: Page, menu: string) {
  await page.keyboard.press("Escape");
  return !(await isOpen(page, menu));
}

describe("the keyboard", () => {
  it("reaches the content without stopping on links of closed menus, and opens a menu with its toggle", async () => {
    const page = await newPage(browser(), { viewport: { width: 1280, height: 800 } });
    await page.goto("/");
    const stops: { text: string; visible: boolean; inClosedMenu: boolean }[] = [];
    for (let tab = 0; tab < 60; tab++) {
      await page.keyboard.press("Tab");
      const stop = await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement;
        if (focused.closest("main")) return null;
        return {
          text: (focused.textContent ?? "").trim(),
          visible: focused.checkVisibility(),
          inClosedMenu: !!focused.closest(
            ".has-dropdown:not(:has(> details[open])) .site-nav__dropdown",
          ),
        };
      });
      if (!stop) break;
      stops.push(stop);
    }
    expect(stops.filter((stop) => stop.inClosedMenu || !stop.visible)).toEqual([]);
    // Skip link, 3 contact links, Login, Donate, the name, 5 top links, 4 menu toggles, the banner's link.
    expect(stops.length).toBe(17);

    // The page has no scripts: the toggle is the browser's own disclosure.
    expect(await page.locator("script").count()).toBe(0);
    const toggle = disclosure(page, "Events menu");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Community");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    expect(await isOpen(page, "Events menu")).toBe(false);
    await page.context().close();
  });

  it("closes a menu with Escape on a page with scripts", async () => {
    const page = await newPage(browser(), { viewport: { width: 1280, height: 800 } });
    await page.goto("/book-event-main");
    expect(await scriptsStarted(page)).toBe(true);
    await hydrated(page);
    const toggle = disclosure(page, "Events menu");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => isOpen(page, "Events menu")).toBe(true);
    await expect.poll(() => escapeCloses(page, "Events menu")).toBe(true);
    await page.context().close();
  });

  it("closes with Escape a menu opened before the page's scripts had started", async () => {
    const page = await newPage(browser(), { viewport: { width: 1280, height: 800 } });
    // The scripts arrive late, as on an old phone on a weak signal.
    let release!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto("/book-event-main", { waitUntil: "domcontentloaded" });
    const toggle = disclosure(page, "Events menu");
    await toggle.focus();
    await page.keyboard.press("Enter");
    expect(await isOpen(page, "Events menu")).toBe(true);
    release();
    await hydrated(page);
    await expect.poll(() => escapeCloses(page, "Events menu")).toBe(true);
    await page.context().close();
  });

  it("closes the phone's menu with Escape and puts focus back on the Menu button", async () => {
    const page = await newPage(browser(), { viewport: PHONE });
    await page.goto("/book-event-main");
    await scriptsStarted(page);
    await hydrated(page);
    await disclosure(page, "Menu").click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "About Us", exact: true }).focus();
    await expect.poll(() => escapeCloses(page, "Menu")).toBe(true);
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await isOpen(page, "Menu")).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Menu");
    await page.context().close();
  });

  it("gives each event card one link", async () => {
    const event = await insertPaidEvent(server.db, {
      name: `One Link Screening ${uniqueId()}`,
      eventDate: londonDay(8),
    });
    const page = await newPage(browser());
    await page.goto("/book-event-main");
    const card = page.locator(".event-card").filter({ hasText: event.name });
    await card.waitFor();
    expect(await card.locator("a[href]").count()).toBe(1);
    expect(await card.locator("a[href]").getAttribute("href")).toBe(`/event/${event.id}`);
    await page.context().close();
  });
});
