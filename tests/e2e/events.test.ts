import { format } from "date-fns";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { event } from "#app/db/schema";
import { createAccessCode } from "#app/services/access-codes.server";
import type { EventView } from "#app/services/events.server";
import {
  endingIn,
  happeningNow,
  insertConfirmedBookings,
  insertFreeEvent,
  insertPaidEvent,
  londonDay,
  uniqueId,
  uniqueTown,
} from "#tests/support/fixtures";
import {
  baseURL,
  browserForThisFile,
  expectNoAxeViolations,
  hydrated,
  newPage,
  pageProblems,
  serverDatabaseForThisFile,
} from "./support";
import { newPatientPage } from "./patient-support";

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

type EventValues = Partial<typeof event.$inferInsert>;

/**
 * This test's own events, in a town of their own (so that a location search lists exactly these),
 * each with a product of its own at `pricePence` (£25.00 unless given) and the town in its name.
 */
async function eventsInATown(
  ...specs: (EventValues & { label: string; pricePence?: number; booked?: number })[]
) {
  const town = uniqueTown();
  const rows = [];
  for (const [index, { label, pricePence, booked = 0, ...values }] of specs.entries()) {
    const row = await insertPaidEvent(
      server.db,
      { name: `${town} ${label}`, city: town, eventDate: londonDay(3 + index), ...values },
      pricePence,
    );
    await insertConfirmedBookings(server.db, row.id, booked);
    rows.push(row);
  }
  return { town, events: rows, names: rows.map((row) => row.name) };
}

const inTown = (town: string, search = "") =>
  `/book-event-main?location=${encodeURIComponent(town)}${search}`;

