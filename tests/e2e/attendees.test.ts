import { describe, expect, it } from "vitest";
import {
  insertBooking,
  insertConfirmedBookings,
  insertConsentFor,
} from "#tests/support/fixtures/bookings";
import {
  insertEvent,
  insertFreeEvent,
  insertProduct,
  londonDay,
} from "#tests/support/fixtures/events";
import { insertPatient, uniqueId } from "#tests/support/fixtures/people";
import { validNhsNumber } from "#tests/support/personal-data";
import {
  browserForThisFile,
  expectNoAxeViolations,
  newPage,
  query,
  serverDatabaseForThisFile,
} from "./support";
import { signedInStaff } from "./staff-support";

/**
 * Issue 15, item 9: the attendees page is a list of bookings, each with the person's name as its
 * heading and his details as a description list; no explicit table roles (the Nu checker's 16
 * errors). A coordinator at 768 px searches, checks in and records a sample, with and without
 * JavaScript.
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

async function eventToday(labName: string | null = null) {
  const event = await insertFreeEvent(server.db, {
    name: `Check-in Clinic ${uniqueId()}`,
    eventDate: londonDay(0),
    labName,
  });
  const first = await insertPatient(server.db, { firstName: "Horace", lastName: "Wetherby" });
  const second = await insertPatient(server.db, { firstName: "Cedric", lastName: "Allingham" });
  const horace = await insertBooking(server.db, {
    eventId: event.id,
    userId: first.id,
    slotTime: "10:20",
  });
  const cedric = await insertBooking(server.db, {
    eventId: event.id,
    userId: second.id,
    slotTime: "10:00",
  });
  // Both consented while booking: a sample needs it.
  for (const place of [horace, cedric]) await insertConsentFor(server.db, place, event.eventDate);
  return { event, horace, cedric };
}

describe("finding a booking by its reference from the dashboard (found by the event-day review)", () => {
  it("opens its event's list at his card, and says so beside the field when none has it", async () => {
    const { event, horace } = await eventToday();
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const page = await newPage(browser(), { viewport: { width: 768, height: 1024 } });
    await jar.into(page.context());
    await page.goto("/admin");
    // As a man reads it out on the phone: lower case, spaces for dashes.
    const spoken = horace.reference.toLowerCase().replace(/-/g, " ");
    await page.getByLabel("Find a booking by its reference").fill(spoken);
    await page.getByRole("button", { name: "Find the booking" }).click();
    await page.waitForURL((url) => url.pathname === `/admin/events/${event.id}/attendees`);
    expect(new URL(page.url()).searchParams.get("q")).toBe(horace.reference);
    expect(await page.locator(`#booking-${horace.reference}`).count()).toBe(1);

    await page.goto("/admin");
    await page.getByLabel("Find a booking by its reference").fill("MHAT-2222-3333");
    await page.getByRole("button", { name: "Find the booking" }).click();
    const message =
      "No booking with the reference MHAT-2222-3333 is on an event's list that you can open. Check it against his e-mail.";
    await page.locator("#field-reference-error").getByText(message).waitFor();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    expect(await summary.getByRole("link").allTextContents()).toEqual([message]);
    expect(await page.getByLabel("Find a booking by its reference").inputValue()).toBe(
      "MHAT-2222-3333",
    );
    await expectNoAxeViolations(page);
    // What is not a reference is not said back: a link cannot put its words into the page.
    await page.goto(`/admin/find-booking?reference=${encodeURIComponent("Call 0800 now!")}`);
    expect(await page.locator("#field-reference-error").textContent()).toContain(
      "That is not a booking reference.",
    );
    expect(await page.locator(".error-summary").textContent()).not.toContain("Call 0800");
    await page.context().close();
  });
});

describe.each([
  { javaScript: true, name: "with JavaScript" },
  { javaScript: false, name: "without JavaScript" },
])("the attendees page at 768 px, $name", ({ javaScript }) => {
  it("lists each booking under its name, and search, check-in and the sample id work", async () => {
    const { event, horace } = await eventToday();
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const page = await newPage(browser(), {
      javaScriptEnabled: javaScript,
      viewport: { width: 768, height: 1024 },
    });
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}/attendees`);

    // A list in time order, one heading per person with his time and reference; no table roles.
    const list = page.getByRole("list", { name: "Bookings in time-slot order" });
    expect(await list.getByRole("heading", { level: 3 }).allTextContents()).toEqual([
      expect.stringMatching(/^10:00 Cedric Allingham MHAT-\w{4}-\w{4}$/),
      `10:20 Horace Wetherby ${horace.reference}`,
    ]);
    expect(
      await page.locator("[role=table], [role=row], [role=cell], [role=rowgroup]").count(),
    ).toBe(0);
    // No laboratory set for this event: no lab CSV yet, and why (found by the event-day review).
    expect(await page.getByRole("link", { name: "Download the lab CSV" }).count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain(
      "No laboratory is set for this event, so there is no lab CSV yet.",
    );
    const horaceCard = page.locator(`#booking-${horace.reference}`);
    expect(await horaceCard.locator("dt").allTextContents()).toEqual([
      "Date of birth",
      "NHS number",
      "Consent",
      "Payment",
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      768,
    );
    // axe needs the page's scripts; the markup is the same either way.
    if (javaScript) await expectNoAxeViolations(page);

    await page.getByLabel("Search by name or booking reference").fill(horace.reference);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(() => list.getByRole("heading", { level: 3 }).count()).toBe(1);
    expect(await list.getByRole("heading", { level: 3 }).textContent()).toContain(
      "Horace Wetherby",
    );

    await page.getByRole("button", { name: "Arrived for Horace Wetherby" }).click();
    await expect.poll(() => horaceCard.textContent()).toMatch(/Arrived at \d{2}:\d{2}/);
    // The confirmation in his card has the focus, so it is read out and the next Tab goes on
    // from his card.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const focused = document.activeElement;
          return focused?.matches(".checkin-done") ? focused.closest("li")?.id : null;
        }),
      )
      .toBe(`booking-${horace.reference}`);
    const sampleId = `PSA-${uniqueId().toUpperCase()}`;
    await page.getByLabel("Sample id for Horace Wetherby").fill(sampleId);
    await page.getByRole("button", { name: "Record sample for Horace Wetherby" }).click();
    await expect.poll(() => horaceCard.textContent()).toContain(`sample id ${sampleId}`);
    expect(await horaceCard.textContent()).toContain("Sample recorded.");
    // Still only Horace: the search was kept.
    expect(await list.getByRole("heading", { level: 3 }).count()).toBe(1);
    const afterSample = page.url();

    // Undone; then that address again (Back, or a reload): no confirmation that is no longer so.
    await page.getByRole("button", { name: "Undo sample for Horace Wetherby" }).click();
    await expect.poll(() => horaceCard.textContent()).toContain("Undone. Now: arrived.");
    const afterUndo = page.url();
    await page.goto(afterSample);
    expect(await horaceCard.textContent()).toMatch(/Arrived at \d{2}:\d{2}/);
    expect(await horaceCard.textContent()).not.toContain("Sample recorded.");
    await page.getByLabel("Sample id for Horace Wetherby").fill(sampleId);
    await page.getByRole("button", { name: "Record sample for Horace Wetherby" }).click();
    await expect.poll(() => horaceCard.textContent()).toContain(`sample id ${sampleId}`);
    // Recorded again, the undo's address no longer says "Undone. Now: arrived.".
    await page.goto(afterUndo);
    expect(await horaceCard.textContent()).toContain(`sample id ${sampleId}`);
    expect(await horaceCard.textContent()).not.toContain("Undone");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      768,
    );
    if (javaScript) await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("event staff at the door", () => {
  it("find today's event on the dashboard and check a man in, with no way to the event's settings or the lab's file", async () => {
    const { event, horace } = await eventToday();
    const { jar } = await signedInStaff(server.db, ["event_staff"]);
    const page = await newPage(browser(), {
      javaScriptEnabled: false,
      viewport: { width: 768, height: 1024 },
    });
    await jar.into(page.context());
    await page.goto("/admin");
    const today = page.getByRole("region", { name: "Today" });
    await today.getByRole("link", { name: `Check in at ${event.name}` }).click();
    await page.waitForURL((url) => url.pathname === `/admin/events/${event.id}/attendees`);

    await page.getByRole("button", { name: "Arrived for Horace Wetherby" }).click();
    await expect
      .poll(() => page.locator(`#booking-${horace.reference}`).textContent())
      .toMatch(/Arrived at \d{2}:\d{2}/);
    expect(await page.getByRole("link", { name: "Download the lab CSV" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Back to the event" }).count()).toBe(0);
    await page.getByRole("link", { name: "Back to today's events" }).click();
    await page.waitForURL((url) => url.pathname === "/admin");
    // The navigation offers nothing they may not open.
    const nav = page.getByRole("navigation", { name: "Back office" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Dashboard"]);
    // Another day's list, past or to come, is not theirs to read.
    for (const day of [-1, 1]) {
      const other = await insertFreeEvent(server.db, {
        name: `Other Day Clinic ${uniqueId()}`,
        eventDate: londonDay(day),
      });
      const response = await page.goto(`/admin/events/${other.id}/attendees`);
      expect(response?.status(), `day ${day}`).toBe(403);
      expect((await page.goto(`/admin/events/${other.id}/attendees/print`))?.status()).toBe(403);
    }
    await page.context().close();
  });
});

describe.each([
  { javaScript: true, name: "with JavaScript" },
  { javaScript: false, name: "without JavaScript" },
])("correcting a man's details at the door, $name", ({ javaScript }) => {
  it("refuses a wrong NHS number beside the field, keeps what was typed, then saves", async () => {
    const { event, horace, cedric } = await eventToday();
    const { jar } = await signedInStaff(server.db, ["event_staff"]);
    const page = await newPage(browser(), {
      javaScriptEnabled: javaScript,
      viewport: { width: 768, height: 1024 },
    });
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}/attendees`);
    await page
      .getByRole("link", { name: "Correct date of birth or NHS number for Horace Wetherby" })
      .click();
    await page.getByRole("heading", { level: 1, name: /Horace Wetherby/ }).waitFor();
    // His date of birth as recorded (insertPatient's 1 March 1966), ready to correct.
    expect(await page.getByLabel("Year").inputValue()).toBe("1966");

    // A digit misread: the check digit fails.
    await page.getByLabel("Year").fill("1965");
    await page.getByLabel(/NHS number/).fill("943 476 5918");
    await page.getByRole("button", { name: /^Save/ }).click();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await summary.waitFor();
    const message =
      "Enter a valid NHS number. Check the 10 digits on his NHS letter, prescription or the NHS App.";
    expect(await summary.getByRole("link").allTextContents()).toEqual([message]);
    expect(await page.locator("#field-nhsNumber-error").textContent()).toContain(message);
    expect(await page.getByLabel(/NHS number/).inputValue()).toBe("943 476 5918");
    expect(await page.getByLabel("Year").inputValue()).toBe("1965");
    if (javaScript) await expectNoAxeViolations(page);

    // Cedric's number, booked at the same event, as if copied from the card above.
    const cedrics = validNhsNumber();
    await query("update profile set nhs_number = $2 where user_id = $1", [cedric.userId, cedrics]);
    await page.getByLabel(/NHS number/).fill(cedrics);
    await page.getByRole("button", { name: /^Save/ }).click();
    await page
      .locator("#field-nhsNumber-error")
      .getByText("That NHS number is recorded for another man booked at this event.")
      .waitFor();
    expect(await page.getByLabel(/NHS number/).inputValue()).toBe(cedrics);

    const his = validNhsNumber();
    const printed = `${his.slice(0, 3)} ${his.slice(3, 6)} ${his.slice(6)}`;
    await page.getByLabel(/NHS number/).fill(printed);
    // A slip of the year that makes him about 30: asked to check it, with a box to say it is right.
    await page.getByLabel("Year").fill("1995");
    await page.getByRole("button", { name: /^Save/ }).click();
    await page
      .locator("#field-dateOfBirth-error")
      .getByText(/That date of birth makes him 3\d on the day of this event/)
      .waitFor();
    expect(await page.getByLabel("The date of birth is right").isChecked()).toBe(false);
    expect(await page.getByLabel(/NHS number/).inputValue()).toBe(printed);
    if (javaScript) await expectNoAxeViolations(page);
    // Ticked for 1995, the box does not pass another year typed afterwards: asked again.
    await page.getByLabel("The date of birth is right").check();
    await page.getByLabel("Year").fill("1996");
    await page.getByRole("button", { name: /^Save/ }).click();
    await page
      .locator("#field-dateOfBirth-error")
      .getByText(/That date of birth makes him (29|30) on the day of this event/)
      .waitFor();
    await page.getByLabel("Year").fill("1965");
    await page.getByRole("button", { name: /^Save/ }).click();
    await page.waitForURL((url) => url.pathname === `/admin/events/${event.id}/attendees`);
    const card = page.locator(`#booking-${horace.reference}`);
    expect(await card.textContent()).toContain(printed);
    expect(await card.textContent()).toContain("01/03/1965");
    // The confirmation, in his card, has the focus.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe("✓ Date of birth and NHS number saved.");
    // Neither value went into an address.
    expect(page.url()).not.toMatch(new RegExp(`${his}|${his.slice(0, 3)}%20|1965`));
    const [saved] = await query<{ nhs_number: string; date_of_birth: string }>(
      "select nhs_number, to_char(date_of_birth, 'YYYY-MM-DD') as date_of_birth from profile where user_id = $1",
      [horace.userId],
    );
    expect(saved).toEqual({ nhs_number: his, date_of_birth: "1965-03-01" });
    await page.context().close();
  });
});

describe("a laboratory that needs an NHS number", () => {
  it("shows who has none, and takes his sample once it is added at the door", async () => {
    // insertPatient records no NHS number; the event's laboratory (ESNEFT) needs one.
    const { event, horace } = await eventToday("ESNEFT");
    const { jar } = await signedInStaff(server.db, ["event_staff"]);
    const page = await newPage(browser(), { viewport: { width: 768, height: 1024 } });
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}/attendees`);
    const card = page.locator(`#booking-${horace.reference}`);
    expect(await card.textContent()).toContain(
      "Not recorded, and this event's laboratory needs it before a sample is recorded",
    );
    // Above the list, everyone still lacking one, so that he can be asked before his turn.
    const needed = page.getByRole("region", { name: "NHS numbers needed" });
    expect(await needed.textContent()).toContain(
      "This event's laboratory (ESNEFT) rejects a sample without an NHS number, and 2 men booked have none recorded.",
    );
    expect(await needed.getByRole("link").allTextContents()).toEqual([
      "10:00 Cedric Allingham",
      "10:20 Horace Wetherby",
    ]);

    const sampleId = `PSA-${uniqueId().toUpperCase()}`;
    await page.getByLabel("Sample id for Horace Wetherby").fill(sampleId);
    await page.getByRole("button", { name: "Record sample for Horace Wetherby" }).click();
    const message =
      "This event's laboratory needs his NHS number, and none is recorded for him. Ask him for it and add it with 'Correct date of birth or NHS number', then record the sample.";
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await summary.waitFor();
    // The summary says whose card it is about (found by the event-day review); the card, the rest.
    expect(await summary.getByRole("link").allTextContents()).toEqual([
      `Horace Wetherby (10:20): ${message}`,
    ]);
    expect(await card.textContent()).toContain(message);
    expect(await page.getByLabel("Sample id for Horace Wetherby").inputValue()).toBe(sampleId);
    await expectNoAxeViolations(page);

    await page
      .getByRole("link", { name: "Correct date of birth or NHS number for Horace Wetherby" })
      .click();
    await page.getByLabel(/NHS number/).fill(validNhsNumber());
    await page.getByRole("button", { name: /^Save/ }).click();
    await page.waitForURL((url) => url.pathname === `/admin/events/${event.id}/attendees`);
    expect(await needed.getByRole("link").allTextContents()).toEqual(["10:00 Cedric Allingham"]);
    expect(await needed.textContent()).toContain("1 man booked has none recorded.");
    await page.getByLabel("Sample id for Horace Wetherby").fill(sampleId);
    await page.getByRole("button", { name: "Record sample for Horace Wetherby" }).click();
    await expect.poll(() => card.textContent()).toContain(`sample id ${sampleId}`);

    // Corrected again once his sample is recorded: the lab's file may hold the old details, and
    // event staff cannot send it, so they are told who can.
    await page
      .getByRole("link", { name: "Correct date of birth or NHS number for Horace Wetherby" })
      .click();
    await page.getByLabel("Year").fill("1965");
    await page.getByRole("button", { name: /^Save/ }).click();
    await page.waitForURL((url) => url.pathname === `/admin/events/${event.id}/attendees`);
    expect(await card.textContent()).toContain(
      "tell the event's coordinator, who sends the lab its file, that his details changed.",
    );
    await page.context().close();
  });

  it("is told on the event's page, after its laboratory changed, how many men lack one", async () => {
    // Booked while the samples went elsewhere; then the coordinator moved them to ESNEFT.
    const event = await insertFreeEvent(server.db, {
      name: `Lab Change Clinic ${uniqueId()}`,
      eventDate: londonDay(3),
      labName: "ESNEFT",
    });
    const man = await insertPatient(server.db, { firstName: "Ignatius", lastName: "Pemberton" });
    await insertBooking(server.db, { eventId: event.id, userId: man.id, slotTime: "10:30" });
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const page = await newPage(browser(), { viewport: { width: 768, height: 1024 } });
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}`);
    const notice = page.locator("main .notice-panel").filter({ hasText: "NHS number" });
    expect(await notice.textContent()).toContain(
      "1 man booked has no NHS number recorded, and this event's laboratory needs one before a sample is recorded. Ask him for it before the day: the attendee list names him.",
    );
    // On the day itself, at the door (found by the event-day review).
    await query("update event set event_date = $2, end_time = '23:59' where id = $1", [
      event.id,
      londonDay(0),
    ]);
    await page.reload();
    expect(await notice.textContent()).toContain("Ask him for it at the door: the attendee list");
    await expectNoAxeViolations(page);
    await notice.getByRole("link", { name: "attendee list" }).click();
    const needed = page.getByRole("region", { name: "NHS numbers needed" });
    expect(await needed.getByRole("link").allTextContents()).toEqual(["10:30 Ignatius Pemberton"]);
    await page.context().close();
  });
});

describe.each([
  { javaScript: true, name: "with JavaScript" },
  { javaScript: false, name: "without JavaScript" },
])("closing time, $name", ({ javaScript }) => {
  it("marks everyone still waiting as a no-show in one go, and says so", async () => {
    // Yesterday's event: it has ended whatever the time of day the test runs.
    const event = await insertFreeEvent(server.db, {
      name: `Closing Clinic ${uniqueId()}`,
      eventDate: londonDay(-1),
    });
    const book = async (firstName: string, slotTime: string, arrived: boolean) =>
      insertBooking(server.db, {
        eventId: event.id,
        userId: (await insertPatient(server.db, { firstName, lastName: "Closeby" })).id,
        slotTime,
        ...(arrived ? { arrivedAt: new Date() } : {}),
      });
    const came = await book("Ambrose", "10:00", true);
    const first = await book("Basil", "10:10", false);
    const second = await book("Clement", "10:20", false);
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const page = await newPage(browser(), {
      javaScriptEnabled: javaScript,
      viewport: { width: 768, height: 1024 },
    });
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}/attendees`);
    const closing = page.getByRole("region", { name: "Closing time" });
    expect(await closing.textContent()).toContain("2 confirmed bookings are still waiting.");
    // Ambrose came, but no sample is recorded for him: listed apart, with a way to his card.
    expect(await closing.textContent()).toContain(
      "1 man arrived but has no sample recorded. Record his sample, or, if he left without one, mark him as a no-show: until then his results page says that a result is coming.",
    );
    expect(
      await closing.getByRole("link", { name: "10:00 Ambrose Closeby" }).getAttribute("href"),
    ).toBe(`/admin/events/${event.id}/attendees#booking-${came.reference}`);
    // None of them consented: no sample form, and what to do instead.
    expect(await page.getByLabel("Sample id for Basil Closeby").count()).toBe(0);
    const basil = await page.locator(`#booking-${first.reference}`).textContent();
    expect(basil).toContain("No consent is recorded, so no sample can be taken yet.");
    // Yesterday's test: no consent link to send, so none is suggested.
    expect(basil).not.toContain("E-mail him the consent form");
    if (javaScript) await expectNoAxeViolations(page);

    // Two steps: the first only shows whom it would mark.
    await closing.getByText("Mark the 2 still waiting as no-shows").click();
    expect(await closing.locator("details").getByRole("listitem").allTextContents()).toEqual([
      "10:10 Basil Closeby",
      "10:20 Clement Closeby",
    ]);
    if (javaScript) await expectNoAxeViolations(page);
    await closing.getByRole("button", { name: "Yes, mark these 2 as no-shows" }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe("✓ Everyone who was still waiting is now marked as a no-show.");
    for (const row of [first, second])
      expect(await page.locator(`#booking-${row.reference}`).textContent()).toContain("No-show");
    expect(await page.locator(`#booking-${came.reference}`).textContent()).toContain("Arrived");
    expect(await page.getByRole("list", { name: "Check-in so far" }).textContent()).toContain(
      "2 no-shows",
    );
    // Nobody left waiting: nothing to press again; Ambrose is still to be settled.
    expect(await closing.textContent()).not.toContain("still waiting");
    expect(await closing.getByRole("button").count()).toBe(0);
    expect(await closing.textContent()).toContain("1 man arrived but has no sample recorded.");
    if (javaScript) await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe.each([
  { javaScript: true, name: "with JavaScript" },
  { javaScript: false, name: "without JavaScript" },
])("a coordinator cancelling a man's booking when he phones, $name", ({ javaScript }) => {
  it("asks what he gets back, says so beside the choice, then cancels and tells him", async () => {
    // Tomorrow: too late for a refund by the policy, so the coordinator chooses.
    const event = await insertFreeEvent(server.db, {
      name: `Phone Cancel Clinic ${uniqueId()}`,
      eventDate: londonDay(1),
    });
    const man = await insertPatient(server.db, { firstName: "Ambrose", lastName: "Kettering" });
    const place = await insertBooking(server.db, {
      eventId: event.id,
      userId: man.id,
      slotTime: "10:40",
      paymentRequired: true,
      pricePence: 2500,
      paymentStatus: "paid",
    });
    const { staff, jar } = await signedInStaff(server.db, ["coordinator"]);
    const page = await newPage(browser(), {
      javaScriptEnabled: javaScript,
      viewport: { width: 768, height: 1024 },
    });
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}/attendees`);
    await page.getByRole("link", { name: "Cancel this booking for Ambrose Kettering" }).click();
    await page.getByRole("heading", { level: 1, name: /Ambrose Kettering/ }).waitFor();
    expect(await page.locator("main").textContent()).toContain(`Booking ${place.reference}`);

    // No choice made: the message beside the choice and in the summary; nothing cancelled.
    await page.getByRole("button", { name: "Cancel Ambrose Kettering's booking" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await summary.waitFor();
    expect(await summary.getByRole("link").allTextContents()).toEqual(["Choose what he gets back"]);
    const choice = page.getByRole("group", { name: "What he gets back" });
    expect(await choice.textContent()).toContain("Choose what he gets back");
    if (javaScript) await expectNoAxeViolations(page);
    const [still] = await query<{ status: string }>("select status from booking where id = $1", [
      place.id,
    ]);
    expect(still!.status).toBe("confirmed");

    await choice.getByLabel("Nothing, as the cancellation policy says").check();
    await page.getByRole("button", { name: "Cancel Ambrose Kettering's booking" }).click();
    await page.waitForURL((url) => url.pathname === `/admin/events/${event.id}/attendees`);
    const notice = page.getByRole("status").filter({ hasText: place.reference });
    expect(await notice.textContent()).toContain(
      `Ambrose Kettering's booking ${place.reference} is cancelled, and he has been e-mailed. Nothing is paid back.`,
    );
    const cancelledTable = page.getByRole("region", { name: "Cancelled bookings" });
    expect(await cancelledTable.textContent()).toContain("Ambrose Kettering");
    expect(
      await page.getByRole("link", { name: "Cancel this booking for Ambrose Kettering" }).count(),
    ).toBe(0);
    if (javaScript) await expectNoAxeViolations(page);

    // Where his money stands comes from the booking, not from the address.
    const noticeAt = async (address: string) => {
      await page.goto(address);
      return page.getByRole("status").filter({ hasText: place.reference }).textContent();
    };
    const listAddress = `/admin/events/${event.id}/attendees?done=cancelled&ref=${place.reference}`;
    expect(await noticeAt(`${listAddress}&refund=made`)).toContain("Nothing is paid back.");
    await query("update booking set refund_owed = true where id = $1", [place.id]);
    expect(await noticeAt(listAddress)).toContain(
      "His refund could not be made just now: it is tried again by itself",
    );
    await query(
      "update booking set refund_owed = false, payment_status = 'refunded' where id = $1",
      [place.id],
    );
    expect(await noticeAt(listAddress)).toContain("His refund has gone to PayPal.");
    await query("update booking set refund_owed = false, payment_status = 'paid' where id = $1", [
      place.id,
    ]);

    const [row] = await query<{ status: string; cancelled_by: string; refund_owed: boolean }>(
      "select status, cancelled_by, refund_owed from booking where id = $1",
      [place.id],
    );
    expect(row).toEqual({ status: "cancelled", cancelled_by: "staff", refund_owed: false });
    const mails = await query<{ text: string }>(
      "select text from outbox_email where \"to\" = $1 and subject like '%is cancelled'",
      [man.email],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("as you asked us to");
    const [audit] = await query<{ count: number }>(
      "select count(*)::int as count from audit_log where action = 'booking.cancel' and actor_email = $1",
      [staff.email],
    );
    expect(audit!.count).toBe(1);
    await page.context().close();
  });

  it("asks again, choosing nothing for him, when his full refund went while the page was open", async () => {
    // Twenty days ahead: everything he paid comes back, so the page offers no choice.
    const event = await insertFreeEvent(server.db, {
      name: `Phone Cancel Late Clinic ${uniqueId()}`,
      eventDate: londonDay(20),
    });
    const man = await insertPatient(server.db, { firstName: "Leopold", lastName: "Ashdown" });
    const place = await insertBooking(server.db, {
      eventId: event.id,
      userId: man.id,
      slotTime: "10:40",
      paymentRequired: true,
      pricePence: 2500,
      paymentStatus: "paid",
    });
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const page = await newPage(browser(), { javaScriptEnabled: javaScript });
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}/attendees/${place.id}/cancel`);
    expect(await page.locator("main").textContent()).toContain("He gets back everything he paid");

    // The event moves to tomorrow while the page is open: the policy now gives nothing back.
    await query("update event set event_date = $1 where id = $2", [londonDay(1), event.id]);
    const cancel = page.getByRole("button", { name: "Cancel Leopold Ashdown's booking" });
    await cancel.click();
    const choice = page.getByRole("group", { name: "What he gets back" });
    await choice.waitFor();
    expect(await choice.getByRole("radio", { checked: true }).count()).toBe(0);

    // Pressed again without reading the choice: asked to choose, and nothing is cancelled.
    await cancel.click();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await summary.getByRole("link", { name: "Choose what he gets back" }).waitFor();
    const [row] = await query<{ status: string }>("select status from booking where id = $1", [
      place.id,
    ]);
    expect(row!.status).toBe("confirmed");
    await page.context().close();
  });

  it("says where his booking is when it moved to another event while the page was open", async () => {
    const event = await insertFreeEvent(server.db, {
      name: `Phone Cancel Moved Clinic ${uniqueId()}`,
      eventDate: londonDay(20),
    });
    const later = await insertFreeEvent(server.db, {
      name: `Phone Cancel Later Clinic ${uniqueId()}`,
      eventDate: londonDay(27),
    });
    const man = await insertPatient(server.db, { firstName: "Barnaby", lastName: "Thistlewood" });
    const place = await insertBooking(server.db, {
      eventId: event.id,
      userId: man.id,
      slotTime: "10:40",
    });
    const { jar } = await signedInStaff(server.db, ["coordinator"]);
    const page = await newPage(browser(), { javaScriptEnabled: javaScript });
    await jar.into(page.context());
    await page.goto(`/admin/events/${event.id}/attendees/${place.id}/cancel`);

    // He moves it to the later event himself before the coordinator presses the button.
    await query("update booking set event_id = $1, slot_time = '11:20' where id = $2", [
      later.id,
      place.id,
    ]);
    await page.getByRole("button", { name: "Cancel Barnaby Thistlewood's booking" }).click();
    const notice = page.locator(".notice-panel");
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      new RegExp(
        `^Booking ${place.reference} is no longer at this event: it is at ${later.name}, .+, at 11:20\\. Nothing has been changed here\\.$`,
      ),
    );
    if (javaScript) await expectNoAxeViolations(page);
    const [row] = await query<{ status: string }>("select status from booking where id = $1", [
      place.id,
    ]);
    expect(row!.status).toBe("confirmed");

    await page.getByRole("link", { name: "Cancel it at that event" }).click();
    await page.getByRole("heading", { level: 1, name: /Barnaby Thistlewood/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(
      `/admin/events/${later.id}/attendees/${place.id}/cancel`,
    );

    // The move page of the first event says the same, and leads to the move page there.
    await page.goto(`/admin/events/${event.id}/attendees/${place.id}/move`);
    await page.getByRole("link", { name: "Move it from that event" }).click();
    await page.getByRole("heading", { level: 1, name: /Barnaby Thistlewood/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(
      `/admin/events/${later.id}/attendees/${place.id}/move`,
    );
    await page.context().close();
  });
});

describe.each([
  { javaScript: true, name: "with JavaScript" },
  { javaScript: false, name: "without JavaScript" },
])(
  "a coordinator moving a man's booking to another time when he phones, $name",
  ({ javaScript }) => {
    it("offers only the free times, asks for one, then moves him and tells him", async () => {
      // Tomorrow, 10:00 to 12:00 in 30-minute appointments of 2 places; 11:00 is full.
      const event = await insertFreeEvent(server.db, {
        name: `Phone Move Clinic ${uniqueId()}`,
        eventDate: londonDay(1),
      });
      await insertConfirmedBookings(server.db, event.id, 2, "11:00");
      const man = await insertPatient(server.db, {
        firstName: "Cuthbert",
        lastName: "Ravensworth",
      });
      const place = await insertBooking(server.db, {
        eventId: event.id,
        userId: man.id,
        slotTime: "10:00",
      });
      const { staff, jar } = await signedInStaff(server.db, ["coordinator"]);
      const page = await newPage(browser(), {
        javaScriptEnabled: javaScript,
        viewport: { width: 768, height: 1024 },
      });
      await jar.into(page.context());
      await page.goto(`/admin/events/${event.id}/attendees`);
      await page
        .getByRole("link", { name: "Move to another time for Cuthbert Ravensworth" })
        .click();
      await page.getByRole("heading", { level: 1, name: /Cuthbert Ravensworth/ }).waitFor();
      expect(await page.locator("main").textContent()).toContain(`Booking ${place.reference}`);
      const times = page.getByRole("group", { name: "His new time at this event" });
      // Every time is shown; only the free ones ahead can be chosen.
      expect(
        await times
          .getByRole("radio", { disabled: false })
          .evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value)),
      ).toEqual(["10:30", "11:30"]);
      expect(await times.textContent()).toContain("10:00 (his time now)");
      expect(await times.textContent()).toContain("11:00 (Full)");

      // No time chosen: the message beside the choice and in the summary; nothing moved.
      await page.getByRole("button", { name: "Move Cuthbert Ravensworth to this time" }).click();
      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await summary.waitFor();
      expect(await summary.getByRole("link").allTextContents()).toEqual(["Choose his new time"]);
      expect(await times.textContent()).toContain("Choose his new time");
      if (javaScript) await expectNoAxeViolations(page);

      await times.getByLabel("11:30").check();
      await page.getByRole("button", { name: "Move Cuthbert Ravensworth to this time" }).click();
      await page.waitForURL((url) => url.pathname === `/admin/events/${event.id}/attendees`);
      const notice = page.getByRole("status").filter({ hasText: place.reference });
      expect(await notice.textContent()).toContain(
        `Cuthbert Ravensworth's booking ${place.reference} is moved to 11:30 at this event, and he has been e-mailed his new time.`,
      );
      if (javaScript) await expectNoAxeViolations(page);

      const [row] = await query<{ slot_time: string; status: string }>(
        "select slot_time, status from booking where id = $1",
        [place.id],
      );
      expect(row).toEqual({ slot_time: "11:30", status: "confirmed" });
      const mails = await query<{ text: string }>(
        "select text from outbox_email where \"to\" = $1 and subject like '%has a new time'",
        [man.email],
      );
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain("as you asked us to");
      const [audit] = await query<{ count: number }>(
        "select count(*)::int as count from audit_log where action = 'booking.move' and actor_email = $1",
        [staff.email],
      );
      expect(audit!.count).toBe(1);
      await page.context().close();
    });
  },
);

describe.each([
  { javaScript: true, name: "with JavaScript" },
  { javaScript: false, name: "without JavaScript" },
])(
  "a coordinator moving a man's booking to another event when he phones, $name",
  ({ javaScript }) => {
    it("lists the events like his, shows one's times, and moves him there", async () => {
      const product = await insertProduct(server.db, 0);
      const own = await insertEvent(server.db, product.id, {
        name: `Phone Move Own ${uniqueId()}`,
        eventDate: londonDay(2),
        paymentRequired: false,
      });
      const other = await insertEvent(server.db, product.id, {
        name: `Phone Move Elsewhere ${uniqueId()}`,
        eventDate: londonDay(9),
        paymentRequired: false,
      });
      const man = await insertPatient(server.db, {
        firstName: "Ebenezer",
        lastName: "Quillfeather",
      });
      const place = await insertBooking(server.db, {
        eventId: own.id,
        userId: man.id,
        slotTime: "10:00",
      });
      const { jar } = await signedInStaff(server.db, ["coordinator"]);
      const page = await newPage(browser(), {
        javaScriptEnabled: javaScript,
        viewport: { width: 768, height: 1024 },
      });
      await jar.into(page.context());
      await page.goto(`/admin/events/${own.id}/attendees/${place.id}/move`);
      const elsewhere = page.getByRole("region", { name: "Or move him to another event" });
      await elsewhere.getByLabel(new RegExp(other.name)).check();
      await elsewhere.getByRole("button", { name: "Show its times" }).click();
      const times = page.getByRole("group", { name: new RegExp(`His new time at ${other.name}`) });
      await times.waitFor();
      // Back at the times, not at the top of the page (found by the event-day review).
      expect(new URL(page.url()).hash).toBe("#new-time");
      expect(await times.evaluate((group) => group.getBoundingClientRect().top)).toBeLessThan(1024);
      if (javaScript) await expectNoAxeViolations(page);
      await times.getByLabel("11:00").check();
      await page.getByRole("button", { name: "Move Ebenezer Quillfeather to this time" }).click();

      // The list of the event he is now at says so.
      await page.waitForURL((url) => url.pathname === `/admin/events/${other.id}/attendees`);
      const notice = page.getByRole("status").filter({ hasText: place.reference });
      expect(await notice.textContent()).toContain(
        `Ebenezer Quillfeather's booking ${place.reference} is moved to 11:00 at this event`,
      );
      const [row] = await query<{ event_id: string; slot_time: string }>(
        "select event_id, slot_time from booking where id = $1",
        [place.id],
      );
      expect(row).toEqual({ event_id: other.id, slot_time: "11:00" });
      await page.context().close();
    });
  },
);
