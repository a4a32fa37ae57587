import crypto from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectNoAxeViolations, newPage, query, waitForMail, browserForThisFile } from "./support";

const browser = browserForThisFile();

const unique = () => crypto.randomBytes(4).toString("hex");

const NEWSLETTER_REQUESTED =
  "Thank you! To finish subscribing to the newsletter, check your inbox and open the link we have sent you.";

async function fillContactForm(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values))
    await page.getByLabel(label, { exact: true }).fill(value);
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "with JavaScript off";

  describe(`contact form ${mode}`, () => {
    it("shows an error beside each empty field and in the summary", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/about-us#contact");
      await page.getByRole("button", { name: "Send enquiry" }).click();
      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await summary.waitFor();
      const expected = [
        "Enter your first name",
        "Enter your last name",
        "Enter your email address",
        "Enter your phone number",
        "Enter your message",
      ];
      for (const message of expected) {
        expect(await summary.getByRole("link", { name: message }).count()).toBe(1);
        expect(await page.locator(".field-error", { hasText: message }).count()).toBe(1);
      }
      expect(
        await page.getByLabel("First name", { exact: true }).getAttribute("aria-invalid"),
      ).toBe("true");
      // The page has no script (D-140): the browser focuses the summary by its autofocus.
      await expect
        .poll(() =>
          page.evaluate(() => document.activeElement?.classList.contains("error-summary")),
        )
        .toBe(true);
      // axe runs as a script, so it checks these states in the JavaScript pass; the markup is the same.
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      // A summary link takes you to its field by the address's #.
      await summary.getByRole("link", { name: "Enter your message" }).click();
      expect(page.url()).toMatch(/#field-message$/);
      await page.context().close();
    });

    it("keeps what was typed when one field is wrong", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/about-us#contact");
      await fillContactForm(page, {
        "First name": "Gordon",
        "Last name": "Pike",
        "Email address": "not-an-address",
        "Phone number": "01632 960 321",
        "Your message": "Please call me about hosting an event.",
      });
      await page.getByRole("button", { name: "Send enquiry" }).click();
      await page
        .locator(".field-error", { hasText: "Enter an email address in the correct format" })
        .waitFor();
      expect(await page.getByLabel("First name", { exact: true }).inputValue()).toBe("Gordon");
      expect(await page.getByLabel("Your message").inputValue()).toBe(
        "Please call me about hosting an event.",
      );
      expect(await page.getByLabel("Email address").inputValue()).toBe("not-an-address");
      await page.context().close();
    });

    it("thanks the sender, stores the enquiry and e-mails the staff inbox", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      const email = `enquirer-${unique()}@example.com`;
      await page.goto("/about-us#contact");
      await fillContactForm(page, {
        "First name": "Harold",
        "Last name": `Baines ${mode}`,
        "Email address": email,
        "Phone number": "01632 960 777",
        "Your message": "Our rugby club would like to host a screening evening.",
      });
      await page.getByRole("button", { name: "Send enquiry" }).click();
      await page.getByText("Thank you for reaching out! We will get back to you soon.").waitFor();
      expect(await page.getByLabel("First name", { exact: true }).inputValue()).toBe("");
      if (javaScriptEnabled) await expectNoAxeViolations(page);

      const rows = await query<{ id: string; first_name: string; message: string }>(
        "select id, first_name, message from enquiry where email = $1",
        [email],
      );
      expect(rows).toEqual([
        {
          id: expect.any(String),
          first_name: "Harold",
          message: "Our rugby club would like to host a screening evening.",
        },
      ]);

      const mail = await waitForMail(
        (message) => message.text?.includes(`#enquiry-${rows[0]!.id}`) ?? false,
      );
      expect(mail.to?.[0]?.address).toBe("staff-inbox@example.org");
      expect(mail.subject).toBe("New website enquiry");
      expect(mail.text).not.toContain("rugby");
      expect(mail.text).not.toContain(email);
      await page.context().close();
    });
  });

  describe(`newsletter ${mode}`, () => {
    it("asks for both name and email", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/news#newsletter");
      await page.getByLabel("Your name").fill("Stanley");
      await page.getByRole("button", { name: "Subscribe" }).click();
      await page.getByText("Please provide both name and email.").waitFor();
      expect(await page.getByLabel("Your name").inputValue()).toBe("Stanley");
      expect(
        await page.locator(".field-error", { hasText: "Enter your email address" }).count(),
      ).toBe(1);
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await page.context().close();
    });

    it("asks for confirmation, clears the fields, and subscribes only from the e-mailed link", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      const email = `reader-${unique()}@example.com`;
      for (const name of ["Stanley", "Stan"]) {
        await page.goto(`/news?visit=${name}#newsletter`);
        await page.getByLabel("Your name").fill(name);
        await page.getByLabel("Email address").fill(email.toUpperCase());
        await page.getByRole("button", { name: "Subscribe" }).click();
        await page.getByText(NEWSLETTER_REQUESTED).waitFor();
        await expect.poll(() => page.getByLabel("Your name").inputValue()).toBe("");
        expect(await page.getByLabel("Email address").inputValue()).toBe("");
      }
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      const subscriptions = () =>
        query<{ name: string }>("select name from newsletter_subscription where email = $1", [
          email,
        ]);
      expect(await subscriptions()).toEqual([]);

      // One mail for both posts (the per-recipient limit); its link shows what it will do.
      const mail = await waitForMail((message) => message.to?.[0]?.address === email);
      const link = /https?:\/\/\S+\/newsletter\/confirm\?token=\S+/.exec(mail.text ?? "")![0];
      const response = await page.goto(link);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["cache-control"]).toContain("no-store");
      await page
        .getByRole("heading", { name: "Confirm your subscription to the MHAT newsletter" })
        .waitFor();
      expect(await page.locator("main").textContent()).toContain("Stanley");
      expect(await subscriptions()).toEqual([]);
      // axe and the layout check run scripts in the page, so only where scripts are on.
      if (javaScriptEnabled) {
        await expectNoAxeViolations(page);
        await page.setViewportSize({ width: 320, height: 640 });
        await expect
          .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
          .toBeLessThanOrEqual(320);
        await expectNoAxeViolations(page);
      }

      await page.getByRole("button", { name: "Confirm subscription" }).click();
      await page.getByRole("heading", { name: "You are subscribed to our newsletter" }).waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      expect(await subscriptions()).toEqual([{ name: "Stanley" }]);

      // The welcome mail's link unsubscribes, with or without scripts.
      const welcome = await waitForMail(
        (message) =>
          message.to?.[0]?.address === email && /^You are subscribed/.test(message.subject ?? ""),
      );
      const leave = /https?:\/\/\S+\/unsubscribe\?token=\S+/.exec(welcome.text ?? "")![0];
      await page.goto(leave);
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await page.getByRole("heading", { name: "You have been unsubscribed" }).waitFor();
      const [left] = await query<{ unsubscribed: boolean }>(
        "select unsubscribed_at is not null as unsubscribed from newsletter_subscription where email = $1",
        [email],
      );
      expect(left).toEqual({ unsubscribed: true });
      await page.context().close();
    });

    it("refuses a changed confirmation link with a clear message", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      const response = await page.goto("/newsletter/confirm?token=not-a-real-token");
      expect(response?.status()).toBe(400);
      await page
        .getByRole("heading", { name: "We could not confirm your subscription with this link" })
        .waitFor();
      expect(await page.locator("main").textContent()).toContain(
        "This confirmation link is not valid. It may have been changed or cut short.",
      );
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await page.context().close();
    });
  });

  describe(`news filter ${mode}`, () => {
    it("filters by archive month, resets to page 1 and pages through", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/news?page=3");
      expect(await page.locator('.pagination [aria-current="page"]').textContent()).toContain("3");
      // Choosing a month changes nothing until Show news is pressed (WCAG 3.2.2).
      await page.getByLabel("Show news from").selectOption("2020-08");
      expect(new URL(page.url()).searchParams.get("month")).toBeNull();
      await page.getByRole("button", { name: "Show news" }).click();
      await page.waitForURL((url) => url.searchParams.get("month") === "2020-08");
      expect(new URL(page.url()).searchParams.get("page")).toBeNull();
      await expect
        .poll(() => page.locator("#latest-news article h3").allTextContents())
        .toEqual(["Volunteers wanted for autumn events", "Bringing screening to the workplace"]);
      await page.getByLabel("Show news from").selectOption("");
      await page.getByRole("button", { name: "Show news" }).click();
      await page.waitForURL((url) => !url.searchParams.get("month"));
      await expect.poll(() => page.locator("#latest-news article").count()).toBe(4);
      expect(await page.locator("#latest-news article h3").first().textContent()).toBe(
        "Over 50 events planned",
      );
      await page.getByRole("link", { name: "Page 2" }).click();
      await page.waitForURL((url) => url.searchParams.get("page") === "2");
      await expect
        .poll(() => page.locator("#latest-news article h3").first().textContent())
        .toBe("Dates for the new year");
      await page.context().close();
    });

    it("expands a story in place with READ MORE", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/news");
      const card = page.locator("#latest-news article").first();
      const full = card.getByText(
        "Thanks to our hosts and supporters, we can reach more communities than ever.",
      );
      // A disclosure: the same with scripts or without.
      expect(await full.isVisible()).toBe(false);
      await card.locator("summary", { hasText: "READ MORE" }).click();
      expect(await full.isVisible()).toBe(true);
      await card.locator("summary", { hasText: "READ LESS" }).click();
      expect(await full.isVisible()).toBe(false);
      await page.context().close();
    });
  });
}

describe("Show More on cards", () => {
  for (const javaScriptEnabled of [true, false]) {
    it(`toggles a testimonial between 300 characters and the full text ${javaScriptEnabled ? "with JavaScript" : "with JavaScript off"}`, async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      await page.goto("/");
      const card = page.locator("figure.card").first();
      const short = card.locator("blockquote .expandable__short");
      const full = card.locator("blockquote details > p");
      const shortText = (await short.textContent())!;
      expect(shortText.length).toBeLessThanOrEqual(303);
      expect(shortText.endsWith("…”") || shortText.endsWith("…")).toBe(true);
      expect(await full.isVisible()).toBe(false);
      await card.locator("summary", { hasText: "Show More" }).click();
      expect(await short.isVisible()).toBe(false);
      expect(await full.isVisible()).toBe(true);
      expect((await full.textContent())!.length).toBeGreaterThan(300);
      // The toggle now says what it does next.
      expect(await card.locator("summary").innerText()).toMatch(/^Show Less/);
      await card.locator("summary", { hasText: "Show Less" }).click();
      expect(await short.isVisible()).toBe(true);
      expect(await full.isVisible()).toBe(false);
      await page.context().close();
    });
  }
});
