import { describe, expect, it } from "vitest";
import { browserForThisFile, expectNoAxeViolations, newPage } from "./support";

const browser = browserForThisFile();

describe("the information hub, as the spec lays it out", () => {
  it("has Research and Data's three items: an external report, the 2023 statistics and a systematic review", async () => {
    const page = await newPage(browser());
    await page.goto("/information-hub");
    const research = page.getByRole("region", { name: "Research and Data" });
    const items = research.getByRole("listitem");
    expect(await items.count()).toBe(3);
    const hrefs = await items
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    expect(hrefs[0]).toMatch(/^https:\/\//);
    expect(hrefs[1]).toBe("/information-hub/statistics");
    expect(hrefs[2]).toMatch(/^https:\/\//);
    expect(await items.nth(2).textContent()).toMatch(/systematic review/i);
    await page.context().close();
  });

  it("shows each of the eight resources with a logo tile, a title, a website and a phone number", async () => {
    const page = await newPage(browser());
    await page.goto("/information-hub");
    const cards = page.getByRole("region", { name: "Resources" }).getByRole("listitem");
    expect(await cards.count()).toBe(8);
    for (const card of await cards.all()) {
      expect(await card.locator(".logo-tile").count()).toBe(1);
      expect(await card.getByRole("heading").count()).toBe(1);
      expect(await card.textContent()).toMatch(/Website: \S+/);
      expect(await card.getByRole("link", { name: /^01632 960 \d{3}$/ }).count()).toBe(1);
    }
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});
