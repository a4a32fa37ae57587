import type { Page } from "playwright-core";
import type { Email } from "postal-mime";
import { describe, expect, it } from "vitest";
import { createAccessCode } from "#app/services/access-codes.server";
import { WORKER_JOBS } from "#app/services/booking/reconcile.server";
import {
  insertConfirmedBookings,
  insertFreeEvent,
  londonDay,
  uniqueId,
} from "#tests/support/fixtures";
import { newPatientPage, PATIENT_PASSWORD } from "./patient-support";
import { signedInStaff } from "./staff-support";
import {
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  query,
  serverDatabaseForThisFile,
  waitForMail,
} from "./support";

/**
 * The waiting list of a fully booked event, as people meet it (axe runs on the pages with
 * JavaScript, as it needs it): a signed-out visitor is asked to
 * sign in and comes back; joining, seeing one's place and leaving work by keyboard and without
 * JavaScript; a freed place is offered by e-mail to the first in line (the worker's job, run here
 * against the server's database, as every server runs it), and taking it holds that time; an
 * offer left to lapse moves on to the next person, who is e-mailed.
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

/** A free event of the test's own, five days ahead, with one time (10:00) of two places, both booked. */
async function fullEvent() {
  const event = await insertFreeEvent(server.db, {
    name: `Waiting List Morning ${uniqueId()}`,
    eventDate: londonDay(5),
    startTime: "10:00",
    endTime: "10:30",
    totalSpaces: 2,
    placesPerSlot: 2,
  });
  const booked = await insertConfirmedBookings(server.db, event.id, 2, "10:00");
  return { event, booked };
}

