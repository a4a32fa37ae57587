import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { baseURL, newPage } from "./support";

export const PATIENT_PASSWORD = "correct horse battery";

export const uniqueEmail = (label: string) =>
  `${label}-${crypto.randomBytes(4).toString("hex")}@example.com`;

/** Signs a new patient up through the site's own form and gives the browser their cookie. */
export async function newPatientPage(
  browser: Browser,
  options: { javaScriptEnabled?: boolean } = {},
) {
  const email = uniqueEmail("booker");
  const response = await fetch(`${baseURL()}/signup`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseURL() },
    body: new URLSearchParams({
      firstName: "Alfred",
      lastName: "Ketteridge",
      "dateOfBirth-day": "12",
      "dateOfBirth-month": "4",
      "dateOfBirth-year": "1959",
      gender: "Male",
      ethnicity: "White - British",
      phone: "447700900789",
      homeAddressLine1: "8 Mill Road",
      homePostcode: "CM2 9AA",
      homeCountry: "United Kingdom",
      nhsNumber: "9434765919",
      email,
      password: PATIENT_PASSWORD,
      confirmPassword: PATIENT_PASSWORD,
    }).toString(),
  });
  expect(response.status).toBe(302);
  const page = await newPage(browser, options);
  await addCookies(page.context(), response);
  return { page, email };
}

export async function addCookies(context: BrowserContext, response: Response) {
  const url = new URL(baseURL());
  await context.addCookies(
    response.headers.getSetCookie().map((cookie) => {
      const [pair] = cookie.split(";");
      const [name, ...value] = pair!.split("=");
      return { name: name!, value: value.join("="), domain: url.hostname, path: "/" };
    }),
  );
}

/** Answers the consent questions: a first test, a father with prostate cancer, no medicines. */
export async function fillConsent(page: Page) {
  await page.getByRole("group", { name: "Which PSA test will this be?" }).getByLabel("1st").check();
  const prostate = page.getByRole("group", { name: "Has a relative had prostate cancer?" });
  await prostate.getByLabel("Yes", { exact: true }).check();
  await page
    .getByRole("group", { name: "Which relative(s)?" })
    .first()
    .getByLabel("Father", { exact: true })
    .check();
  await page
    .getByRole("group", { name: "Has a relative had breast or ovarian cancer?" })
    .getByLabel("No", { exact: true })
    .check();
  await page
    .getByRole("group", { name: "Do you take any of these medicines?" })
    .getByLabel("None")
    .check();
  await page.getByLabel("I agree to the terms and conditions.").check();
  await page.getByLabel("I consent to a blood sample being taken and tested for PSA.").check();
}

/** Chooses the event's first free time and waits for the consent form: the booking's reference. */
export async function holdFirstTime(page: Page, eventId: string): Promise<string> {
  await page.goto(`/book-event?event=${eventId}`);
  await page.locator(".radio__input:not([disabled])").first().check();
  await page.getByRole("button", { name: "Proceed to Consent Form" }).click();
  await page.waitForURL(/\/book-event\/consent\?booking=MHAT-/);
  await page.locator("form.consent-form").waitFor();
  return new URL(page.url()).searchParams.get("booking")!;
}

/** Holds a paid event's first free time, answers the consent form and goes on to the checkout. */
export async function reachCheckout(page: Page, eventId: string): Promise<string> {
  const reference = await holdFirstTime(page, eventId);
  await fillConsent(page);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.waitForURL(/\/checkout\?booking=/);
  await page.getByRole("heading", { name: "Checkout" }).waitFor();
  return reference;
}

/** Fills in the sign-up form as a person would; `overrides` replaces a field's value by label. */
export async function fillSignupForm(
  page: Page,
  email: string,
  overrides: Record<string, string> = {},
) {
  const typed: Record<string, string> = {
    "First name": "Ambrose",
    "Last name": "Quillfeather",
    Day: "9",
    Month: "11",
    Year: "1958",
    "Phone number": "447700900456",
    "Address line 1": "3 Quay Street",
    Postcode: "CO12 3AA",
    "Email address": email,
    Password: PATIENT_PASSWORD,
    "Confirm password": PATIENT_PASSWORD,
    ...overrides,
  };
  for (const [label, value] of Object.entries(typed))
    await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByLabel("Gender").selectOption("Male");
  await page.getByLabel("Ethnic group").selectOption("White - British");
}
