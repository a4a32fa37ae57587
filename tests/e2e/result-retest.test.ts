import { describe, expect, it } from "vitest";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, uniqueId } from "#tests/support/fixtures/people";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import { browserForThisFile, newPage, serverDatabaseForThisFile } from "./support";
import { signedInStaff } from "./staff-support";

/**
 * Issue 15, item 21: on the result page, "For Green: test again in" shows only while Green is
 * chosen, with and without JavaScript (a CSS rule does it, so it needs no script).
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

async function resultToRelease() {
  const event = await insertFreeEvent(server.db, {
    name: `Retest Clinic ${uniqueId()}`,
    eventDate: londonDay(-3),
  });
  const patient = await insertPatient(server.db);
  const booking = await insertSampledBooking(server.db, {
    eventId: event.id,
    userId: patient.id,
    eventDate: event.eventDate,
  });
  return insertResult(server.db, booking.id, {
    psaValue: "0.91",
    flag: null,
    retestYears: null,
    suggestedFlag: null,
    releasedAt: null,
    releasedBy: null,
  });
}

describe.each([
  { javaScript: true, name: "with JavaScript" },
  { javaScript: false, name: "without JavaScript" },
])("the retest question, $name", ({ javaScript }) => {
  it("shows only while Green is the chosen flag", async () => {
    const result = await resultToRelease();
    const { jar } = await signedInStaff(server.db, ["clinician"]);
    const page = await newPage(browser(), { javaScriptEnabled: javaScript });
    await jar.into(page.context());
    await page.goto(`/admin/results/${result.id}`);

    const retest = page.getByRole("group", { name: /For Green: test again in/ });
    const flag = (value: string) => page.locator(`input[name="flag"][value="${value}"]`);
    expect(await flag("green").count()).toBe(1);
    // Nothing chosen yet: no retest question.
    expect(await retest.isVisible()).toBe(false);
    await flag("amber").check();
    expect(await retest.isVisible()).toBe(false);
    await flag("red").check();
    expect(await retest.isVisible()).toBe(false);
    await flag("green").check();
    expect(await retest.isVisible()).toBe(true);
    expect(await page.getByLabel("2 years").isVisible()).toBe(true);
    await flag("amber").check();
    expect(await retest.isVisible()).toBe(false);

    // Green without a retest interval: the page comes back with Green chosen and the question
    // shown, with its message.
    await flag("green").check();
    await page.getByRole("button", { name: "Release the result" }).click();
    await expect.poll(() => page.locator(".error-summary").count()).toBe(1);
    expect(await flag("green").isChecked()).toBe(true);
    expect(await retest.isVisible()).toBe(true);
    expect(await retest.locator(".field-error").isVisible()).toBe(true);
    await page.context().close();
  });
});
