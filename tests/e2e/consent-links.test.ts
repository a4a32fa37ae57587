import { describe, expect, it } from "vitest";
import {
  auditRows,
  insertBooking,
  insertFreeEvent,
  insertPatient,
  londonDay,
  uniqueEmail,
} from "#tests/support/fixtures";
import { fillConsent } from "./patient-support";
import { signedInPatient, signedInStaff } from "./staff-support";
import {
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  query,
  serverDatabaseForThisFile,
  waitForMail,
} from "./support";

const server = serverDatabaseForThisFile();
const browser = browserForThisFile();

/**
 * Issue "Right first time", item 18: /test-consent could be reached by nobody. A coordinator now
 * e-mails a signed link from the attendee list, and the portal's "ID: MHAT…" is the id that
 * /test-consent and the results API accept.
 */
describe("a consent link sent from the attendee list", () => {
  it("arrives by e-mail, signed and expiring, and lets only that man give his consent", async () => {
    const testDate = londonDay(5);
    const ev = await insertFreeEvent(server.db, { eventDate: testDate, status: "published" });
    const man = await insertPatient(server.db, {
      email: uniqueEmail("consent-link"),
      firstName: "Walter",
      lastName: "Pettigrew",
      dateOfBirth: "1951-03-02",
      nhsNumber: "9434765870",
    });
    const other = await insertPatient(server.db, { email: uniqueEmail("consent-other") });
    await insertBooking(server.db, { eventId: ev.id, userId: man.id });
    const cancelled = await insertBooking(server.db, {
      eventId: ev.id,
      userId: other.id,
      status: "cancelled",
    });
    const { jar: coordinator } = await signedInStaff(server.db, ["coordinator"]);

    const page = await newPage(browser());
    await coordinator.into(page.context());
    await page.goto(`/admin/events/${ev.id}/attendees`);
    await page.getByRole("button", { name: `E-mail the consent form to ${man.name}` }).click();
    await expect.poll(() => page.getByText("Consent link sent by e-mail.").count()).toBe(1);
    await expectNoAxeViolations(page);

    const mail = await waitForMail((m) => m.to?.some((to) => to.address === man.email) ?? false);
    const link = /https?:\/\/\S+\/test-consent\?\S+/.exec(mail.text ?? "")?.[0];
    expect(link, mail.text).toBeDefined();
    const url = new URL(link!);
    expect(url.searchParams.get("profile_id")).toBe(man.reference);
    expect(url.searchParams.get("test_date")).toBe(testDate);
    expect(url.searchParams.get("signature")).toMatch(/^[\w-]{20,}$/);
    // It expires by the end of the test's day (London is at most an hour ahead of UTC).
    const expires = Number(url.searchParams.get("expires")) * 1000;
    expect(expires).toBeGreaterThan(Date.now());
    expect(expires).toBeLessThanOrEqual(Date.parse(`${testDate}T23:59:59Z`));
    // Nothing about his health or identity beyond his name, in the mail or the address.
    for (const secret of ["9434765870", "943 476 5870", "1951", "PSA level"])
      expect(`${mail.subject}\n${mail.text}\n${link}`).not.toContain(secret);
    expect(await auditRows(server.db, { action: "attendees.consent-link" })).toHaveLength(1);

    // A second send straight away is refused, as other mail to one address is.
    await page.getByRole("button", { name: `E-mail the consent form to ${man.name}` }).click();
    await expect.poll(() => page.getByText("was e-mailed to this person").count()).toBe(2);

    // The same signature does not work for another man.
    const forged = new URL(link!);
    forged.searchParams.set("profile_id", other.reference);
    const visitor = await newPage(browser());
    await visitor.goto(forged.pathname + forged.search);
    expect(await visitor.getByText("Invalid or missing parameters").count()).toBe(1);

    // Signed out, in another browser, the link opens the form and his consent is kept.
    await visitor.goto(url.pathname + url.search);
    await fillConsent(visitor);
    await visitor.getByRole("button", { name: "Submit" }).click();
    await expect
      .poll(() => visitor.getByText("Consent form submitted successfully!").count())
      .toBe(1);
    const stored = await query<{ user_id: string; test_date: string }>(
      "select user_id, to_char(test_date, 'YYYY-MM-DD') as test_date from consent where user_id = $1",
      [man.id],
    );
    expect(stored).toEqual([{ user_id: man.id, test_date: testDate }]);

    // A cancelled booking has nothing to consent to: no button, and a post is refused.
    const refused = await coordinator.post(`/admin/events/${ev.id}/attendees`, {
      intent: "consent-link",
      bookingId: cancelled.id,
    });
    expect(refused.status).toBe(409);
    expect(await auditRows(server.db, { action: "attendees.consent-link" })).toHaveLength(1);
  });

  it("is not sent by a clinician, whatever he posts", async () => {
    const ev = await insertFreeEvent(server.db, { eventDate: londonDay(3), status: "published" });
    const man = await insertPatient(server.db, { email: uniqueEmail("consent-clinician") });
    const made = await insertBooking(server.db, { eventId: ev.id, userId: man.id });
    const { jar: clinician } = await signedInStaff(server.db, ["clinician"]);
    const response = await clinician.post(`/admin/events/${ev.id}/attendees`, {
      intent: "consent-link",
      bookingId: made.id,
    });
    expect(response.status).toBe(403);
  });
});

describe("the portal's ID", () => {
  it("is the id /test-consent and GET /api/medical/results/{profileId} accept", async () => {
    const { patient, jar } = await signedInPatient(server.db);
    const portal = (await (await jar.fetch("/portal")).text()).replaceAll("<!-- -->", "");
    expect(portal).toContain(`ID: ${patient.reference}`);

    const form = await jar.fetch(
      `/test-consent?profile_id=${patient.reference}&test_date=${londonDay(7)}`,
    );
    expect(form.status).toBe(200);
    expect(await form.text()).not.toContain("Invalid or missing parameters");

    const api = await jar.fetch(`/api/medical/results/${patient.reference}`);
    expect(api.status).toBe(200);
    expect(Array.isArray(((await api.json()) as { data: unknown }).data)).toBe(true);
  });
});
