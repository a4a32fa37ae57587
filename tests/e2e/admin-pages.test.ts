import { beforeAll, describe, expect, it } from "vitest";
import { enquiry, newsletterSubscription } from "#app/db/schema";
import { insertBooking, insertOwedRefund } from "#tests/support/fixtures/bookings";
import { insertPaidEvent, londonDay } from "#tests/support/fixtures/events";
import { insertPatient, uniqueEmail, uniqueId } from "#tests/support/fixtures/people";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import { routeTable } from "#tests/support/route-table";
import {
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  pageProblems,
  query,
  serverDatabaseForThisFile,
} from "./support";
import { signedInStaff, type Jar } from "./staff-support";

/**
 * Every back-office page, opened by someone allowed to, passes axe (WCAG 2.2 AA) with no browser
 * errors and nothing wider than a 768 px tablet. The journeys check the pages' states; this
 * checks that no page is missed.
 */
const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

/** Who opens each page here; downloads (CSV) are not pages. */
const OPENED_BY: Record<string, "admin" | "coordinator" | "clinician"> = {
  "/admin": "admin",
  "/admin/events": "coordinator",
  "/admin/events/new": "coordinator",
  "/admin/events/:eventId": "coordinator",
  "/admin/products": "coordinator",
  "/admin/refunds": "coordinator",
  "/admin/refunds/:reference/by-hand": "coordinator",
  "/admin/find-booking": "coordinator",
  "/admin/events/:eventId/attendees": "coordinator",
  "/admin/events/:eventId/attendees/print": "coordinator",
  "/admin/events/:eventId/attendees/:bookingId": "coordinator",
  "/admin/events/:eventId/attendees/:bookingId/cancel": "coordinator",
  "/admin/events/:eventId/attendees/:bookingId/move": "coordinator",
  "/admin/results": "clinician",
  "/admin/results/import": "clinician",
  "/admin/results/thresholds": "clinician",
  "/admin/results/:resultId": "clinician",
  "/admin/enquiries": "admin",
  "/admin/subscribers": "admin",
  "/admin/staff": "admin",
  "/admin/audit": "admin",
};

/**
 * Pages that show people's personal details or health data: each look is in the audit log. (The
 * results list's audit rows are tested in tests/integration/results-admin.test.ts.)
 */
const SHOWS_PEOPLE = new Set([
  "/admin/events/:eventId/attendees",
  "/admin/events/:eventId/attendees/print",
  "/admin/events/:eventId/attendees/:bookingId",
  "/admin/events/:eventId/attendees/:bookingId/cancel",
  "/admin/events/:eventId/attendees/:bookingId/move",
  "/admin/results/:resultId",
  "/admin/enquiries",
  "/admin/staff",
  "/admin/audit",
]);

/** This file's own data that a page shows, by page: the page is checked with it on. */
const SHOWN: Record<string, () => string> = {
  "/admin/events/:eventId": () => ids.eventName,
  "/admin/events/:eventId/attendees": () => ids.attendeeName,
  "/admin/events/:eventId/attendees/print": () => ids.attendeeName,
  "/admin/events/:eventId/attendees/:bookingId": () => ids.attendeeName,
  "/admin/events/:eventId/attendees/:bookingId/cancel": () => ids.attendeeName,
  "/admin/events/:eventId/attendees/:bookingId/move": () => ids.attendeeName,
  "/admin/results": () => ids.awaitingReleaseReference,
  "/admin/refunds/:reference/by-hand": () => ids.refusedRefundReference,
  "/admin/enquiries": () => ids.enquirerName,
};

async function auditCount(actorEmail: string) {
  const [row] = await query<{ count: number }>(
    "select count(*)::int as count from audit_log where actor_email = $1",
    [actorEmail],
  );
  return row!.count;
}

const pages = routeTable().filter(
  (entry) => entry.path.startsWith("/admin") && Object.hasOwn(OPENED_BY, entry.path),
);
const jars: Record<string, Jar> = {};
const staffEmails: Record<string, string> = {};
const ids = {
  eventId: "",
  bookingId: "",
  eventName: "",
  attendeeName: "",
  resultId: "",
  awaitingReleaseReference: "",
  enquirerName: "",
  refusedRefundReference: "",
};

