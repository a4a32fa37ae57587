import { beforeAll, describe, expect, it } from "vitest";
import { routeTable } from "#tests/support/route-table";
import { browserForThisFile, expectNoAxeViolations, newPage, pageProblems, query } from "./support";
import { DEMO_ADMIN, DEMO_CLINICIAN, DEMO_COORDINATOR, signIn, type Jar } from "./staff-support";

/**
 * Every back-office page, opened by someone allowed to, passes axe (WCAG 2.2 AA) with no browser
 * errors and nothing wider than a 768 px tablet. The journeys check the pages' states; this
 * checks that no page is missed.
 */
const browser = browserForThisFile();

/** Who opens each page here; downloads (CSV) are not pages. */
const OPENED_BY: Record<string, "admin" | "coordinator" | "clinician"> = {
  "/admin": "admin",
  "/admin/events": "coordinator",
  "/admin/events/new": "coordinator",
  "/admin/events/:eventId": "coordinator",
  "/admin/products": "coordinator",
  "/admin/events/:eventId/attendees": "coordinator",
  "/admin/events/:eventId/attendees/print": "coordinator",
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
 * results list shows nobody in the demo: nothing awaits release; its audit rows are tested in
 * tests/integration/results-admin.test.ts.)
 */
const SHOWS_PEOPLE = new Set([
  "/admin/events/:eventId/attendees",
  "/admin/events/:eventId/attendees/print",
  "/admin/results/:resultId",
  "/admin/enquiries",
  "/admin/staff",
  "/admin/audit",
]);

const STAFF_EMAILS = {
  admin: DEMO_ADMIN.email,
  coordinator: DEMO_COORDINATOR.email,
  clinician: DEMO_CLINICIAN.email,
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
const ids = { eventId: "", resultId: "" };

beforeAll(async () => {
  jars.admin = await signIn(DEMO_ADMIN);
  jars.coordinator = await signIn(DEMO_COORDINATOR);
  jars.clinician = await signIn(DEMO_CLINICIAN);
  // An event with bookings (the demo patient's upcoming one) and a released result.
  const [event] = await query<{ id: string }>(
    `select e.id from event e join booking b on b.event_id = e.id
     join "user" u on u.id = b.user_id where u.email = 'demo.patient@example.org'
     and b.status = 'confirmed' order by e.event_date desc limit 1`,
  );
  const [result] = await query<{ id: string }>("select id from test_result limit 1");
  ids.eventId = event!.id;
  ids.resultId = result!.id;
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

describe.each(pages)("$path", (entry) => {
  it("has one heading, no axe violations, no browser errors, and fits 768 px", async () => {
    const page = await newPage(browser(), { viewport: { width: 768, height: 1024 } });
    await jars[OPENED_BY[entry.path]!]!.into(page.context());
    const path = entry.path.replace(":eventId", ids.eventId).replace(":resultId", ids.resultId);
    const actor = STAFF_EMAILS[OPENED_BY[entry.path]!];
    const audited = await auditCount(actor);
    const response = await page.goto(path);
    if (SHOWS_PEOPLE.has(entry.path)) expect(await auditCount(actor)).toBeGreaterThan(audited);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
    await expectNoAxeViolations(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      768,
    );
    expect(pageProblems(page)).toEqual([]);
    await page.context().close();
  });
});
