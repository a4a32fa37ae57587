import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startBuiltServer } from "#tests/support/server";
import { launchBrowser, newPage } from "./support";

/** The demo patient, as the README gives him (the only test that signs in as him). */
const README_DEMO_PATIENT = {
  email: "demo.patient@example.org",
  password: "velvet walnut compass",
};

/**
 * The README's demo patient signs in, in a browser, and sees what the README promises: his
 * released results with the traffic lights in words (Green, Amber), a visit whose result is not
 * back yet, and an upcoming appointment.
 */
async function demoPatientSeesHisResults(base: string) {
  const browser = await launchBrowser();
  try {
    const page = await newPage(browser, { baseURL: base });
    await page.goto("/login?redirectTo=%2Fmedical-results");
    await page.getByLabel("Email address").fill(README_DEMO_PATIENT.email);
    await page.getByLabel("Password", { exact: true }).fill(README_DEMO_PATIENT.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/medical-results$/);
    const main = page.locator("main");
    await expect.poll(() => main.textContent()).toContain("All Results");
    const text = (await main.textContent()) ?? "";
    expect(text).toContain("Upcoming appointments");
    expect(text).toMatch(/Green: .*Have another test in 2 years/);
    expect(text).toMatch(/Amber: .*repeat the test in 3 months/);
    expect(text).toContain("Lab result ready");
    expect(text).toContain("Your result is not back yet");
  } finally {
    await browser.close();
  }
}

/**
 * Without PayPal credentials (as `npm start` runs), a paid booking goes through the simulated
 * provider, whose pages say plainly that no money is taken.
 */