beforeAll(async () => {
  const { db } = server;
  for (const role of ["admin", "coordinator", "clinician"] as const) {
    const { staff, jar } = await signedInStaff(db, [role]);
    jars[role] = jar;
    staffEmails[role] = staff.email;
  }
  // An upcoming event of this file's own with a confirmed booking.
  const event = await insertPaidEvent(db, {
    name: `Page Check Screening ${uniqueId()}`,
    eventDate: londonDay(5),
  });
  const attendee = await insertPatient(db, { firstName: "Percival", lastName: "Pagewright" });
  const attendeeBooking = await insertBooking(db, {
    eventId: event.id,
    userId: attendee.id,
    slotTime: "10:30",
  });
  // An event that took place: one result released, one awaiting release.
  const eventDate = londonDay(-4);
  const past = await insertPaidEvent(db, { name: "Page Check Past Screening", eventDate });
  const released = await insertSampledBooking(db, {
    eventId: past.id,
    userId: (await insertPatient(db)).id,
    eventDate,
  });
  const awaiting = await insertSampledBooking(db, {
    eventId: past.id,
    userId: (await insertPatient(db)).id,
    eventDate,
    slotTime: "10:30",
  });
  await insertResult(db, awaiting.id, { flag: null, retestYears: null, releasedAt: null });
  // A refund PayPal refused for good, to be recorded as given back another way.
  const refused = await insertOwedRefund(db, {
    eventId: event.id,
    userId: (await insertPatient(db)).id,
    refusedBy: "REFUND_TIME_LIMIT_EXCEEDED",
  });
  // An enquiry and a newsletter subscriber, so that those pages list someone.
  const [asked] = await db
    .insert(enquiry)
    .values({
      firstName: "Ottilie",
      lastName: "Enquirer",
      email: uniqueEmail("enquirer"),
      phoneNumber: "01632 960 321",
      message: "When is the next screening near Halstead?",
    })
    .returning();
  await db
    .insert(newsletterSubscription)
    .values({ name: "Sidney Subscriber", email: uniqueEmail("subscriber") });
  Object.assign(ids, {
    eventId: event.id,
    bookingId: attendeeBooking.id,
    eventName: event.name,
    attendeeName: "Percival Pagewright",
    resultId: (await insertResult(db, released.id)).id,
    awaitingReleaseReference: awaiting.reference,
    enquirerName: `${asked!.firstName} ${asked!.lastName}`,
    refusedRefundReference: refused.reference,
  });
});

it("covers every back-office page but the downloads", () => {
  const all = routeTable().filter(
    (entry) => entry.path.startsWith("/admin/") || entry.path === "/admin",
  );
  const notPages = all.filter((entry) => !Object.hasOwn(OPENED_BY, entry.path));
  expect(notPages.map((entry) => entry.path).sort()).toEqual([
    "/admin/events/:eventId/lab.csv",
    "/admin/setup",
    "/admin/subscribers.csv",
    "/admin/two-factor",
  ]);
});

it("answers a made-up notice in the address with the page itself, not a 500", async () => {
  const page = await newPage(browser());
  await jars.admin!.into(page.context());
  for (const path of [
    "/admin/refunds?refund=toString",
    "/admin/refunds?refund=__proto__",
    "/admin/staff?done=constructor",
    `/admin/events/${ids.eventId}?saved=toString`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    expect(await page.getByRole("heading", { level: 1 }).count(), path).toBe(1);
  }
  await page.context().close();
});

describe.each(pages)("$path", (entry) => {
  it("has one heading, no axe violations, no browser errors, and fits 768 px", async () => {
    const page = await newPage(browser(), { viewport: { width: 768, height: 1024 } });
    await jars[OPENED_BY[entry.path]!]!.into(page.context());
    const path = entry.path
      .replace(":eventId", ids.eventId)
      .replace(":resultId", ids.resultId)
      .replace(":bookingId", ids.bookingId)
      .replace(":reference", ids.refusedRefundReference);
    const actor = staffEmails[OPENED_BY[entry.path]!]!;
    const audited = await auditCount(actor);
    const response = await page.goto(path);
    if (SHOWS_PEOPLE.has(entry.path)) expect(await auditCount(actor)).toBeGreaterThan(audited);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
    const shown = SHOWN[entry.path]?.();
    if (shown) expect(await page.locator("main").textContent()).toContain(shown);
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      768,
    );
    expect(pageProblems(page)).toEqual([]);
    await page.context().close();
  });
});