async function apiEvents(search = ""): Promise<EventView[]> {
  const response = await fetch(`${baseURL()}/api/events${search}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { events: EventView[] }).events;
}

const cardTitles = (page: Page) => page.locator(".event-card .card__title").allTextContents();

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "with JavaScript off";

  describe(`finding events ${mode}`, () => {
    it("filters by category", async () => {
      const { town, names } = await eventsInATown(
        { label: "Lodge Screening", category: "freemasons" },
        { label: "Works Screening", category: "corporate" },
        { label: "Club Screening", category: "community" },
      );
      const [lodge, works] = names;
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto(inTown(town));
      await expect.poll(() => cardTitles(page)).toEqual(names);
      await page.getByLabel("Freemasons").check();
      await page.getByRole("button", { name: "Show events" }).click();
      await page.waitForURL((url) => url.searchParams.getAll("for").includes("freemasons"));
      await expect.poll(() => cardTitles(page)).toEqual([lodge]);
      await page.getByLabel("Corporate").check();
      await page.getByRole("button", { name: "Show events" }).click();
      await page.waitForURL((url) => url.searchParams.getAll("for").length === 2);
      await expect.poll(() => cardTitles(page)).toEqual([lodge, works]);
      await page.context().close();
    });

    it("filters by date window", async () => {
      const { town, names } = await eventsInATown(
        { label: "In Three Days", eventDate: londonDay(3) },
        { label: "In Seven Days", eventDate: londonDay(7) },
        { label: "In Nine Days", eventDate: londonDay(9) },
        { label: "In Twenty Days", eventDate: londonDay(20) },
      );
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto(inTown(town));
      await page.getByLabel("When").selectOption("next-week");
      await page.getByRole("button", { name: "Show events" }).click();
      await page.waitForURL((url) => url.searchParams.get("date") === "next-week");
      // Next week: today and the seven days after it.
      await expect.poll(() => cardTitles(page)).toEqual(names.slice(0, 2));
      await page.context().close();
    });

    it("filters by location, and says when nothing matches", async () => {
      const { town, names } = await eventsInATown(
        { label: "Hall Screening" },
        { label: "Church Screening" },
      );
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/book-event-main");
      await page.getByLabel("Town or postcode").fill(town);
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL((url) => url.searchParams.get("location") === town);
      await expect.poll(() => cardTitles(page)).toEqual(names);
      await page.getByLabel("Town or postcode").fill(`Nowhere ${uniqueId()}`);
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByText("No upcoming events found", { exact: true }).first().waitFor();
      expect(await page.locator(".event-card").count()).toBe(0);
      // A way out of a search that found nothing: every event again.
      await page.getByRole("link", { name: "See every upcoming event" }).click();
      await page.waitForURL((url) => url.pathname === "/book-event-main" && url.search === "");
      await page.context().close();
    });
  });

  describe(`private events ${mode}`, () => {
    it("refuses a wrong code with 'Invalid Access code' and continues with the right one", async () => {
      const {
        events: [lodge],
      } = await eventsInATown({
        label: "Masonic Hall Screening",
        category: "freemasons",
        isPublic: false,
      });
      const code = `LODGE-${uniqueId().toUpperCase()}`;
      await createAccessCode(server.db, { eventId: lodge!.id, code });
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto(`/event/${lodge!.id}`);
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
      await form.getByLabel("Please enter Access Code").fill(code.toLowerCase());
      await form.getByRole("button", { name: "Submit" }).click();
      await page.waitForURL((url) => url.pathname === "/login");
      expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(
        `/book-event?event=${lodge!.id}`,
      );
      await page.context().close();
    });
  });
}

describe("the access-code dialog", () => {
  it("is a modal: it opens with focus on the code, Escape closes it, Cancel too", async () => {
    const {
      events: [office],
    } = await eventsInATown({
      label: "Head Office Screening",
      category: "corporate",
      exclusiveFor: "CORPORATE",
      isPublic: false,
    });
    const page = await newPage(browser());
    await page.goto(`/event/${office!.id}`);
    await page.getByRole("link", { name: "BOOK EVENT" }).click();
    const dialog = page.getByRole("dialog", { name: office!.name });
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
    const eventDate = londonDay(10);
    const {
      events: [clinic],
    } = await eventsInATown({
      label: "Hospital Partnership Clinic",
      pricePence: 4000,
      eventDate,
      startTime: "09:00",
      endTime: "12:00",
      totalSpaces: 40,
      booked: 4,
      postcode: "CO4 5BU",
      labName: "ESNEFT",
      contactEmail: "events@example.org",
    });
    const page = await newPage(browser());
    const response = await page.goto(`/event/${clinic!.id}`);
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: clinic!.name }).waitFor();
    const details = await page.locator(".event-details").textContent();
    expect(details).toContain("Price£40.00");
    expect(details).toContain(format(new Date(`${eventDate}T12:00:00Z`), "EEEE, dd MMMM yyyy"));
    expect(details).toContain("09:00 to 12:00");
    expect(details).toContain("Public Event");
    expect(details).toContain("36 spaces available");
    expect(details).toContain("CO4 5BU");
    expect(await page.getByRole("link", { name: "events@example.org" }).getAttribute("href")).toBe(
      "mailto:events@example.org",
    );
    // The ESNEFT laboratory needs the NHS number.
    expect(await page.getByRole("note").textContent()).toContain("10 digits");
    expect(await page.getByRole("link", { name: "BOOK EVENT" }).getAttribute("href")).toBe(
      `/book-event?event=${clinic!.id}`,
    );
    await expect.poll(() => page.locator(".leaflet-marker-icon").count()).toBe(1);
    await expectNoAxeViolations(page);
    expect(pageProblems(page)).toEqual([]);
    await page.context().close();
  });

  it("says Free wherever the visitor will not pay, and 404 for an unknown id", async () => {
    const { events } = await eventsInATown(
      { label: "Price Nought", pricePence: 0, paymentRequired: true },
      { label: "Payment Not Required", pricePence: 4000, paymentRequired: false },
      { label: "Payment Unknown", pricePence: 4000, paymentRequired: null },
    );
    const page = await newPage(browser());
    for (const row of events) {
      await page.goto(`/event/${row.id}`);
      const details = await page.locator(".event-details").textContent();
      expect(details, row.name).toContain("PriceFree");
      expect(details, row.name).not.toContain("£");
    }
    expect((await page.goto("/event/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
    expect((await page.goto("/event/not-an-id"))?.status()).toBe(404);
    await page.context().close();
  });

  it("shows a fully booked event with a disabled button and a way to its waiting list, on its card and its page", async () => {
    const {
      town,
      events: [full],
    } = await eventsInATown({
      label: "Lodge Screening Evening",
      category: "freemasons",
      totalSpaces: 10,
      booked: 10,
    });
    const page = await newPage(browser());
    await page.goto(inTown(town, "&for=freemasons"));
    const card = page.locator(".event-card", { hasText: full!.name });
    const button = card.getByRole("button", { name: /Fully Booked/ });
    expect(await button.isDisabled()).toBe(true);
    // Its one link is to the event's waiting list.
    const links = card.getByRole("link");
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute("href")).toBe(`/event/${full!.id}#waiting-list`);
    expect(await links.textContent()).toBe(`Join the waiting list: ${full!.name}`);
    await page.goto(`/event/${full!.id}`);
    expect(await page.getByRole("button", { name: /Fully Booked/ }).isDisabled()).toBe(true);
    expect(await page.getByRole("link", { name: "BOOK EVENT" }).count()).toBe(0);
    await page.context().close();
  });

  it("closes a public event within 24 hours (Booking closed) but keeps a corporate-only one open", async () => {
    const soon = endingIn(3, { hours: 2 });
    const {
      town,
      events: [publicSoon, corporateSoon],
    } = await eventsInATown(
      { label: "Civic Centre Drop-in", ...soon },
      { label: "Staff Screening", category: "corporate", exclusiveFor: "CORPORATE", ...soon },
    );
    const listed = await apiEvents(`?location=${encodeURIComponent(town)}`);
    const publicView = listed.find((view) => view.id === publicSoon!.id)!;
    expect(publicView.spaces_left).toBeGreaterThan(0);
    expect(publicView.booking_status).toBe("closed");
    expect(listed.find((view) => view.id === corporateSoon!.id)!.booking_status).toBe("bookable");

    const page = await newPage(browser());
    await page.goto(inTown(town));
    const card = page.locator(".event-card", { hasText: publicSoon!.name });
    const button = card.getByRole("button", { name: /Booking closed/ });
    expect(await button.isDisabled()).toBe(true);
    expect(await button.locator("svg").count()).toBe(1);
    expect(await card.getByRole("button", { name: /Fully Booked/ }).count()).toBe(0);
    expect(await card.getByRole("link").count()).toBe(0);
    const corporateCard = page.locator(".event-card", { hasText: corporateSoon!.name });
    expect(await corporateCard.getByRole("link").count()).toBeGreaterThan(0);
    await page.goto(`/event/${publicSoon!.id}`);
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
    const {
      town,
      events: [staffOnly, privateStaffOnly, open, corporateForAll],
    } = await eventsInATown(
      { label: "Staff Screening", category: "corporate", exclusiveFor: "CORPORATE" },
      {
        label: "Head Office Screening",
        category: "corporate",
        exclusiveFor: "CORPORATE",
        isPublic: false,
      },
      { label: "Central Hall Screening" },
      { label: "Employers' Screening", category: "corporate" },
    );
    const page = await newPage(browser());
    await page.goto(`/event/${staffOnly!.id}`);
    const details = page.locator(".event-details");
    expect(await details.textContent()).toContain(label);
    expect(await details.textContent()).not.toContain("Public Event");
    expect(await details.locator(".status", { hasText: label }).locator("svg").count()).toBe(1);
    // Private and corporate-only: both labels.
    await page.goto(`/event/${privateStaffOnly!.id}`);
    expect(await page.locator(".event-details").textContent()).toContain("Private Event");
    expect(await page.locator(".event-details").textContent()).toContain(label);
    // A public event says so.
    await page.goto(`/event/${open!.id}`);
    expect(await page.locator(".event-details").textContent()).toContain("Public Event");
    expect(await page.locator(".event-details").textContent()).not.toContain(label);

    // On the cards: a corporate event for everyone has no such label.
    await page.goto(inTown(town, "&for=corporate"));
    const card = (row: { name: string }) => page.locator(".event-card", { hasText: row.name });
    for (const row of [staffOnly!, privateStaffOnly!])
      expect(await card(row).getByText(label).count(), row.name).toBe(1);
    expect(await card(corporateForAll!).count()).toBe(1);
    expect(await card(corporateForAll!).getByText(label).count()).toBe(0);
    await page.context().close();
  });

  it("shows the price, or Free, on every card", async () => {
    const { town, events } = await eventsInATown(
      { label: "Central Hall Screening", pricePence: 2500, paymentRequired: true },
      { label: "Price Nought", pricePence: 0, paymentRequired: true },
      { label: "Payment Not Required", pricePence: 4000, paymentRequired: false },
      { label: "Payment Unknown", pricePence: 4000, paymentRequired: null },
    );
    const [paid, ...free] = events;
    const page = await newPage(browser());
    await page.goto(inTown(town));
    const card = (name: string) => page.locator(".event-card", { hasText: name });
    expect(await card(paid!.name).textContent()).toContain("Price: £25.00");
    for (const { name } of free) {
      expect(await card(name).getByText("Free", { exact: true }).count(), name).toBe(1);
      expect(await card(name).textContent(), name).not.toContain("£");
    }
    // And every card of the whole list has a price or Free.
    await page.goto("/book-event-main");
    const cards = await page.locator(".event-card").count();
    const prices = await page.locator(".event-card .event-card__price").allTextContents();
    expect(prices).toHaveLength(cards);
    for (const price of prices) expect(price.trim()).toMatch(/^(Price: £\d+\.\d{2}|Free)$/);
    await page.context().close();
  });

  it("puts one marker on the map for each upcoming event that has not started and has a place", async () => {
    const { town, names } = await eventsInATown(
      { label: "Market Hall Screening", latitude: 51.9, longitude: 0.9 },
      { label: "Quay Screening", latitude: 51.95, longitude: 1.28 },
      { label: "No Map Screening", latitude: null, longitude: null },
      // Started before now: still listed (bookable to its end) but not on the map.
      { label: "Running Now Screening", ...happeningNow(), exclusiveFor: "CORPORATE" },
    );
    const page = await newPage(browser());
    await page.goto(inTown(town));
    await expect.poll(() => cardTitles(page)).toHaveLength(4);
    const markers = page.locator(".leaflet-marker-icon");
    await expect.poll(() => markers.count()).toBe(2);
    expect(
      (
        await markers.evaluateAll((icons) => icons.map((icon) => icon.getAttribute("title")))
      ).sort(),
    ).toEqual(names.slice(0, 2).sort());
    // Markers are not tab stops (every one's event is listed with its own link); a click opens the popup.
    const tabbable = await markers.evaluateAll(
      (icons) => icons.filter((icon) => (icon as HTMLElement).tabIndex >= 0).length,
    );
    expect(tabbable).toBe(0);
    const name = await markers.first().getAttribute("title");
    // Nearby markers can overlap, so the click is sent to the marker itself.
    await markers.first().dispatchEvent("click");
    await expect.poll(() => page.locator(".leaflet-popup-content").textContent()).toBe(name);
    // The map itself is one tab stop.
    expect(await page.locator(".event-map [tabindex='0']").count()).toBe(1);
    await expectNoAxeViolations(page);
    expect(pageProblems(page)).toEqual([]);
    await page.context().close();
  });

  it("reaches the first event from the keyboard without passing the map pins, or by skipping the map", async () => {
    const pins = 8;
    const { town } = await eventsInATown(
      ...Array.from({ length: pins }, (_, index) => ({
        label: `Pin ${index + 1} Screening`,
        latitude: 51.5 + index / 10,
        longitude: 0.1 + index / 10,
      })),
    );
    const page = await newPage(browser(), { viewport: { width: 1280, height: 800 } });
    await page.goto(inTown(town));
    await expect.poll(() => page.locator(".leaflet-marker-icon").count()).toBe(pins);
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return {
          onEventLink: active?.tagName === "A" && Boolean(active.closest(".event-card")),
          onPin: Boolean(active?.classList.contains("leaflet-marker-icon")),
        };
      });
    let tabs = 0;
    let pinsPassed = 0;
    for (let now = await focused(); !now.onEventLink && tabs < 100; now = await focused()) {
      await page.keyboard.press("Tab");
      tabs++;
      if ((await focused()).onPin) pinsPassed++;
    }
    expect((await focused()).onEventLink).toBe(true);
    expect(pinsPassed).toBe(0);
    // About 45 tab stops (the header and the filters come first); the 8 pins would make 53.
    expect(tabs).toBeLessThanOrEqual(50);

    await page.goto(inTown(town));
    await expect.poll(() => page.locator(".leaflet-marker-icon").count()).toBe(pins);
    const skip = page.getByRole("link", { name: "Skip the map" });
    await skip.focus();
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect((await focused()).onEventLink).toBe(true);
    await page.context().close();
  });

  it("shows upcoming events on the home page and /events, and only bookable cards link", async () => {
    // At least six upcoming events, whatever else the database holds.
    await eventsInATown(
      ...Array.from({ length: 6 }, (_, index) => ({
        label: `Home ${index + 1} Screening`,
        eventDate: londonDay(index + 2),
      })),
    );
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

describe("the finder for a keyboard user (issue: filters acted on one arrow key)", () => {
  it("changes a filter without reloading; Show events applies it, keeps focus and announces the count", async () => {
    const { town, names } = await eventsInATown(
      { label: "Soon Screening", eventDate: londonDay(3) },
      { label: "Later Screening", eventDate: londonDay(20) },
    );
    const page = await newPage(browser());
    await page.goto(inTown(town));
    await expect.poll(() => cardTitles(page)).toEqual(names);
    // Date and place are plain sections, both shown: no tabs that need scripts.
    expect(await page.getByRole("tab").count()).toBe(0);
    expect(await page.getByLabel("Town or postcode").isVisible()).toBe(true);

    const when = page.getByLabel("When");
    await when.focus();
    // "Select Date", then "What's on today", then "What's on next week".
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await when.inputValue()).toBe("next-week");
    const community = page.getByLabel("Community");
    await community.focus();
    await page.keyboard.press("Space");
    expect(await community.isChecked()).toBe(true);
    // Nothing reloads until asked: the address, the list and the focus stay as they were.
    await page.waitForTimeout(1000);
    expect(new URL(page.url()).searchParams.get("date")).toBeNull();
    expect(await community.evaluate((box) => box === document.activeElement)).toBe(true);
    expect(await cardTitles(page)).toEqual(names);

    // Tab on past the other types to the button, and press Enter on it.
    const apply = page.getByRole("button", { name: "Show events" });
    const onApply = () => apply.evaluate((button) => button === document.activeElement);
    for (let tabs = 0; tabs < 5 && !(await onApply()); tabs++) await page.keyboard.press("Tab");
    expect(await onApply()).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("date") === "next-week");
    await expect.poll(() => cardTitles(page)).toEqual([names[0]]);
    // Focus stays where the person was, and the count is announced (in the singular for one).
    expect(await onApply()).toBe(true);
    await expect
      .poll(() => page.locator("[aria-live] [role='status']").textContent())
      .toBe("1 upcoming event found");
    // Said under the button as well, with a link down to the list (far below, on a phone).
    expect(await page.locator(".filter-found").textContent()).toBe(
      "1 upcoming event found. See it",
    );
    expect(await page.getByRole("link", { name: "See it" }).getAttribute("href")).toBe(
      "#results-title",
    );
    expect(await when.inputValue()).toBe("next-week");
    expect(await community.isChecked()).toBe(true);
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it("fits the map to its markers, wherever they are", async () => {
    // Essex and Suffolk: north-east of London, out of a London-centred zoom-8 view's top.
    const { town } = await eventsInATown(
      { label: "Ipswich Screening", latitude: 52.0567, longitude: 1.1482 },
      { label: "Sudbury Screening", latitude: 52.0383, longitude: 0.7307 },
      { label: "Colchester Screening", latitude: 51.8959, longitude: 0.8919 },
    );
    const page = await newPage(browser(), { viewport: { width: 390, height: 844 } });
    await page.goto(inTown(town));
    const markers = page.locator(".leaflet-marker-icon");
    await expect.poll(() => markers.count(), { timeout: 15_000 }).toBe(3);
    const map = await page.locator(".leaflet-container").boundingBox();
    for (const marker of await markers.all()) {
      const box = (await marker.boundingBox())!;
      // Each pin wholly inside the map.
      expect(box.y).toBeGreaterThanOrEqual(map!.y);
      expect(box.x).toBeGreaterThanOrEqual(map!.x);
      expect(box.y + box.height).toBeLessThanOrEqual(map!.y + map!.height);
      expect(box.x + box.width).toBeLessThanOrEqual(map!.x + map!.width);
    }
    // On a phone the attribution takes a small part of the map.
    const attribution = (await page.locator(".leaflet-control-attribution").boundingBox())!;
    expect(attribution.width * attribution.height).toBeLessThan((map!.width * map!.height) / 10);
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("the finder on a slow phone", () => {
  it("keeps a filter changed while the page's script was still loading", async () => {
    const { town } = await eventsInATown({
      label: "Slow Phone Screening",
      eventDate: londonDay(3),
    });
    const page = await newPage(browser());
    // The script arrives late, as on an old phone on a weak signal.
    let release!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto(inTown(town), { waitUntil: "domcontentloaded" });
    await page.getByLabel("When").selectOption("next-week");
    release();
    // The scripts load and the page hydrates (its effects run just after).
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(500);
    expect(await page.getByLabel("When").inputValue()).toBe("next-week");
    await page.context().close();
  });
});

describe("the booking page's words", () => {
  it("sends /book-event without an event to /events, as the spec says", async () => {
    const { page } = await newPatientPage(browser());
    await page.goto("/book-event");
    await page.waitForURL((url) => url.pathname === "/events");
    const anonymous = await fetch(`${baseURL()}/book-event`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(new URL(anonymous.headers.get("location")!, baseURL()).pathname).toBe("/events");
    await page.context().close();
  });

  it("counts the times a person can choose, and shows charges only for a paid event", async () => {
    // 10:00 to 12:00 in 30-minute slots: four times.
    const free = await insertFreeEvent(server.db, {
      name: `Free Words ${uniqueId()} Screening`,
      eventDate: londonDay(6),
    });
    const paid = await insertPaidEvent(server.db, {
      name: `Paid Words ${uniqueId()} Screening`,
      eventDate: londonDay(6),
    });
    const { page } = await newPatientPage(browser());
    await page.goto(`/book-event?event=${free.id}`);
    const times = page.getByRole("group", { name: "Available times" });
    await times.waitFor();
    expect(await times.textContent()).toContain("4 times available.");
    expect(await times.textContent()).not.toContain("free");
    expect(await page.locator("main").textContent()).not.toContain("nothing is refunded");
    await page.goto(`/book-event?event=${paid.id}`);
    await page.getByRole("heading", { name: "Cancellation Policy" }).waitFor();
    expect(await page.locator("main").textContent()).toContain(
      "If you cancel later, nothing is refunded.",
    );
    await page.context().close();
  });
});

describe("access codes that were right but can no longer be used", () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`say why after 'Invalid Access code' ${javaScriptEnabled ? "in the dialog" : "in the form without JavaScript"}`, async () => {
      const {
        events: [lodge],
      } = await eventsInATown({ label: "Used Up Lodge Screening", isPublic: false });
      const usedUp = `FULL-${uniqueId().toUpperCase()}`;
      const expired = `OLD-${uniqueId().toUpperCase()}`;
      await createAccessCode(server.db, { eventId: lodge!.id, code: usedUp, maxUses: 1, uses: 1 });
      await createAccessCode(server.db, {
        eventId: lodge!.id,
        code: expired,
        expiresAt: new Date(Date.now() - 60_000),
      });
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto(`/event/${lodge!.id}`);
      await page.getByRole("link", { name: "BOOK EVENT" }).click();
      const form = javaScriptEnabled ? page.getByRole("dialog") : page.locator("#access-code");
      const attempt = async (code: string) => {
        await form.getByLabel("Please enter Access Code").fill(code);
        await form.getByRole("button", { name: "Submit" }).click();
      };
      await attempt(usedUp);
      await form.getByText(/Invalid Access code: .*used as many times as it allows/).waitFor();
      await attempt(expired);
      await form.getByText(/Invalid Access code: .*expired/).waitFor();
      await attempt("NOT-THE-CODE");
      await form.getByText(/Invalid Access code$/).waitFor();
      expect(await form.getByText(/expired|used as many/).count()).toBe(0);
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await page.context().close();
    });
  }
});

describe("a search on a phone with large text (found by a review)", () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`shows how many events were found after Search, ${javaScriptEnabled ? "with" : "without"} JavaScript`, async () => {
      const { town } = await eventsInATown({ label: "Count Screening" });
      const page = await newPage(browser(), {
        viewport: { width: 360, height: 640 },
        javaScriptEnabled,
      });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
      await page.goto("/book-event-main");
      if (javaScriptEnabled) await page.locator("html.js").waitFor({ state: "attached" });
      await page.getByLabel("Town or postcode").fill(town);
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get("location") === town);
      const found = page.locator(".filter-found");
      await expect.poll(() => found.textContent()).toBe("1 upcoming event found. See it");
      await expect
        .poll(() =>
          found.evaluate((line) => {
            const box = line.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight + 1;
          }),
        )
        .toBe(true);
      if (javaScriptEnabled)
        // Focus stays on the button he pressed (WCAG 3.2.2 asks nothing more to move).
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Search");
      await page.context().close();
    });
  }
});

