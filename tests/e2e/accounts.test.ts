import crypto from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createAccessCode } from "#app/services/access-codes.server";
import { insertFreeEvent, insertPaidEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, uniqueId } from "#tests/support/fixtures/people";
import {
  baseURL,
  expectNoAxeViolations,
  newPage,
  query,
  waitForMail,
  browserForThisFile,
  serverDatabaseForThisFile,
} from "./support";

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

const uniqueEmail = (label: string) =>
  `${label}-${crypto.randomBytes(4).toString("hex")}@example.com`;
const PASSWORD = "correct horse battery";

interface SignupValues {
  email: string;
  day?: string;
  month?: string;
  year?: string;
  nhs?: string;
  password?: string;
  confirmPassword?: string;
}

async function fillSignup(page: Page, values: SignupValues) {
  const fill = (label: string, value: string) =>
    page.getByLabel(label, { exact: true }).fill(value);
  await fill("First name", "Arthur James");
  await fill("Last name", "Pembridge");
  await page.getByLabel("Day").fill(values.day ?? "15");
  await page.getByLabel("Month").fill(values.month ?? "3");
  await page.getByLabel("Year").fill(values.year ?? "1961");
  await page.getByLabel("Gender").selectOption("Male");
  await page.getByLabel("Ethnic group").selectOption("White - British");
  await fill("Phone number", "07700 900123");
  await fill("Address line 1", "12 Mill Lane");
  await fill("Postcode", "CM1 2AB");
  if (values.nhs !== undefined) await fill("NHS number (optional)", values.nhs);
  await fill("Email address", values.email);
  await fill("Password", values.password ?? PASSWORD);
  await fill("Confirm password", values.confirmPassword ?? values.password ?? PASSWORD);
}

