import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { user } from "#app/db/schema";
import { insertBooking, insertConfirmedBookings } from "#tests/support/fixtures/bookings";
import {
  insertEvent,
  insertPaidEvent,
  insertProduct,
  londonDay,
} from "#tests/support/fixtures/events";
import { insertPatient, uniqueId } from "#tests/support/fixtures/people";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import { insertWaitlistEntry } from "#tests/support/fixtures/waitlist";
import { routeTable } from "#tests/support/route-table";
import { fillConsent, newPatientPage } from "./patient-support";
import { signedInPatient, signedInStaff } from "./staff-support";
import { newPage, scriptsStarted } from "./support";

/** Every content route of the public site, with a heading each must show. */
export const CONTENT_ROUTES: [path: string, heading: RegExp][] = [
  ["/", /Advocacy for Men's Health/],
  ["/about-us", /ABOUT MHAT/],
  ["/about-us/research", /Research summary 2023/],
  ["/support-us", /Support us/],
  ["/information-hub", /Information Hub/],
  [
    "/information-hub/prostate-diseases-and-prostate-cancer",
    /Prostate diseases and prostate cancer/,
  ],
  ["/information-hub/mens-health", /Men's health/],
  ["/information-hub/health-workplace", /Health in the workplace/],
  ["/information-hub/statistics", /Screening statistics 2023/],
  ["/information-hub/elderly-psa-testing", /PSA testing for men over 80/],
  ["/events", /Events/],
  ["/book-event-main", /Book a screening event/],
  ["/login", /Sign in/],
  ["/signup", /Create your account/],
  ["/reset-password", /Reset your password/],
  ["/signup-success", /We have sent you an e-mail/],
  ["/email-confirmed", /Your email address is confirmed/],
  ["/email-confirmed?error=TOKEN_EXPIRED", /This link did not work/],
  ["/events/corporate-screening", /Corporate screening/],
  ["/events/community-screening", /Community screening/],
  ["/events/seminar-talks", /Seminar talks/],
  ["/news", /Patient Journey/],
  ["/news/patient-journey", /Patient Journey/],
  ["/news/patient-journey/robert-hale", /Robert's story/],
  ["/news/patient-journey/michael-adeyemi", /Michael's story/],
  ["/refund-policy", /Refund Policy/],
  ["/privacy-notice", /Privacy notice/],
  ["/accessibility-statement", /Accessibility statement/],
  ["/mhat-screening-event", /MHAT screening events/],
  ["/world-cancer-day-poster", /World Cancer Day poster/],
  ["/account-deleted", /Your account has been deleted/],
];

/** Back-office pages (all but downloads and the pages before two-factor sign-in), by route. */
const ADMIN_PAGES = routeTable()
  .map((entry) => entry.path)
  .filter(
    (path) =>
      (path === "/admin" || path.startsWith("/admin/")) &&
      !/\.csv$|\/setup$|\/two-factor$/.test(path),
  );

/** Called at each stop of the tour, once the page is there; `name` says which page and state. */
export type Visit = (page: Page, name: string) => Promise<void>;

/**
 * Walks a browser through every page and the main states of the site: the public pages, a 404,
 * forms sent empty (their error states), a signed-in patient's portal and booking up to checkout
 * (each step also with its errors), and every back-office page as a member of staff with every
 * role. It makes its own data with the fixtures. Works with JavaScript on or off.
 */
export async function tourSite(
  browser: Browser,
  db: Db,
  visit: Visit,
  {
    context: options = {},
    watch = () => {},
  }: {
    /** For each browser context of the tour (viewport, scripts off). */
    context?: BrowserContextOptions;
    /** Called with each new page before it goes anywhere. */
    watch?: (page: Page) => void;
  } = {},
) {
  const javaScriptEnabled = options.javaScriptEnabled ?? true;
  const event = await insertPaidEvent(db, {
    name: `Tour Screening ${uniqueId()}`,
    eventDate: londonDay(6),
  });
  // A fully booked event, for its waiting list (one time, two places, both booked).
  const full = await insertPaidEvent(db, {
    name: `Tour Full Screening ${uniqueId()}`,
    eventDate: londonDay(6),
    startTime: "10:00",
    endTime: "10:30",
    totalSpaces: 2,
    placesPerSlot: 2,
  });
  await insertConfirmedBookings(db, full.id, 2, "10:00");

  const open = async (page: Page, path: string) => {
    await page.goto(path);
    await ready(page, javaScriptEnabled);
    await visit(page, path);
  };
  const submit = async (page: Page, button: string, name: string) => {
    await page.getByRole("button", { name: button, exact: true }).click();
    await page.locator(".error-summary").waitFor();
    await visit(page, name);
  };

  // The public site, anonymous.
  const visitor = await newPage(browser, options);
  watch(visitor);
  for (const [path] of CONTENT_ROUTES) await open(visitor, path);
  await open(visitor, `/event/${event.id}`);
  await open(visitor, `/event/${full.id}`);
  await open(visitor, "/no-such-page");
  await open(visitor, "/login");
  await submit(visitor, "Sign in", "/login sent empty");
  await open(visitor, "/signup");
  await submit(visitor, "Create account", "/signup sent empty");
  await visitor.context().close();

  // A signed-in patient: the portal, and booking with each step's errors.
  const { page: patient, email } = await newPatientPage(browser, { javaScriptEnabled });
  await patient.setViewportSize(options.viewport ?? { width: 1280, height: 720 });
  watch(patient);
  await open(patient, "/portal");
  await open(patient, "/medical-results");
  await open(patient, "/my-data");
  await open(patient, "/delete-account");
  await submit(patient, "Delete my account", "/delete-account sent empty");
  const [account] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  // His bookings, after the account deletion page (a booking ahead changes that page): one paid
  // booking of another event, its page and its cancel page.
  const mine = await insertBooking(db, {
    eventId: (
      await insertPaidEvent(db, { name: `Tour Booked ${uniqueId()}`, eventDate: londonDay(20) })
    ).id,
    userId: account!.id,
    confirmedAt: new Date(),
    pricePence: 2500,
    paymentRequired: true,
    paymentStatus: "paid",
  });
  await open(patient, "/my-bookings");
  await open(patient, `/my-bookings/${mine.reference}`);
  await open(patient, `/my-bookings/${mine.reference}/cancel`);
  // The waiting list: joining a full event, then the place offered from another one's.
  await open(patient, `/event/${full.id}`);
  await patient.getByRole("button", { name: "Join the waiting list" }).click();
  await patient
    .getByText(/on the waiting list\./)
    .first()
    .waitFor();
  await ready(patient, javaScriptEnabled);
  await visit(patient, `/event/${full.id} on its waiting list`);
  const alsoFull = await insertPaidEvent(db, {
    name: `Tour Offer Screening ${uniqueId()}`,
    eventDate: londonDay(6),
    totalSpaces: 1,
  });
  const offer = await insertWaitlistEntry(db, {
    eventId: alsoFull.id,
    userId: account!.id,
    status: "offered",
    offeredSlotTime: "10:00",
    offeredAt: new Date(),
    offerExpiresAt: new Date(Date.now() + 3_600_000),
  });
  await open(patient, `/waiting-list/${offer.id}`);
  await open(patient, `/book-event?event=${event.id}`);
  await submit(patient, "Proceed to Consent Form", "/book-event without a time");
  await patient.locator(".radio__input:not([disabled])").first().check();
  await patient.getByRole("button", { name: "Proceed to Consent Form" }).click();
  await patient.waitForURL(/\/book-event\/consent/);
  // Client-side navigation changes the address before the page renders: wait for the page.
  await patient.getByRole("group", { name: "Which PSA test will this be?" }).waitFor();
  await ready(patient, javaScriptEnabled);
  await visit(patient, "/book-event/consent");
  await submit(patient, "Continue to payment", "/book-event/consent sent empty");
  await fillConsent(patient);
  await patient.getByRole("button", { name: "Continue to payment" }).click();
  await patient.waitForURL(/\/checkout\?booking=/);
  await patient.getByRole("heading", { name: "Checkout" }).waitFor();
  await ready(patient, javaScriptEnabled);
  await visit(patient, "/checkout");
  await patient.context().close();

  // A patient changing the time of his confirmed booking: the times, another event's times, a
  // time not chosen, and the old and new time side by side before confirming.
  const product = await insertProduct(db, 2500);
  const booked = await insertEvent(db, product.id, {
    name: `Tour Change Screening ${uniqueId()}`,
    eventDate: londonDay(10),
    paymentRequired: true,
  });
  const another = await insertEvent(db, product.id, {
    name: `Tour Other Screening ${uniqueId()}`,
    eventDate: londonDay(12),
    paymentRequired: true,
  });
  const { patient: mover, jar: moverJar } = await signedInPatient(db);
  const { reference } = await insertBooking(db, {
    eventId: booked.id,
    userId: mover.id,
    pricePence: 2500,
    paymentRequired: true,
    paymentStatus: "paid",
  });
  const changer = await newPage(browser, options);
  await moverJar.into(changer.context());
  watch(changer);
  const changePage = `/my-bookings/${reference}/change`;
  await open(changer, `${changePage}?event=${another.id}`);
  await open(changer, changePage);
  await submit(changer, "Continue", `${changePage} without a time`);
  await changer.locator(".radios--times .radio__input:not([disabled])").first().check();
  await changer.getByRole("button", { name: "Continue", exact: true }).click();
  await changer.getByRole("heading", { name: "Check your change" }).waitFor();
  await ready(changer, javaScriptEnabled);
  await visit(changer, `${changePage}, checking the change`);
  await changer.context().close();

  // The back office, as staff with every role, with an event, a booking and a result to show.
  const { jar } = await signedInStaff(db, ["admin", "coordinator", "clinician"]);
  const attendee = await insertPatient(db, { firstName: "Tobias", lastName: "Tourwright" });
  const attendeeBooking = await insertBooking(db, {
    eventId: event.id,
    userId: attendee.id,
    slotTime: "10:30",
  });
  // Someone on the tour event's waiting list, for the attendee page's list.
  await insertWaitlistEntry(db, {
    eventId: event.id,
    userId: (await insertPatient(db, { firstName: "Walter", lastName: "Waitwell" })).id,
  });
  const eventDate = londonDay(-4);
  const past = await insertPaidEvent(db, { name: `Tour Past Screening ${uniqueId()}`, eventDate });
  const sampled = await insertSampledBooking(db, {
    eventId: past.id,
    userId: (await insertPatient(db)).id,
    eventDate,
  });
  const result = await insertResult(db, sampled.id);
  const staff = await newPage(browser, options);
  await jar.into(staff.context());
  watch(staff);
  for (const path of ADMIN_PAGES)
    await open(
      staff,
      path
        .replace(":eventId", event.id)
        .replace(":resultId", result.id)
        .replace(":bookingId", attendeeBooking.id),
    );
  await open(staff, "/admin/events/new");
  await submit(staff, "Save as a draft", "/admin/events/new sent empty");
  await staff.context().close();
}

/** Waits until the page has started its scripts (when it has any, and they may run). */
async function ready(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await scriptsStarted(page);
  else await page.locator("h1").first().waitFor({ state: "attached" });
}