describe("the map without JavaScript (found by a review)", () => {
  it("leaves no empty map box or landmark, and the event's page links to the place on a map", async () => {
    const { town, events } = await eventsInATown({
      label: "Map Screening",
      latitude: 51.7356,
      longitude: 0.4685,
    });
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto(`/event/${events[0]!.id}`);
    expect(await page.getByRole("region", { name: /^Map showing/ }).count()).toBe(0);
    expect(await page.locator(".event-map").isVisible()).toBe(false);
    expect(
      await page
        .getByRole("link", { name: "See the place on a map (OpenStreetMap)" })
        .getAttribute("href"),
    ).toBe("https://www.openstreetmap.org/?mlat=51.73560&mlon=0.46850#map=17/51.73560/0.46850");

    await page.goto(inTown(town));
    await page.getByRole("heading", { name: "Upcoming events" }).waitFor();
    expect(await page.getByRole("region", { name: "Map of upcoming events" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Skip the map" }).count()).toBe(0);
    await page.context().close();
  });
});

describe("content that matches the site", () => {
  it("links the corporate screening page, which says corporate-only events stay bookable to the end", async () => {
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto("/information-hub/health-workplace");
    await page.getByRole("link", { name: "Find out more on our corporate screening page" }).click();
    await page.waitForURL((url) => url.pathname === "/events/corporate-screening");
    const text = await page.locator("main").textContent();
    // The rule in app/domain/events.ts: bookable until the event's end.
    expect(text).toContain("stay open for booking until they end");
    expect(text).not.toContain("until they start");
    await page.context().close();
  });
});