async function signInWith(page: Page, email: string, password: string) {
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Creates an account through the form and leaves the page signed in, on /portal. */
async function signUpAndLandOnPortal(page: Page, email: string) {
  await page.goto("/signup?redirectTo=%2Fportal");
  await fillSignup(page, { email, nhs: "943 476 5919" });
  await page.getByRole("button", { name: "Create account" }).click();
  // The success page waits for him (D-210): nothing moves on before he asks.
  await page.waitForURL(/\/signup-success/);
  await page.getByRole("heading", { name: "Your account is ready" }).waitFor();
  expect(await page.locator("script").count()).toBe(0);
  await page.getByRole("link", { name: "Continue" }).click();
  await page.waitForURL((url) => url.pathname === "/portal", { timeout: 15_000 });
}

describe("sign-up validation", () => {
  it("refuses someone aged 35 with the spec's message, under the Age Restriction Error heading", async () => {
    const page = await newPage(browser());
    await page.goto("/signup");
    // Sign-up has no script (D-140): the age notice stands before the date of birth from the start.
    expect(await page.locator("script").count()).toBe(0);
    expect(await page.getByText("Age Restriction Notice").isVisible()).toBe(true);
    await fillSignup(page, {
      email: uniqueEmail("young"),
      year: String(new Date().getFullYear() - 35),
    });
    await page.getByRole("button", { name: "Create account" }).click();
    const warning = page.getByRole("alert").filter({ hasText: "Age Restriction Error" });
    await warning.waitFor();
    expect(await warning.textContent()).toContain("aged between 40 and 80 only");
    // Too young today, he is told when he may: his 40th birthday, five years on (15 March).
    const fortieth = new Date(Date.UTC(new Date().getFullYear() + 5, 2, 15));
    const weekday = fortieth.toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" });
    expect(await warning.textContent()).toContain(
      `You can create an account from your 40th birthday, ${weekday}, 15 March ${fortieth.getUTCFullYear()}.`,
    );
    // A man past 80 is not left at a dead end: the page about testing at his age.
    expect(
      await warning.getByRole("link", { name: "PSA testing after 80" }).getAttribute("href"),
    ).toBe("/information-hub/elderly-psa-testing");
    expect(
      await page
        .locator(".field-error", {
          hasText: "You must be between 40 and 80 years old to register.",
        })
        .count(),
    ).toBe(1);
    // The error summary has focus, so the problem is read out first.
    expect(
      await page.evaluate(() => document.activeElement?.classList.contains("error-summary")),
    ).toBe(true);
    expect(await page.getByLabel("First name", { exact: true }).inputValue()).toBe("Arthur James");
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it("refuses a date of birth in the future, and shows all problems at once", async () => {
    const page = await newPage(browser());
    await page.goto("/signup");
    await fillSignup(page, {
      email: "not-an-email",
      year: String(new Date().getFullYear() + 1),
      confirmPassword: "different words",
    });
    await page.getByRole("button", { name: "Create account" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await summary.waitFor();
    expect(await summary.textContent()).toContain("Date of birth must be in the past");
    expect(await summary.textContent()).toContain("Passwords do not match");
    expect(await summary.textContent()).toContain("Enter an email address in the correct format");
    expect(await page.getByLabel("Email address").inputValue()).toBe("not-an-email");
    await page.context().close();
  });

  it("refuses letters in the NHS number with the spec's message, keeping what was typed", async () => {
    const page = await newPage(browser());
    const email = uniqueEmail("nhs-letters");
    await page.goto("/signup");
    await fillSignup(page, { email, nhs: "12ab" });
    await page.getByRole("button", { name: "Create account" }).click();
    const error = page.locator(".field-error", { hasText: "Please enter only digits (max 10)." });
    await error.waitFor();
    expect(await page.getByLabel("NHS number (optional)").inputValue()).toBe("12ab");
    expect(await query('select 1 from "user" where email = $1', [email])).toEqual([]);
    await page.context().close();
  });

  it("refuses a ten-digit NHS number with a wrong check digit", async () => {
    const page = await newPage(browser());
    const email = uniqueEmail("nhs");
    await page.goto("/signup");
    await fillSignup(page, { email, nhs: "9434765918" });
    await page.getByRole("button", { name: "Create account" }).click();
    const error = page.locator(".field-error", { hasText: "Enter a valid NHS number" });
    await error.waitFor();
    expect(await error.count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/signup");
    // Nothing typed is lost, and no account is made.
    expect(await page.getByLabel("NHS number (optional)").inputValue()).toBe("9434765918");
    expect(await query('select 1 from "user" where email = $1', [email])).toEqual([]);
    // The passwords are not sent back: the summary says so with the rest, so that one round of
    // corrections is enough (found by an accessibility review).
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    expect(await summary.getByRole("link").allTextContents()).toEqual([
      "Enter a valid NHS number. Check the 10 digits on your NHS letter, prescription or the NHS App.",
      "Type your password again, in both boxes: for your safety, we do not send it back to the page",
    ]);
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("");
    await page.context().close();
  });

  it("says when the passwords do not match", async () => {
    const page = await newPage(browser());
    await page.goto("/signup");
    await fillSignup(page, {
      email: uniqueEmail("mismatch"),
      confirmPassword: "another phrase entirely",
    });
    await page.getByRole("button", { name: "Create account" }).click();
    await page.locator(".field-error", { hasText: "Passwords do not match" }).waitFor();
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("without JavaScript", () => {
  it("shows the server's messages: NHS digits, age (as an inline notice)", async () => {
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto("/signup");
    await fillSignup(page, { email: uniqueEmail("nojs"), nhs: "12ab", year: "1991" });
    await page.getByRole("button", { name: "Create account" }).click();
    await page.locator(".field-error", { hasText: "Please enter only digits (max 10)." }).waitFor();
    expect(await page.locator(".warning", { hasText: "Age Restriction Error" }).isVisible()).toBe(
      true,
    );
    await page.context().close();
  });

  it("signs up, signs out and signs in again", async () => {
    const page = await newPage(browser(), { javaScriptEnabled: false });
    const email = uniqueEmail("nojs-ok");
    await page.goto("/signup?redirectTo=%2Fportal");
    await fillSignup(page, { email });
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/signup-success/);
    await page.getByRole("link", { name: "Continue" }).click();
    await page.waitForURL((url) => url.pathname === "/portal");
    expect(await page.locator("h1").textContent()).toBe("Personal Information");
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await signInWith(page, email, PASSWORD);
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.getByRole("link", { name: "Portal" }).count()).toBe(1);
    await page.context().close();
  });
});

describe("accounts", () => {
  it("signs up from a protected page, returns there signed in, and verifies the e-mail", async () => {
    const page = await newPage(browser());
    const email = uniqueEmail("arthur");
    await page.goto("/portal");
    await page.waitForURL(
      (url) => url.pathname === "/login" && url.searchParams.get("redirectTo") === "/portal",
    );
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL(
      (url) => url.pathname === "/signup" && url.searchParams.get("redirectTo") === "/portal",
    );
    await expectNoAxeViolations(page);
    await fillSignup(page, { email, nhs: "943 476 5919" });
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Signup Successful!").waitFor();
    // Signed in already: nothing to go and do in the e-mail before carrying on.
    await page.getByRole("heading", { name: "Your account is ready" }).waitFor();
    await page.getByRole("link", { name: "Continue" }).click();
    await page.waitForURL((url) => url.pathname === "/portal", { timeout: 10_000 });
    const details = await page.locator(".event-details").textContent();
    expect(details).toContain("Arthur James Pembridge");
    // Stored as ten digits, shown spaced 3-3-4 as the NHS prints it.
    expect(details).toContain("943 476 5919");
    expect(await page.locator(".portal-panel").textContent()).toMatch(/ID: MHAT[2-9A-Z]{8}/);

    const mail = await waitForMail(
      (message) =>
        message.to?.[0]?.address === email && /Confirm your e-mail/.test(message.subject ?? ""),
    );
    const link = /https?:\/\/\S+verify-email\S+/.exec(mail.text ?? "")?.[0];
    expect(link?.startsWith(baseURL())).toBe(true);
    expect(mail.text).not.toContain("9434765919");
    expect(
      (
        await query<{ email_verified: boolean }>(
          'select email_verified from "user" where email = $1',
          [email],
        )
      )[0],
    ).toEqual({ email_verified: false });
    // Asked for a new link at once (the mailbox's limit holds it back), My data answers as it
    // would for a link sent now: it says nothing of the mailbox's count.
    await page.goto("/my-data");
    await page.getByRole("button", { name: "Send me a new link" }).click();
    await page.getByText(`is on its way to ${email}, or was sent in the last hour`).waitFor();
    // Opened in another browser (his own, or someone he was tricked into sending it to), the link
    // confirms the address and says so, but signs nobody in.
    const elsewhere = await newPage(browser());
    await elsewhere.goto(link!);
    await elsewhere.waitForURL((url) => url.pathname === "/email-confirmed");
    await elsewhere.getByRole("heading", { name: "Your email address is confirmed" }).waitFor();
    expect(
      (await elsewhere.context().cookies()).filter((cookie) => /session/i.test(cookie.name)),
    ).toEqual([]);
    await expectNoAxeViolations(elsewhere);
    await elsewhere.context().close();
    // A link cut short (or out of date) says it did not work, and that the account still does.
    await page.goto(link!.replace(/token=[^&]+/, "token=cut-short"));
    await page.waitForURL((url) => url.pathname === "/email-confirmed");
    await page.getByRole("heading", { name: "This link did not work" }).waitFor();
    await page.goto(link!);
    await page.getByRole("heading", { name: "Your email address is confirmed" }).waitFor();
    expect(
      (
        await query<{ email_verified: boolean }>(
          'select email_verified from "user" where email = $1',
          [email],
        )
      )[0],
    ).toEqual({ email_verified: true });
    await page.context().close();
  });

  it("sends a new confirmation link from My data when the first has run out, and it confirms the address", async () => {
    const email = uniqueEmail("late-confirmer");
    await insertPatient(server.db, { email, emailVerified: false, password: PASSWORD });
    const page = await newPage(browser());
    await page.goto("/login?redirectTo=%2Fmy-data");
    await signInWith(page, email, PASSWORD);
    await page.waitForURL((url) => url.pathname === "/my-data");
    await page.getByRole("button", { name: "Send me a new link" }).click();
    await page.getByText(`is on its way to ${email}, or was sent in the last hour`).waitFor();
    await expectNoAxeViolations(page);
    const mail = await waitForMail(
      (message) =>
        message.to?.[0]?.address === email && /Confirm your e-mail/.test(message.subject ?? ""),
    );
    const link = /https?:\/\/\S+verify-email\S+/.exec(mail.text ?? "")?.[0];
    expect(link).toContain("callbackURL=%2Femail-confirmed");
    await page.goto(link!);
    await page.getByRole("heading", { name: "Your email address is confirmed" }).waitFor();
    await page.goto("/my-data");
    await page.getByRole("heading", { name: "My data" }).waitFor();
    expect(await page.getByRole("button", { name: "Send me a new link" }).count()).toBe(0);
    await page.context().close();
  });

  it("keeps a signed-in visitor away from /login and /signup, and logs out to /login", async () => {
    const page = await newPage(browser());
    await signUpAndLandOnPortal(page, uniqueEmail("away"));
    await page.goto("/login?redirectTo=%2Fevents");
    expect(new URL(page.url()).pathname).toBe("/events");
    await page.goto("/signup");
    expect(new URL(page.url()).pathname).toBe("/portal");
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.goto("/portal");
    expect(new URL(page.url()).pathname).toBe("/login");
    await page.context().close();
  });

  it("sends a signed-out visitor from /portal to /login, refuses a wrong password, then returns to /portal", async () => {
    const page = await newPage(browser());
    const email = uniqueEmail("returner");
    await signUpAndLandOnPortal(page, email);
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.goto("/portal");
    await page.waitForURL(
      (url) => url.pathname === "/login" && url.searchParams.get("redirectTo") === "/portal",
    );
    await signInWith(page, email, "not my password");
    await page.getByText("The email address or password is not right").waitFor();
    await expectNoAxeViolations(page);
    await signInWith(page, email, PASSWORD);
    await page.waitForURL((url) => url.pathname === "/portal");
    await page.getByRole("heading", { name: "Personal Information" }).waitFor();
    // Medical results are protected the same way, and show their empty state.
    await page.getByRole("link", { name: "Medical Results" }).click();
    await page.getByText("No medical results or any appointment found").waitFor();
    await page.context().close();
  });

  it("without JavaScript, puts a refused sign-in's reason first on the page, with focus, before the form", async () => {
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto("/login");
    await signInWith(page, uniqueEmail("nobody-here"), "not my password");
    const alert = page.getByRole("alert").filter({
      hasText: "The email address or password is not right",
    });
    await alert.waitFor();
    expect(await alert.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    // It comes before the email field in the page, so it is what he sees first.
    const before = await alert.evaluate(
      (element) =>
        !!(
          element.compareDocumentPosition(document.querySelector("input[name=email]")!) &
          Node.DOCUMENT_POSITION_FOLLOWING
        ),
    );
    expect(before).toBe(true);
    await page.context().close();
  });

  it("edits the portal details, which save and show; a bad edit stays in edit mode", async () => {
    const page = await newPage(browser());
    await signUpAndLandOnPortal(page, uniqueEmail("editor"));
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByRole("heading", { name: "Edit Personal Information" }).waitFor();
    expect(await page.getByLabel("Email address").isDisabled()).toBe(true);
    await expectNoAxeViolations(page);
    await page.getByLabel("Phone number").fill("");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.locator(".field-error", { hasText: "Enter your phone number" }).waitFor();
    expect(await page.getByRole("heading", { name: "Edit Personal Information" }).count()).toBe(1);
    await expectNoAxeViolations(page);
    await page.getByLabel("Phone number").fill("01632 960 222");
    await page.getByLabel("Occupation (optional)").fill("Retired engineer");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("Your details have been saved.").waitFor();
    const details = await page.locator(".event-details").textContent();
    expect(details).toContain("01632 960 222");
    expect(details).toContain("Retired engineer");
    // The page's data (React Router serves it at /portal.data) holds what the page shows, not
    // the account's internals.
    const pageData = await (await page.request.get("/portal.data")).text();
    expect(pageData).toContain("Retired engineer");
    for (const internal of ["userId", "createdAt", "updatedAt"])
      expect(pageData).not.toContain(internal);
    await page.context().close();
  });

  it("does not reveal that an address is already registered", async () => {
    const page = await newPage(browser());
    const email = uniqueEmail("twice");
    await signUpAndLandOnPortal(page, email);
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    // Made an hour ago, so this is not a second press of the same form (which is told nothing).
    await query(`update "user" set created_at = now() - interval '1 hour' where email = $1`, [
      email,
    ]);
    await page.goto("/signup?redirectTo=%2Fportal");
    await fillSignup(page, { email, password: "another long phrase" });
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Signup Successful!").waitFor();
    await waitForMail(
      (message) =>
        message.to?.[0]?.address === email && /tried to register/.test(message.subject ?? ""),
    );
    expect(await query('select 1 from "user" where email = $1', [email])).toHaveLength(1);
    await page.context().close();
  });
});

describe("forgot password", () => {
  it("asks for an e-mail first, sends a reset link, and the new password replaces the old", async () => {
    const page = await newPage(browser());
    const email = uniqueEmail("forgetful");
    await signUpAndLandOnPortal(page, email);
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/login");

    await page.getByRole("button", { name: "Forgot password?" }).click();
    await page
      .locator(".field-error", { hasText: "Please enter your email to reset your password." })
      .waitFor();
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await page.getByText("Password reset email sent. Check your inbox.").waitFor();
    // The answer has the focus, so it is read out (found by an accessibility review).
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLElement).innerText))
      .toContain("Password reset email sent. Check your inbox.");

    const mail = await waitForMail(
      (message) => message.to?.[0]?.address === email && /Reset your/.test(message.subject ?? ""),
    );
    const link = /https?:\/\/\S+reset-password\S+/.exec(mail.text ?? "")?.[0];
    await page.goto(link!);
    await page.waitForURL(
      (url) => url.pathname === "/reset-password" && url.searchParams.has("token"),
    );
    await expectNoAxeViolations(page);
    await page.getByLabel("New password", { exact: true }).fill("a brand new phrase");
    await page.getByLabel("Confirm new password").fill("not the same phrase");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.locator(".field-error", { hasText: "Passwords do not match" }).waitFor();
    await page.getByLabel("New password", { exact: true }).fill("a brand new phrase");
    await page.getByLabel("Confirm new password").fill("a brand new phrase");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByText("Your password has been changed").waitFor();

    await signInWith(page, email, PASSWORD);
    await page.getByText("The email address or password is not right").waitFor();
    await signInWith(page, email, "a brand new phrase");
    await page.waitForURL((url) => url.pathname === "/");
    // The link works once.
    await page.goto(link!);
    await page.waitForURL((url) => url.pathname === "/reset-password");
    expect(await page.getByText("This link has expired or has already been used").count()).toBe(1);
    await page.context().close();
  });

  it("answers the same for an address with no account, and sends it nothing", async () => {
    const outbox = (address: string) =>
      query('select 1 from outbox_email where "to" = $1', [address]);
    const answerTo = async (email: string) => {
      const page = await newPage(browser());
      await page.goto("/login");
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Forgot password?" }).click();
      await page.getByText("Password reset email sent. Check your inbox.").waitFor();
      // Every message the form shows, success or error.
      const answer = await page
        .locator(".form-message, .field-error, .error-summary")
        .allInnerTexts();
      await page.context().close();
      return answer;
    };
    const registered = await insertPatient(server.db);
    const nobody = uniqueEmail("nobody");
    const toRegistered = await answerTo(registered.email);
    const toNobody = await answerTo(nobody);
    expect(toRegistered).toEqual(["Password reset email sent. Check your inbox."]);
    expect(toNobody).toEqual(toRegistered);
    // The registered address was sent a link; the other, by the same path, nothing.
    expect(await outbox(registered.email)).toHaveLength(1);
    expect(await outbox(nobody)).toEqual([]);
  });
});

describe("sign-in throttling", () => {
  it("refuses the 11th failed sign-in within the window with 429 and a message", async () => {
    const email = uniqueEmail("target");
    const attempt = () =>
      fetch(`${baseURL()}/login`, {
        method: "POST",
        headers: { origin: baseURL(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email, password: "guess", redirectTo: "/" }),
      });
    const statuses: number[] = [];
    for (let index = 0; index < 10; index++) statuses.push((await attempt()).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(await refused.text()).toContain("Too many failed attempts to sign in");
  });
});

describe("the booking page", () => {
  it("asks a signed-out visitor to sign in, then shows the event's times", async () => {
    const event = await insertPaidEvent(server.db, {
      name: `Accounts Check Halls Screening ${uniqueId()}`,
      eventDate: londonDay(18),
      startTime: "11:00",
      endTime: "17:00",
      sessionDuration: 15,
    });
    const page = await newPage(browser());
    await page.goto(`/event/${event.id}`);
    await page.getByRole("link", { name: "BOOK EVENT" }).click();
    await page.waitForURL(
      (url) =>
        url.pathname === "/login" &&
        url.searchParams.get("redirectTo") === `/book-event?event=${event.id}`,
    );
    await page.getByRole("link", { name: "Create an account" }).click();
    await fillSignup(page, { email: uniqueEmail("booker") });
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("link", { name: "Continue" }).click();
    await page.waitForURL((url) => url.pathname === "/book-event", { timeout: 15_000 });
    await page.getByRole("heading", { name: event.name }).waitFor();
    const times = page.getByRole("group", { name: "Available times" }).getByRole("radio");
    // The first time is the event's start.
    expect(await times.first().getAttribute("value")).toBe("11:00");
    await expectNoAxeViolations(page);

    // A private event needs its code first, even when signed in; then it goes straight to booking.
    const lodge = await insertFreeEvent(server.db, {
      name: "Accounts Check Masonic Hall Screening",
      category: "freemasons",
      isPublic: false,
      eventDate: londonDay(11),
    });
    const code = `LODGE-${uniqueId().toUpperCase()}`;
    await createAccessCode(server.db, { eventId: lodge.id, code });
    await page.goto(`/book-event?event=${lodge.id}`);
    await page.waitForURL((url) => url.pathname === `/event/${lodge.id}`);
    await page.getByRole("link", { name: "BOOK EVENT" }).click();
    await page.getByRole("dialog").getByLabel("Please enter Access Code").fill(code);
    await page.getByRole("dialog").getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(
      (url) => url.pathname === "/book-event" && url.searchParams.get("event") === lodge.id,
    );
    // The booking page's times, not the event page (whose dialog also names the event).
    await page.getByRole("group", { name: "Available times" }).waitFor();
    expect(await page.locator("h1").textContent()).toContain(lodge.name);
    await page.context().close();
  });
});
