import { describe, expect, it } from "vitest";
import { insertFreeEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, uniqueId } from "#tests/support/fixtures/people";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import {
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  query,
  serverDatabaseForThisFile,
} from "./support";
import { signedInStaff } from "./staff-support";

/**
 * A sample recorded at check-in against the wrong man: his imported, unreleased result is someone
 * else's, and a clinician withdraws it from its page, with and without JavaScript. The rules
 * (never a released result, only for those who import, a stale page refused) are tested in
 * tests/integration/results-admin.test.ts.
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

async function unreleasedResult() {
  const event = await insertFreeEvent(server.db, {
    name: `Mix-up Clinic ${uniqueId()}`,
    eventDate: londonDay(-10),
  });
  const patient = await insertPatient(server.db, { lastName: `Mixup${uniqueId()}` });
  const booking = await insertSampledBooking(server.db, {
    eventId: event.id,
    userId: patient.id,
    eventDate: event.eventDate,
  });
  const result = await insertResult(server.db, booking.id, {
    psaValue: "4.20",
    flag: null,
    retestYears: null,
    comments: null,
    releasedAt: null,
    releasedBy: null,
    suggestedFlag: "red",
    sampleDate: event.eventDate,
  });
  return { result, patient, booking, event };
}

describe.each([
  { javaScriptEnabled: true, name: "with JavaScript" },
  { javaScriptEnabled: false, name: "without JavaScript" },
])("withdrawing a result that is not his, $name", ({ javaScriptEnabled }) => {
  it("is a second step below the release form, and leaves the list saying what to do next", async () => {
    const { result, patient, booking, event } = await unreleasedResult();
    const [sampled] = await query<{ sample_id: string }>(
      "select sample_id from booking where id = $1",
      [booking.id],
    );
    const tube = sampled!.sample_id;
    const { jar } = await signedInStaff(server.db, ["clinician"]);
    const page = await newPage(browser(), { javaScriptEnabled });
    await jar.into(page.context());

    await page.goto(`/admin/results/${result.id}`);
    await page.getByRole("heading", { level: 1, name: new RegExp(patient.lastName) }).waitFor();
    const withdraw = page.getByRole("button", { name: "Withdraw this result" });
    expect(await withdraw.isVisible()).toBe(false);
    await page
      .getByText("This result is not his: the sample was recorded for the wrong man")
      .click();
    expect(await withdraw.isVisible()).toBe(true);
    // axe runs in the page, so only where scripts run; the pages are the same without them.
    if (javaScriptEnabled) await expectNoAxeViolations(page);

    await withdraw.click();
    await page.waitForURL((url) => url.pathname === "/admin/results" && url.search !== "");
    const notice = await page.getByRole("status").innerText();
    expect(notice).toContain("Result withdrawn, and the sample recorded for him undone");
    // Which tube to record again, and at which event (found by the event-day review).
    expect(notice).toContain(`The tube: ${tube}.`);
    expect(notice).toContain(`Its event: ${event.name},`);
    expect(notice).toContain("The patient was told nothing.");
    if (javaScriptEnabled) await expectNoAxeViolations(page);
    expect(await query("select 1 from test_result where id = $1", [result.id])).toEqual([]);
    expect(await query("select sample_id from booking where id = $1", [result.bookingId])).toEqual([
      { sample_id: null },
    ]);
    expect((await page.goto(`/admin/results/${result.id}`))?.status()).toBe(404);
    await page.context().close();
  });
});
