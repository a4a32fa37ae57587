import { describe, expect, it } from "vitest";
import { insertBooking } from "#tests/support/fixtures/bookings";
import { insertPaidEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, uniqueId } from "#tests/support/fixtures/people";
import { newPatientPage, reachCheckout } from "./patient-support";
import { signedInStaff } from "./staff-support";
import { browserForThisFile, newPage, serverDatabaseForThisFile } from "./support";

/** Details a screen-reader user or a tablet user meets: heading order, titles, numbers, widths. */
const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

describe("the checkout", () => {
  it("has its page title before the order's heading", async () => {
    const event = await insertPaidEvent(server.db, {
      name: `Heading Order Screening ${uniqueId()}`,
      eventDate: londonDay(6),
    });
    const { page } = await newPatientPage(browser());
    await reachCheckout(page, event.id);
    const headings = await page
      .locator("main")
      .locator("h1, h2, h3")
      .evaluateAll((all) => all.map((heading) => heading.textContent?.trim()));
    expect(headings[0]).toBe("Checkout");
    expect(headings).toContain("Your Order");
    await page.context().close();
  });
});

describe("error pages", () => {
  it("have titles that start with Error:", async () => {
    const page = await newPage(browser());
    expect((await page.goto("/no-such-page"))?.status()).toBe(404);
    expect(await page.title()).toBe("Error: Page not found | Men's Health Advocacy Trust");
    // A patient opening the back office is refused (403).
    const { page: patient } = await newPatientPage(browser());
    expect((await patient.goto("/admin"))?.status()).toBe(403);
    expect(await patient.title()).toMatch(/^Error: .+ \| Men's Health Advocacy Trust$/);
    await page.context().close();
    await patient.context().close();
  });
});

describe("the portal", () => {
  it("shows the NHS number spaced 3-3-4, as it is printed", async () => {
    // The sign-up form stored 9434765919 without spaces.
    const { page } = await newPatientPage(browser());
    await page.goto("/portal");
    await expect.poll(() => page.locator("main").textContent()).toContain("943 476 5919");
    expect(await page.locator("main").textContent()).not.toContain("9434765919");
    await page.context().close();
  });
});

describe("the audit log", () => {
  it("fits its table at 1,280 and 768 px wide", async () => {
    const { jar } = await signedInStaff(server.db, ["admin", "coordinator"]);
    // Looking at attendees writes audit rows with long codes and ids.
    const event = await insertPaidEvent(server.db, {
      name: `Audit Width Screening ${uniqueId()}`,
      eventDate: londonDay(3),
    });
    const attendee = await insertPatient(server.db);
    await insertBooking(server.db, { eventId: event.id, userId: attendee.id, slotTime: "10:30" });
    expect((await jar.fetch(`/admin/events/${event.id}/attendees`)).status).toBe(200);
    for (const width of [1280, 768]) {
      const page = await newPage(browser(), { viewport: { width, height: 900 } });
      await jar.into(page.context());
      await page.goto("/admin/audit");
      const table = page.locator("table.admin-table");
      await table.waitFor();
      const { tableWidth, roomWidth, pageWidth } = await table.evaluate((element) => ({
        tableWidth: element.scrollWidth,
        roomWidth: element.parentElement!.clientWidth,
        pageWidth: document.documentElement.scrollWidth,
      }));
      expect(tableWidth, `the table at ${width} px`).toBeLessThanOrEqual(roomWidth);
      expect(pageWidth).toBeLessThanOrEqual(width);
      await page.context().close();
    }
  });
});
