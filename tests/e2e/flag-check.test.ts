import { describe, expect, it } from "vitest";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, portalEditOf, uniqueId } from "#tests/support/fixtures/people";
import { updateOwnProfile } from "#app/services/profiles.server";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import {
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  serverDatabaseForThisFile,
} from "./support";
import { signedInStaff } from "./staff-support";

/**
 * A released result whose flag a clinician is asked to check again (his date of birth changed
 * after release): from the dashboard to the list, the result's question, and "The flag stands",
 * with and without JavaScript. When the question is asked is tested in
 * tests/integration/birth-date-and-flags.test.ts.
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

/** His date of birth this many years before the event's day. */
const yearsBefore = (day: string, years: number) =>
  `${Number(day.slice(0, 4)) - years}${day.slice(4)}`;

/**
 * A PSA of 1.50 released as green for a man of 55 (his band's threshold is 2.00), then his date of
 * birth corrected on his portal to make him 45 (threshold 1.00: amber is suggested).
 */
async function flagToCheck() {
  const event = await insertFreeEvent(server.db, {
    name: `Check Again Clinic ${uniqueId()}`,
    eventDate: londonDay(-20),
  });
  const patient = await insertPatient(server.db, {
    lastName: `Checkley${uniqueId()}`,
    dateOfBirth: yearsBefore(event.eventDate, 55),
  });
  const booking = await insertSampledBooking(server.db, {
    eventId: event.id,
    userId: patient.id,
    eventDate: event.eventDate,
  });
  const result = await insertResult(server.db, booking.id, {
    psaValue: "1.50",
    flag: "green",
    retestYears: 2,
    suggestedFlag: "green",
    sampleDate: event.eventDate,
    flagDecidedAge: 55,
  });
  const edit = await portalEditOf(server.db, patient.id, {
    dateOfBirth: yearsBefore(event.eventDate, 45),
  });
  expect(await updateOwnProfile(server.db, patient.id, edit)).toEqual({ ok: true });
  return { result, patient, reference: booking.reference };
}

describe.each([
  { javaScriptEnabled: true, name: "with JavaScript" },
  { javaScriptEnabled: false, name: "without JavaScript" },
])("a released flag to check again, $name", ({ javaScriptEnabled }) => {
  it("is found from the dashboard and answered with 'The flag stands'", async () => {
    const { result, patient, reference } = await flagToCheck();
    const { jar } = await signedInStaff(server.db, ["clinician"]);
    const page = await newPage(browser(), { javaScriptEnabled });
    await jar.into(page.context());

    await page.goto("/admin");
    await page.getByRole("link", { name: "Check the flags" }).click();
    await page.getByRole("heading", { level: 2, name: "Flags to check again" }).waitFor();
    const row = page.getByRole("row").filter({ hasText: reference });
    // PSA, flag given, suggested now.
    expect((await row.getByRole("cell").allInnerTexts()).slice(2, 5)).toEqual([
      "1.50 ng/ml",
      "Green",
      "Amber",
    ]);
    // axe runs in the page, so only where scripts run; the pages are the same without them.
    if (javaScriptEnabled) await expectNoAxeViolations(page);

    await row.getByRole("link", { name: new RegExp(patient.lastName) }).click();
    await page.waitForURL(`**/admin/results/${result.id}`);
    const question = page.getByRole("region", { name: "Check this flag again" });
    expect(await question.locator("dt").allInnerTexts()).toEqual([
      "Flag he was given, decided for a man of 55",
      "Suggested for his age at the sample as it stands now (45)",
    ]);
    expect(await question.locator("dd").allInnerTexts()).toEqual([
      "Green: test again in 2 years",
      "Amber: a little raised: repeat the test in 3 months",
    ]);
    // axe runs in the page, so only where scripts run; the pages are the same without them.
    if (javaScriptEnabled) await expectNoAxeViolations(page);

    await question.getByRole("button", { name: "The flag stands" }).click();
    await page.waitForURL((url) => url.search === "?flag-confirmed");
    expect(await page.getByRole("status").innerText()).toContain("The flag stands, as released.");
    expect(await page.getByRole("region", { name: "Check this flag again" }).count()).toBe(0);

    await page.goto("/admin/results?show=to-check");
    expect(await page.getByRole("row").filter({ hasText: reference }).count()).toBe(0);
    await page.context().close();
  });
});