describe("a result that changes while its page is open", () => {
  async function awaitingRelease() {
    const eventDate = londonDay(-3);
    const past = await insertPaidEvent(server.db, { name: "Page Check Changed Result", eventDate });
    const sampled = await insertSampledBooking(server.db, {
      eventId: past.id,
      userId: (await insertPatient(server.db)).id,
      eventDate,
    });
    return insertResult(server.db, sampled.id, { flag: null, retestYears: null, releasedAt: null });
  }
  /** A new file from the lab: another value, and a new version. */
  const reimported = (resultId: string) =>
    query("update test_result set psa_value = '4.20', updated_at = now() where id = $1", [
      resultId,
    ]);
  const released = async (resultId: string) =>
    (
      await query<{ released_at: Date | null }>(
        "select released_at from test_result where id = $1",
        [resultId],
      )
    )[0]!.released_at;

  for (const javaScriptEnabled of [true, false])
    it(`is shown again as it is now, keeping the comments but asking for the flag again (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const result = await awaitingRelease();
      const page = await newPage(browser(), { javaScriptEnabled });
      await jars.clinician!.into(page.context());
      await page.goto(`/admin/results/${result.id}`);
      await page.locator('input[name="flag"][value="amber"]').check();
      await page
        .getByLabel("Comments for the patient (optional)")
        .fill("Please ask your GP about the lower reading.");
      await reimported(result.id);

      await page.getByRole("button", { name: "Release the result" }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: "This result changed after you opened it" })
        .waitFor();
      expect(await released(result.id)).toBeNull();
      expect(await page.locator("main").textContent()).toContain("4.20");
      expect(await page.getByLabel("Comments for the patient (optional)").inputValue()).toBe(
        "Please ask your GP about the lower reading.",
      );
      expect(await page.locator('input[name="flag"]:checked').count()).toBe(0);

      // Chosen again for the value as it is now, it is released.
      await page.locator('input[name="flag"][value="red"]').check();
      await page.getByRole("button", { name: "Release the result" }).click();
      await expect.poll(() => released(result.id)).not.toBeNull();
      await page.context().close();
    });
  for (const javaScriptEnabled of [true, false])
    it(`a correction refused because someone corrected it meanwhile starts again from the result as it is now (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const result = await awaitingRelease();
      await query(
        "update test_result set flag = 'amber', released_at = now(), updated_at = now() where id = $1",
        [result.id],
      );
      const page = await newPage(browser(), { javaScriptEnabled });
      await jars.clinician!.into(page.context());
      await page.goto(`/admin/results/${result.id}`);
      await page.getByLabel("Comments for the patient (optional)").fill("My own note.");
      await page.locator('input[name="reason"]').first().check();
      // Another clinician corrects the value meanwhile.
      await query(
        "update test_result set psa_value = '4.50', updated_at = now() + interval '1 second' where id = $1",
        [result.id],
      );
      await page.getByRole("button", { name: "Save the correction" }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: "someone else corrected it, or his date of birth was corrected" })
        .waitFor();
      expect(await page.getByLabel("PSA value (ng/ml)").inputValue()).toBe("4.50");
      const [now] = await query<{ comments: string | null }>(
        "select comments from test_result where id = $1",
        [result.id],
      );
      expect(await page.getByLabel("Comments for the patient (optional)").inputValue()).toBe(
        now!.comments ?? "",
      );
      await page.context().close();
    });
});