describe("joining refused", () => {
  for (const javaScriptEnabled of [false, true])
    it(`says why where he is, with focus, not at the top of a long page (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async () => {
      const { page, email } = await newPatientPage(browser(), { javaScriptEnabled });
      const { event } = await fullEvent();
      await page.goto(`/event/${event.id}`);
      // Eighty-one on the day, since the page was opened (his date of birth put right elsewhere).
      await query(
        `update profile set date_of_birth = current_date - interval '81 years'
       where user_id = (select id from public.user where email = $1)`,
        [email],
      );
      await page.getByRole("button", { name: "Join the waiting list" }).click();
      const alert = page
        .getByRole("alert")
        .filter({ hasText: "81 or older on the day of this event" });
      await alert.waitFor();
      await expect
        .poll(() => alert.evaluate((element) => element === document.activeElement))
        .toBe(true);
      // Said once, in the alert, not again in the list's own place below it. With scripts the
      // section reads his state again after the refusal ("Joining..." until it has): wait for it.
      const waitingList = page.locator("#waiting-list");
      await expect
        .poll(async () => (await waitingList.textContent()) ?? "")
        .not.toMatch(/Join the waiting list and|Joining\.\.\./);
      const said = (await waitingList.textContent()) ?? "";
      expect(said.split("81 or older on the day of this event").length - 1).toBe(1);
      // Not a dead end: where a man past 80 reads about testing at his age.
      expect(
        await alert.getByRole("link", { name: "PSA testing after 80" }).getAttribute("href"),
      ).toBe("/information-hub/elderly-psa-testing");
      // And a number to ring, for a man who would rather talk to someone.
      expect(await alert.getByRole("link", { name: "01632 960 001" }).getAttribute("href")).toBe(
        "tel:+441632960001",
      );
      // axe runs as a script in the page, so it checks the same refusal with JavaScript on.
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await page.context().close();
    });
});

describe("a man whose age rules him out", () => {
  it("is told why on the booking page, with no order beside it, and where to read and ring", async () => {
    const { page, email } = await newPatientPage(browser());
    await query(
      `update profile set date_of_birth = current_date - interval '39 years'
       where user_id = (select id from public.user where email = $1)`,
      [email],
    );
    const event = await insertFreeEvent(server.db, {
      name: `Age Check Morning ${uniqueId()}`,
      eventDate: londonDay(5),
      startTime: "10:00",
      endTime: "10:30",
    });
    await page.goto(`/book-event?event=${event.id}`);
    const refusal = page.getByRole("alert").filter({ hasText: "Age Restriction Error" });
    expect(await refusal.textContent()).toContain(
      "You will be under 40 on the day of this event. Our screening events are for people aged 40 to 80 on the day.",
    );
    // Under 40, not over 80: no pointer to the page for older men.
    expect(await refusal.getByRole("link", { name: "PSA testing after 80" }).count()).toBe(0);
    expect(await refusal.getByRole("link", { name: "01632 960 001" }).getAttribute("href")).toBe(
      "tel:+441632960001",
    );
    expect(await page.getByText("Your Order").count()).toBe(0);
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it("is told so on the event's page instead of a waiting list button that would refuse him", async () => {
    const { page, email } = await newPatientPage(browser());
    await query(
      `update profile set date_of_birth = current_date - interval '81 years'
       where user_id = (select id from public.user where email = $1)`,
      [email],
    );
    const { event } = await fullEvent();
    await page.goto(`/event/${event.id}`);
    const list = page.getByRole("region", { name: "Waiting list", exact: true });
    expect(await list.textContent()).toContain(
      "You will be 81 or older on the day of this event. Our screening events are for people aged 40 to 80 on the day.",
    );
    expect(await list.getByRole("button", { name: "Join the waiting list" }).count()).toBe(0);
    expect(
      await list.getByRole("link", { name: "PSA testing after 80" }).getAttribute("href"),
    ).toBe("/information-hub/elderly-psa-testing");
    expect(await page.locator("main").textContent()).toContain(
      "People aged 40 to 80 on the day of the event",
    );
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

/** The worker's offer job, once, against the server's database. */
async function runOfferJob() {
  const job = WORKER_JOBS.find((candidate) => candidate.code === "waitlist_offers")!;
  await job.run(server.db, new Date());
}

/** Frees a place as staff cancelling a booking leaves it, straight in the database. */
const cancelBooking = (bookingId: string) =>
  query("update booking set status = 'cancelled', cancelled_by = 'staff' where id = $1", [
    bookingId,
  ]);

async function joinWithKeyboard(page: Page) {
  const join = page.getByRole("button", { name: "Join the waiting list" });
  await join.focus();
  await page.keyboard.press("Enter");
  await page
    .getByText(/on the waiting list\./)
    .first()
    .waitFor();
}

/** The offer e-mail to this address (not the sign-up's). */
const isOfferTo = (mail: Email, address: string) =>
  Boolean(mail.to?.some((to) => to.address === address)) &&
  (mail.subject ?? "").startsWith("A place has come up");

/** The offer page's path from the offer e-mail (the link is built from the configured site address). */
function offerPathIn(text: string): string {
  const match = /\/waiting-list\/[0-9a-f-]{36}/.exec(text);
  if (!match) throw new Error("no offer link in the e-mail");
  return match[0];
}

describe("a fully booked event's waiting list", () => {
  it("of a private event, is reached with its code, which the page asks for though there is nothing to book", async () => {
    const event = await insertFreeEvent(server.db, {
      name: `Waiting List Lodge ${uniqueId()}`,
      category: "freemasons",
      isPublic: false,
      eventDate: londonDay(5),
      startTime: "10:00",
      endTime: "10:30",
      totalSpaces: 1,
      placesPerSlot: 1,
    });
    await insertConfirmedBookings(server.db, event.id, 1, "10:00");
    const code = `LODGE-${uniqueId().toUpperCase()}`;
    await createAccessCode(server.db, { eventId: event.id, code });
    const { page } = await newPatientPage(browser());
    await page.goto(`/event/${event.id}`);
    const form = page.getByRole("region", { name: "This is a private event" });
    expect(await form.textContent()).toContain("join its waiting list");
    await expectNoAxeViolations(page);
    await form.getByLabel("Please enter Access Code").fill(code);
    await form.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(
      (url) => url.pathname === `/event/${event.id}` && url.hash === "#waiting-list",
    );
    await joinWithKeyboard(page);
    expect(
      await page.getByRole("region", { name: "Waiting list", exact: true }).textContent(),
    ).toContain("You are first on the waiting list.");
    await page.context().close();
  });

  it("asks a signed-out visitor to sign in and brings them back to join, by keyboard and without JavaScript", async () => {
    const { event } = await fullEvent();
    // An account to sign in with, made through the site's own sign-up.
    const { page: signedUp, email } = await newPatientPage(browser());
    await signedUp.context().close();

    const page = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto(`/event/${event.id}`);
    const section = page.getByRole("region", { name: "Waiting list", exact: true });
    await section.getByRole("link", { name: "Sign in to join the waiting list" }).click();
    await page.waitForURL(/\/login\?redirectTo=/);
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PATIENT_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(new RegExp(`/event/${event.id}$`));

    // The booking page of a full event says why no time is offered, and where the list is.
    await page.goto(`/book-event?event=${event.id}`);
    expect(await page.locator("main").textContent()).toContain(
      "Every time at this event is taken.",
    );
    await page.getByRole("link", { name: "Join the waiting list" }).click();
    await page.waitForURL(new RegExp(`/event/${event.id}#waiting-list$`));

    await joinWithKeyboard(page);
    expect(await section.textContent()).toContain("You are first on the waiting list.");

    // A second person, with JavaScript, is number 2.
    const { page: second } = await newPatientPage(browser());
    await second.goto(`/event/${event.id}`);
    await joinWithKeyboard(second);
    expect(
      await second.getByRole("region", { name: "Waiting list", exact: true }).textContent(),
    ).toContain("You are number 2 on the waiting list.");
    // The button he pressed has gone: the answer has the focus, so it is read out (found by an
    // accessibility review).
    const focused = (on: Page) =>
      on.evaluate(() =>
        (document.activeElement as HTMLElement | null)?.innerText.replace(/\s+/g, " "),
      );
    await expect
      .poll(() => focused(second))
      .toBe("You have joined the waiting list You are number 2 on the waiting list.");

    // The first leaves (without JavaScript); the second moves up.
    await section.getByRole("button", { name: "Leave the waiting list" }).click();
    await section.getByRole("button", { name: "Join the waiting list" }).waitFor();
    await expect
      .poll(() => focused(page))
      .toBe("You have left the waiting list We will not e-mail you about places at this event.");
    await second.reload();
    expect(
      await second.getByRole("region", { name: "Waiting list", exact: true }).textContent(),
    ).toContain("You are first on the waiting list.");
    await page.context().close();
    await second.context().close();
  });

  it("offers a freed place by e-mail to the first in line, moves a lapsed offer on, and taking it holds that time", async () => {
    const { event, booked } = await fullEvent();
    // The first with JavaScript (axe checks each state), the second without.
    const { page: first, email: firstEmail } = await newPatientPage(browser());
    const { page: second, email: secondEmail } = await newPatientPage(browser(), {
      javaScriptEnabled: false,
    });
    await first.goto(`/event/${event.id}`);
    await expectNoAxeViolations(first);
    await joinWithKeyboard(first);
    await expectNoAxeViolations(first);
    await second.goto(`/event/${event.id}`);
    await joinWithKeyboard(second);
    // My bookings says where he stands, as the event's page does (found by the patient review).
    await second.goto("/my-bookings");
    const secondsLists = second.getByRole("region", { name: "Waiting lists" });
    expect(await secondsLists.textContent()).toContain(event.name);
    expect(await secondsLists.textContent()).toContain("You are number 2 on the waiting list.");
    await second.goto(`/event/${event.id}`);

    await cancelBooking(booked[0]!.id);
    await runOfferJob();
    const offer = await waitForMail((mail) => isOfferTo(mail, firstEmail));
    expect(offer.subject).toContain(event.name);
    expect(offer.text).toContain("10:00");
    const firstOfferPath = offerPathIn(offer.text ?? "");

    // The place stays taken for everyone else while the offer lives.
    await second.reload();
    expect(
      await second.getByRole("region", { name: "Waiting list", exact: true }).textContent(),
    ).toContain("You are first on the waiting list.");
    await first.goto(`/event/${event.id}`);
    await first.getByRole("link", { name: "Take the place held for you" }).waitFor();
    await expectNoAxeViolations(first);
    // The booking page, reached some other way, shows the held place rather than "all taken".
    await first.goto(`/book-event?event=${event.id}`);
    await first.getByRole("link", { name: "Take the place held for you" }).click();
    await first.waitForURL((url) => url.pathname === new URL(firstOfferPath, url).pathname);
    await first.goto(`/book-event?event=${event.id}`);
    expect(await first.locator("main").textContent()).not.toContain(
      "Every time at this event is taken",
    );
    await expectNoAxeViolations(first);
    await first.goto("/my-bookings");
    await first
      .getByRole("region", { name: "Waiting lists" })
      .getByRole("link", { name: "Take the place held for you" })
      .waitFor();
    await expectNoAxeViolations(first);
    await first.goto(firstOfferPath);
    await first.getByRole("heading", { name: "A place is held for you" }).waitFor();
    // What taking it leads to, before he takes it (found by the patient review).
    const offerPage = (await first.locator("main").textContent()) ?? "";
    expect(offerPage).toContain("PriceFree");
    expect(offerPage).toContain("once you take it, you have 15 minutes for that");
    await expectNoAxeViolations(first);

    // The coordinator sees the list on the attendee page.
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const staff = await newPage(browser());
    await jar.into(staff.context());
    await staff.goto(`/admin/events/${event.id}/attendees`);
    const list = staff.getByRole("region", { name: "Waiting list", exact: true });
    await list.waitFor();
    const rows = list.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain(firstEmail);
    expect(await rows.nth(0).textContent()).toContain("Offered 10:00");
    expect(await rows.nth(1).textContent()).toContain(secondEmail);
    await expectNoAxeViolations(staff);
    await staff.context().close();

    // Left to lapse: the next person is offered it.
    await query(
      "update waitlist_entry set offer_expires_at = now() - interval '1 minute' where event_id = $1 and status = 'offered'",
      [event.id],
    );
    await runOfferJob();
    const secondOffer = await waitForMail((mail) => isOfferTo(mail, secondEmail));
    await waitForMail(
      (mail) =>
        Boolean(mail.to?.some((to) => to.address === firstEmail)) &&
        (mail.subject ?? "").includes("has gone"),
    );
    await first.goto(firstOfferPath);
    await first.getByRole("heading", { name: "This offer has ended" }).waitFor();
    await expectNoAxeViolations(first);
    // Another person's offer is not there for them.
    const secondOfferPath = offerPathIn(secondOffer.text ?? "");
    expect((await first.goto(secondOfferPath))?.status()).toBe(404);

    await second.goto(secondOfferPath);
    await second.getByRole("heading", { name: "A place is held for you" }).waitFor();
    await second.getByRole("button", { name: "Take this place" }).click();
    await second.waitForURL(/\/book-event\/consent\?booking=MHAT-/);
    const reference = new URL(second.url()).searchParams.get("booking")!;
    const [hold] = await query<{ slot_time: string; status: string }>(
      "select slot_time, status from booking where reference = $1",
      [reference],
    );
    expect(hold).toEqual({ slot_time: "10:00", status: "held" });
    await first.context().close();
    await second.context().close();
  });
});