async function payWithTheSimulatedProvider(base: string) {
  const post = (path: string, body: Record<string, string>, cookie = "") =>
    fetch(base + path, {
      method: "POST",
      redirect: "manual",
      headers: { origin: base, "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams(body).toString(),
    });
  const get = (path: string, cookie: string) =>
    fetch(new URL(path, base), { redirect: "manual", headers: { cookie } });
  const password = "ferry lantern orchard";
  const signup = await post("/signup", {
    firstName: "Sim",
    lastName: "Payer",
    "dateOfBirth-day": "1",
    "dateOfBirth-month": "6",
    "dateOfBirth-year": "1960",
    gender: "Male",
    ethnicity: "Not stated",
    phone: "447700900321",
    homeAddressLine1: "1 Test Row",
    homePostcode: "CM1 1AA",
    homeCountry: "United Kingdom",
    email: "sim.payer@example.com",
    password,
    confirmPassword: password,
  });
  const cookie = signup.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const { events } = (await (await fetch(`${base}/api/events`)).json()) as {
    events: { id: string; event_name: string }[];
  };
  const paid = events.find((event) => event.event_name === "Westminster Central Hall Screening")!;
  const slots = (await (await fetch(`${base}/api/events/${paid.id}/slots`)).json()) as Record<
    string,
    { availableTimeSlots: string[] }
  >;
  const slotTime = Object.values(slots)[0]!.availableTimeSlots[0]!;
  const hold = await fetch(`${base}/api/appointments`, {
    method: "POST",
    headers: { origin: base, "content-type": "application/json", cookie },
    body: JSON.stringify({ eventId: paid.id, slotTime }),
  });
  expect(hold.status).toBe(201);
  const { reference } = (await hold.json()) as { reference: string };

  const consent = await post(
    `/book-event/consent?booking=${reference}`,
    {
      numberOfPsaTest: "1",
      familyHistoryProstateCancer: "No",
      familyHistoryBreastOvarianCancer: "No",
      medicationHistory: "None",
      terms: "on",
      sampleConsent: "on",
    },
    cookie,
  );
  expect(consent.headers.get("location")).toBe(`/checkout?booking=${reference}`);
  expect(await (await get(`/checkout?booking=${reference}`, cookie)).text()).toContain(
    "Test payment — no money is taken",
  );
  const pay = await post(`/checkout?booking=${reference}`, { intent: "pay" }, cookie);
  const simulated = pay.headers.get("location")!;
  expect(simulated).toMatch(/\/checkout\/simulated\?order=/);
  expect(await (await get(simulated, cookie)).text()).toContain("Test payment — no money is taken");
  // Another account can neither see nor decide his order (found by a review).
  const demoPatient = await post("/login", {
    email: "demo.patient@example.org",
    password: "velvet walnut compass",
    redirectTo: "/",
  });
  const otherCookie = demoPatient.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  expect(otherCookie).toContain("session_token");
  expect((await get(simulated, otherCookie)).status).toBe(404);
  const simulatedPath = new URL(simulated, base).pathname + new URL(simulated, base).search;
  expect((await post(simulatedPath, { decision: "approve" }, otherCookie)).status).toBe(404);
  const approved = await post(
    new URL(simulated, base).pathname + new URL(simulated, base).search,
    { decision: "approve" },
    cookie,
  );
  const back = approved.headers.get("location")!;
  expect(back).toMatch(/\/checkout\/return\?token=/);
  const captured = await get(back, cookie);
  expect(captured.headers.get("location")).toBe(`/booking-success?booking=${reference}`);
  expect(await (await get(`/booking-success?booking=${reference}`, cookie)).text()).toContain(
    "Successfully confirmed your booking!",
  );
}

/** The README's path: no DATABASE_URL, so the embedded PGlite is migrated and seeded at start-up. */
describe("start-up on the embedded database", () => {
  it("migrates, seeds, serves pages and keeps mail for the dev mailbox; the demo patient sees his results", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-pglite-"));
    const env = { PGLITE_DIR: dir, DATABASE_URL: "", SMTP_URL: "", NODE_ENV: "development" };
    const server = await startBuiltServer(env);
    try {
      expect(server.output()).toContain("Demo data seeded.");
      expect(server.output()).toContain("database: pglite");
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
      const form = new URLSearchParams({
        intent: "contact",
        "first-name": "Embedded",
        "last-name": "Tester",
        email: "embedded@example.com",
        "phone-number": "01632 960 010",
        message: "Checking the mailbox.",
      });
      const posted = await fetch(`${server.url}/about-us`, {
        method: "POST",
        body: form,
        headers: { origin: server.url },
      });
      expect(posted.status).toBe(200);
      const mailbox = await (await fetch(`${server.url}/dev/mailbox`)).text();
      expect(mailbox).toContain("New website enquiry");
      await payWithTheSimulatedProvider(server.url);
      await demoPatientSeesHisResults(server.url);
    } finally {
      await server.stop();
    }

    // A restart finds the data and does not seed again.
    const again = await startBuiltServer(env);
    try {
      expect(again.output()).not.toContain("Demo data seeded.");
      const mailbox = await (await fetch(`${again.url}/dev/mailbox`)).text();
      expect(mailbox).toContain("New website enquiry");
    } finally {
      await again.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("has no dev mailbox in production", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-pglite-"));
    const server = await startBuiltServer({
      PGLITE_DIR: dir,
      DATABASE_URL: "",
      NODE_ENV: "production",
      APP_URL: "https://mhat.example.org",
      AUTH_SECRET: "a".repeat(40),
      SMTP_URL: "smtp://127.0.0.1:9",
      PAYPAL_CLIENT_ID: "production-test-client",
      PAYPAL_CLIENT_SECRET: "production-test-secret",
      PAYPAL_ENV: "sandbox",
    });
    try {
      expect(server.output()).not.toContain("Demo data seeded.");
      expect((await fetch(`${server.url}/dev/mailbox`)).status).toBe(404);
      expect((await fetch(`${server.url}/`)).headers.get("strict-transport-security")).toContain(
        "max-age",
      );
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to start in production without PayPal credentials (no simulated payments there)", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-pglite-"));
    try {
      await expect(
        startBuiltServer({
          PGLITE_DIR: dir,
          DATABASE_URL: "",
          NODE_ENV: "production",
          APP_URL: "https://mhat.example.org",
          AUTH_SECRET: "a".repeat(40),
          SMTP_URL: "smtp://127.0.0.1:9",
          PAYPAL_CLIENT_ID: "",
          PAYPAL_CLIENT_SECRET: "",
        }),
      ).rejects.toThrow(/PAYPAL_CLIENT_ID/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
