import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures";
import {
  baseURL,
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  query,
  serverDatabaseForThisFile,
} from "./support";

const server = serverDatabaseForThisFile();
import { fillSignupForm } from "./patient-support";

/**
 * Issue 14, item 9: CR/LF were accepted in single-line fields, so a last name such as
 * "Smith\r\nBcc: x@example.org" became a forged header-like line in staff mail and a multi-line
 * cell in the lab CSV. A browser's one-line box cannot hold a line break, so the test puts it into
 * the form's request on its way to the server, as a script posting the form would.
 */

const browser = browserForThisFile();
const FORGED_LAST_NAME = "Smith\r\nBcc: x@example.org";
const ONE_LINE = "Enter this on one line, without line breaks";

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "with JavaScript off";

  describe(`line breaks ${mode}`, () => {
    it("refuses a sign-up whose last name carries CR/LF, with the message beside the field and in the summary", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      const email = `line-break-${crypto.randomBytes(4).toString("hex")}@example.com`;
      await page.route(/\/signup(\.data)?(\?|$)/, async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        const form = new URLSearchParams(route.request().postData() ?? "");
        form.set("lastName", FORGED_LAST_NAME);
        await route.continue({ postData: form.toString() });
      });
      await page.goto("/signup");
      await fillSignupForm(page, email, { "Last name": "Smith" });
      await page.getByRole("button", { name: "Create account" }).click();

      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      const outcome = await Promise.race([
        summary.waitFor().then(
          () => "refused",
          () => "",
        ),
        page.waitForURL(/\/signup-success/).then(
          () => "account created",
          () => "",
        ),
      ]);
      expect(outcome).toBe("refused");
      expect(await summary.getByRole("link", { name: ONE_LINE }).count()).toBe(1);
      const lastName = page.getByLabel("Last name", { exact: true });
      expect(await lastName.getAttribute("aria-invalid")).toBe("true");
      expect(await page.locator("#field-lastName-error").textContent()).toContain(ONE_LINE);
      // Nothing typed is lost: sign-up has no script (D-140), so the page shows what was sent, as
      // far as a one-line box can (a browser drops the line break).
      expect(await page.getByLabel("First name", { exact: true }).inputValue()).toBe("Ambrose");
      expect(await lastName.inputValue()).toBe("SmithBcc: x@example.org");
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      expect(await query("select 1 from public.user where email = $1", [email])).toEqual([]);
      await page.context().close();
    });

    it("still sends a contact message written over several lines, its lines kept", async () => {
      const page = await newPage(browser(), { javaScriptEnabled });
      const email = `several-lines-${crypto.randomBytes(4).toString("hex")}@example.com`;
      await page.goto("/about-us#contact");
      await page.getByLabel("First name", { exact: true }).fill("Harold");
      await page.getByLabel("Last name", { exact: true }).fill("Baines");
      await page.getByLabel("Email address").fill(email);
      await page.getByLabel("Phone number").fill("01632 960 777");
      await page
        .getByLabel("Your message")
        .fill("Dear team,\nOur rugby club would like a screening evening.\n\nHarold");
      await page.getByRole("button", { name: "Send enquiry" }).click();
      await page.getByText("Thank you for reaching out! We will get back to you soon.").waitFor();

      const [row] = await query<{ message: string }>(
        "select message from enquiry where email = $1",
        [email],
      );
      // Browsers send a text area's line breaks as CRLF.
      expect(row!.message.split(/\r?\n/)).toEqual([
        "Dear team,",
        "Our rugby club would like a screening evening.",
        "",
        "Harold",
      ]);
      await page.context().close();
    });
  });
}

describe("line breaks in the JSON API's single-line strings", () => {
  const postJson = (path: string, body: unknown) =>
    fetch(baseURL() + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("refuses a newsletter name with CR/LF (400, naming the field) and subscribes nobody", async () => {
    const email = `api-line-break-${crypto.randomBytes(4).toString("hex")}@example.com`;
    const response = await postJson("/api/subscriptions", { name: FORGED_LAST_NAME, email });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details?: { fields?: Record<string, string> } };
    expect(body.details?.fields).toEqual({ name: ONE_LINE });
    expect(await query("select 1 from newsletter_subscription where email = $1", [email])).toEqual(
      [],
    );
  });

  it("refuses an access code with a line break (400) rather than reading it as the code", async () => {
    const lodge = await insertFreeEvent(server.db, {
      name: "Line Break Lodge Screening",
      isPublic: false,
      eventDate: londonDay(10),
    });
    const response = await postJson(`/api/events/${lodge.id}/check-access-code`, {
      access_code: "LODGE-2026\r\n",
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});
