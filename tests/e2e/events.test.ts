import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ACCESS_CODES } from "#app/demo/events.server";
import { eventStart } from "#app/domain/events";
import type { EventView } from "#app/services/events.server";
import {
  baseURL,
  expectNoAxeViolations,
  newPage,
  pageProblems,
  query,
  browserForThisFile,
} from "./support";

const browser = browserForThisFile();

async function apiEvents(search = ""): Promise<EventView[]> {
  const response = await fetch(`${baseURL()}/api/events${search}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: EventView[] }).events;
}

async function eventIdByName(name: string) {
  const [row] = await query<{ id: string }>("select id from event where name = $1", [name]);
  return row!.id;
}

const cardTitles = (page: Page) => page.locator(".event-card .card__title").allTextContents();

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "with JavaScript off";

  describe(`finding events ${mode}`, () => {
    it("filters by category", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/book-event-main");
      await page.getByLabel("Freemasons").check();
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Show events" }).click();
      await page.waitForURL((url) => url.searchParams.getAll("for").includes("freemasons"));
      const expected = (await apiEvents("?for=freemasons")).map((view) => view.event_name);
      expect(expected.length).toBeGreaterThan(1);
      await expect.poll(() => cardTitles(page)).toEqual(expected);
      await page.getByLabel("Corporate").check();
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Show events" }).click();
      await page.waitForURL((url) => url.searchParams.getAll("for").length === 2);
      await expect
        .poll(() => cardTitles(page))
        .toEqual((await apiEvents("?for=freemasons,corporate")).map((view) => view.event_name));
      await page.context().close();
    });

    it("filters by date window", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/book-event-main");
      await page.getByLabel("When").selectOption("next-week");
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Show events" }).click();
      await page.waitForURL((url) => url.searchParams.get("date") === "next-week");
      const expected = (await apiEvents("?date=next-week")).map((view) => view.event_name);
      const all = await apiEvents();
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      await expect.poll(() => cardTitles(page)).toEqual(expected);
      await page.context().close();
    });

    it("filters by location, and says when nothing matches", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/book-event-main");
      if (javaScriptEnabled) await page.getByRole("tab", { name: "By Location" }).click();
      await page.getByLabel("Town or postcode").fill("Ipswich");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL((url) => url.searchParams.get("location") === "Ipswich");
      const expected = (await apiEvents("?location=Ipswich")).map((view) => view.event_name);
      expect(expected.length).toBeGreaterThan(0);
      await expect.poll(() => cardTitles(page)).toEqual(expected);
      await page.getByLabel("Town or postcode").fill("Atlantis");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByText("No upcoming events found", { exact: true }).first().waitFor();
      expect(await page.locator(".event-card").count()).toBe(0);
      await page.context().close();
    });
  });

  describe(`private events ${mode}`, () => {
    it("refuses a wrong code with 'Invalid Access code' and continues with the right one", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      const id = await eventIdByName("Lowestoft Masonic Hall Screening");
      await page.goto(`/event/${id}`);
      await page.getByRole("link", { name: "BOOK EVENT" }).click();
      // With scripts the code is asked for in a dialog; without, in a form on the page.
      const form = javaScriptEnabled ? page.getByRole("dialog") : page.locator("#access-code");
      const field = form.getByLabel("Please enter Access Code");
      expect(await field.getAttribute("placeholder")).toBe("Access code");
      await field.fill("not-the-code");
      await form.getByRole("button", { name: "Submit" }).click();
      await form.getByText("Invalid Access code").waitFor();
      if (javaScriptEnabled) {
        await expectNoAxeViolations(page);
        // Closing clears the code and the error.
        await page.getByRole("button", { name: "Close" }).click();
        await page.getByRole("link", { name: "BOOK EVENT" }).click();
        expect(await field.inputValue()).toBe("");
        expect(await form.getByText("Invalid Access code").count()).toBe(0);
      }
      await form.getByLabel("Please enter Access Code").fill(DEMO_ACCESS_CODES.lodge.toLowerCase());
      await form.getByRole("button", { name: "Submit" }).click();
      await page.waitForURL((url) => url.pathname === "/login");
      expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(`/book-event?event=${id}`);
      await page.context().close();
    });
  });
}

describe("the access-code dialog", () => {
  it("is a modal: it opens with focus on the code, Escape closes it, Cancel too", async () => {
    const page = await newPage(browser());
    const id = await eventIdByName("Orwell Logistics Head Office Screening");
    await page.goto(`/event/${id}`);
    await page.getByRole("link", { name: "BOOK EVENT" }).click();
    const dialog = page.getByRole("dialog", { name: "Orwell Logistics Head Office Screening" });
    await dialog.waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe("dialog-access_code");
    await expectNoAxeViolations(page);
    // Tab stays inside the dialog.
    for (let step = 0; step < 6; step++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog")))).toBe(
        true,
      );
    }
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await page.getByRole("link", { name: "BOOK EVENT" }).click();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await page.context().close();
  });
});

describe("event pages and cards", () => {
  it("opens /event/{id} directly, with every detail", async () => {
    const page = await newPage(browser());
    const id = await eventIdByName("Colchester Hospital Partnership Clinic");
    const response = await page.goto(`/event/${id}`);
    expect(response?.status()).toBe(200);
    await page
      .getByRole("heading", { level: 1, name: "Colchester Hospital Partnership Clinic" })
      .waitFor();
    const details = await page.locator(".event-details").textContent();
    expect(details).toContain("Price£40.00");
    expect(details).toMatch(
      /(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2} \w+ \d{4}/,
    );
    expect(details).toContain("09:00 to 12:00");
    expect(details).toContain("Public Event");
    expect(details).toContain("36 spaces available");
    expect(details).toContain("CO4 5BU");
    expect(await page.getByRole("link", { name: "events@example.org" }).getAttribute("href")).toBe(
      "mailto:events@example.org",
    );
    expect(await page.getByRole("note").textContent()).toContain("10 digits");
    expect(await page.getByRole("link", { name: "BOOK EVENT" }).getAttribute("href")).toBe(
      `/book-event?event=${id}`,
    );
    await expect.poll(() => page.locator(".leaflet-marker-icon").count()).toBe(1);
    await expectNoAxeViolations(page);
    expect(pageProblems(page)).toEqual([]);
    await page.context().close();
  });

  it("says Free wherever the visitor will not pay, and 404 for an unknown id", async () => {
    const page = await newPage(browser());
    // Price 0; payment not required although the product costs £40.00; payment unknown.
    for (const name of [
      "Stratford Community PSA Morning",
      "Orwell Logistics Staff Screening",
      "Witham Public Hall Screening",
    ]) {
      await page.goto(`/event/${await eventIdByName(name)}`);
      const details = await page.locator(".event-details").textContent();
      expect(details, name).toContain("PriceFree");
      expect(details, name).not.toContain("£");
    }
    expect((await page.goto("/event/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
    expect((await page.goto("/event/not-an-id"))?.status()).toBe(404);
    await page.context().close();
  });

  it("shows a fully booked event with a disabled button, on its card and its page", async () => {
    const page = await newPage(browser());
    await page.goto("/book-event-main?for=freemasons");
    const card = page.locator(".event-card", { hasText: "Maldon Lodge Screening Evening" });
    const button = card.getByRole("button", { name: /Fully Booked/ });
    expect(await button.isDisabled()).toBe(true);
    expect(await card.getByRole("link").count()).toBe(0);
    await page.goto(`/event/${await eventIdByName("Maldon Lodge Screening Evening")}`);
    expect(await page.getByRole("button", { name: /Fully Booked/ }).isDisabled()).toBe(true);
    expect(await page.getByRole("link", { name: "BOOK EVENT" }).count()).toBe(0);
    await page.context().close();
  });

  it("closes a public event within 24 hours (Booking closed) but keeps a corporate-only one open", async () => {
    const events = await apiEvents();
    const publicToday = events.find(
      (view) => view.event_name === "Chelmsford Civic Centre Drop-in",
    )!;
    const corporateToday = events.find(
      (view) => view.event_name === "Orwell Logistics Staff Screening",
    )!;
    expect(publicToday.spaces_left).toBeGreaterThan(0);
    expect(publicToday.booking_status).toBe("closed");
    expect(corporateToday.booking_status).toBe("bookable");

    const page = await newPage(browser());
    await page.goto("/book-event-main?date=today");
    const card = page.locator(".event-card", { hasText: "Chelmsford Civic Centre Drop-in" });
    const button = card.getByRole("button", { name: /Booking closed/ });
    expect(await button.isDisabled()).toBe(true);
    expect(await button.locator("svg").count()).toBe(1);
    expect(await card.getByRole("button", { name: /Fully Booked/ }).count()).toBe(0);
    expect(await card.getByRole("link").count()).toBe(0);
    await page.goto(`/event/${publicToday.id}`);
    expect(await page.getByRole("button", { name: /Booking closed/ }).isDisabled()).toBe(true);
    expect(await page.getByRole("link", { name: "BOOK EVENT" }).count()).toBe(0);
    expect(await page.locator(".event-details").textContent()).toContain("spaces available");
    expect(await page.locator("main").textContent()).toContain(
      "Booking for a public event closes 24 hours before it ends.",
    );
    await page.context().close();
  });

  it("labels corporate-only events for the host employer's staff, in words and with an icon", async () => {
    const label = "Corporate event: for the host employer's staff only";
    const page = await newPage(browser());
    await page.goto(`/event/${await eventIdByName("Orwell Logistics Staff Screening")}`);
    const details = page.locator(".event-details");
    expect(await details.textContent()).toContain(label);
    expect(await details.textContent()).not.toContain("Public Event");
    expect(await details.locator(".status", { hasText: label }).locator("svg").count()).toBe(1);
    // Private and corporate-only: both labels.
    await page.goto(`/event/${await eventIdByName("Orwell Logistics Head Office Screening")}`);
    expect(await page.locator(".event-details").textContent()).toContain("Private Event");
    expect(await page.locator(".event-details").textContent()).toContain(label);
    // A public event says so.
    await page.goto(`/event/${await eventIdByName("Westminster Central Hall Screening")}`);
    expect(await page.locator(".event-details").textContent()).toContain("Public Event");
    expect(await page.locator(".event-details").textContent()).not.toContain(label);

    await page.goto("/book-event-main?for=corporate");
    const corporate = (await apiEvents("?for=corporate")).filter(
      (view) => view.exclusive_for === "CORPORATE",
    );
    expect(corporate.length).toBeGreaterThan(1);
    for (const view of corporate) {
      const card = page.locator(".event-card", { hasText: view.event_name });
      expect(await card.getByText(label).count(), view.event_name).toBe(1);
    }
    await page.context().close();
  });

  it("shows the price, or Free, on every card", async () => {
    const page = await newPage(browser());
    await page.goto("/book-event-main");
    const card = (name: string) => page.locator(".event-card", { hasText: name });
    expect(await card("Westminster Central Hall Screening").textContent()).toContain(
      "Price: £25.00",
    );
    for (const name of [
      "Stratford Community PSA Morning",
      "Orwell Logistics Staff Screening",
      "Witham Public Hall Screening",
    ]) {
      expect(await card(name).getByText("Free", { exact: true }).count(), name).toBe(1);
      expect(await card(name).textContent(), name).not.toContain("£");
    }
    const cards = await page.locator(".event-card").count();
    const prices = await page.locator(".event-card .event-card__price").allTextContents();
    expect(prices).toHaveLength(cards);
    for (const price of prices) expect(price.trim()).toMatch(/^(Price: £\d+\.\d{2}|Free)$/);
    await page.context().close();
  });

  it("puts one marker on the map for each upcoming event that has not started and has a place", async () => {
    const page = await newPage(browser());
    await page.goto("/book-event-main");
    const now = Date.now();
    const expected = (await apiEvents()).filter(
      (view) =>
        view.latitude !== null &&
        eventStart({
          eventDate: view.event_date,
          startTime: view.start_time,
          endTime: view.end_time,
        }).getTime() >= now,
    );
    expect(expected.length).toBeGreaterThan(10);
    await expect.poll(() => page.locator(".leaflet-marker-icon").count()).toBe(expected.length);
    // Markers are not tab stops (every one's event is listed with its own link); a click opens the popup.
    const tabbable = await page
      .locator(".leaflet-marker-icon")
      .evaluateAll((markers) => markers.filter((marker) => marker.tabIndex >= 0).length);
    expect(tabbable).toBe(0);
    const firstMarker = page.locator(".leaflet-marker-icon").first();
    const name = await firstMarker.getAttribute("title");
    // Nearby markers overlap at this zoom, so the click is sent to the marker itself.
    await firstMarker.dispatchEvent("click");
    await expect.poll(() => page.locator(".leaflet-popup-content").textContent()).toBe(name);
    // The map itself is one tab stop.
    expect(await page.locator(".event-map [tabindex='0']").count()).toBe(1);
    await expectNoAxeViolations(page);
    expect(pageProblems(page)).toEqual([]);
    await page.context().close();
  });

  it("reaches the first event from the keyboard without passing the map pins, or by skipping the map", async () => {
    const page = await newPage(browser(), { viewport: { width: 1280, height: 800 } });
    await page.goto("/book-event-main");
    await expect.poll(() => page.locator(".leaflet-marker-icon").count()).toBeGreaterThan(10);
    const firstEventLink = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return active?.tagName === "A" && Boolean(active.closest(".event-card"));
      });
    let tabs = 0;
    while (!(await firstEventLink()) && tabs < 100) {
      await page.keyboard.press("Tab");
      tabs++;
    }
    // 71 with the 27 pins in the tab order; 45 without them (the header and the filters come first).
    expect(tabs).toBeLessThanOrEqual(50);

    await page.goto("/book-event-main");
    await expect.poll(() => page.locator(".leaflet-marker-icon").count()).toBeGreaterThan(10);
    const skip = page.getByRole("link", { name: "Skip the map" });
    await skip.focus();
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await firstEventLink()).toBe(true);
    await page.context().close();
  });

  it("shows upcoming events on the home page and /events, and only bookable cards link", async () => {
    const page = await newPage(browser());
    await page.goto("/");
    const cards = page.locator("#upcoming-events .event-card");
    await expect.poll(() => cards.count()).toBe(6);
    for (const card of await cards.all()) {
      const links = await card.getByRole("link").count();
      const disabled = await card.getByRole("button", { disabled: true }).count();
      expect(links > 0 ? disabled : 1).toBe(links > 0 ? 0 : disabled);
    }
    await page.getByRole("link", { name: /SEE MORE/ }).click();
    await page.waitForURL(/\/events$/);
    expect(await page.locator(".event-card").count()).toBeGreaterThan(0);
    await page.context().close();
  });
});
