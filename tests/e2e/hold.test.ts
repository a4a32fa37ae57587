import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  insertBooking,
  insertConfirmedBookings,
  insertFreeEvent,
  insertPaidEvent,
  londonDay,
  uniqueId,
} from "#tests/support/fixtures";
import {
  browserForThisFile,
  expectNoAxeViolations,
  mailsTo,
  newPage,
  query,
  serverDatabaseForThisFile,
} from "./support";
import { fillConsent, holdFirstTime, newPatientPage, reachCheckout } from "./patient-support";

/**
 * The hold on a chosen time, as a person taking their time meets it: a warning before it ends,
 * "I need more time" (up to the hold's whole life), and a form sent after the hold ended keeps its
 * answers. Time is moved honestly: the hold's times are set in the server's database, and the
 * page's own clock by Playwright's clock.
 */

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

/** A free public event of the test's own, five days ahead, 10:00 to 12:00, two places a time. */
const freeEvent = () =>
  insertFreeEvent(server.db, {
    name: `Hold Check Morning ${uniqueId()}`,
    eventDate: londonDay(5),
  });

/** "14:32", London wall-clock time, worked out here rather than by the site's formatter. */
const london = (instant: Date) =>
  new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "Europe/London",
  }).format(instant);

/** Moves the hold's start and end relative to the database's own clock. */
async function setHold(reference: string, startedMinutesAgo: number, endsInMinutes: number) {
  const [row] = await query<{ hold_expires_at: Date }>(
    `update booking set created_at = now() - make_interval(mins => $2),
       hold_expires_at = now() + make_interval(mins => $3)
     where reference = $1 returning hold_expires_at`,
    [reference, startedMinutesAgo, endsInMinutes],
  );
  return row!.hold_expires_at;
}

async function holdEnd(reference: string): Promise<Date> {
  const [row] = await query<{ hold_expires_at: Date }>(
    "select hold_expires_at from booking where reference = $1",
    [reference],
  );
  return row!.hold_expires_at;
}

const firstTestChecked = (page: Page) =>
  page.getByRole("group", { name: "Which PSA test will this be?" }).getByLabel("1st").isChecked();

describe("the hold's end", () => {
  it("is stated in words, warned of before it comes, and 'I need more time' extends it (with JavaScript)", async () => {
    const { page } = await newPatientPage(browser());
    const event = await freeEvent();
    const reference = await holdFirstTime(page, event.id);
    const end = await setHold(reference, 11, 4);

    await page.clock.install({ time: new Date() });
    await page.reload();
    const notice = page.locator(".hold-notice");
    await expect
      .poll(() => notice.textContent())
      .toContain(`until ${london(end)}, 4 minutes from now`);
    const warning = page.getByRole("alert");
    expect(await warning.filter({ hasText: "ends soon" }).count()).toBe(0);
    await fillConsent(page);

    // A minute and a half later, less than three minutes are left: the warning is announced, and
    // focus stays where it was.
    const focused = await page.evaluate(() => document.activeElement?.outerHTML);
    await page.clock.runFor(95_000);
    await expect.poll(() => notice.getByRole("alert").textContent()).toContain("ends soon");
    expect(await page.evaluate(() => document.activeElement?.outerHTML)).toBe(focused);
    await expectNoAxeViolations(page);
    // Wherever he is on the long form, the warning and its button are on the screen (found by a
    // review: it was only at the top).
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const onScreen = await notice.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight + 0.5;
    });
    expect(onScreen).toBe(true);
    expect(await page.getByRole("button", { name: "I need more time" }).isVisible()).toBe(true);

    await page.getByRole("button", { name: "I need more time" }).click();
    await expect
      .poll(async () => (await holdEnd(reference)).getTime())
      .toBeGreaterThan(end.getTime() + 10 * 60_000);
    const extended = await holdEnd(reference);
    await expect.poll(() => notice.textContent()).toContain(`until ${london(extended)}`);
    // What was typed is still there.
    expect(await firstTestChecked(page)).toBe(true);
    await page.context().close();
  });

  it("without JavaScript, is stated in words; more time is given up to the cap, and then it says plainly it cannot", async () => {
    const { page } = await newPatientPage(browser(), { javaScriptEnabled: false });
    const event = await freeEvent();
    const reference = await holdFirstTime(page, event.id);
    // Twenty minutes into a hold whose whole life is thirty: ten more minutes at most.
    const end = await setHold(reference, 20, 2);
    const [{ cap }] = (await query<{ cap: Date }>(
      "select created_at + interval '30 minutes' as cap from booking where reference = $1",
      [reference],
    )) as [{ cap: Date }];
    await page.reload();
    expect(await page.locator(".hold-notice").textContent()).toContain(
      `until ${london(end)}, 2 minutes from now`,
    );
    await fillConsent(page);
    await page.getByRole("button", { name: "I need more time" }).click();
    await page
      .locator(".hold-notice")
      .getByText(`until ${london(cap)}`)
      .first()
      .waitFor();
    expect((await holdEnd(reference)).getTime()).toBe(cap.getTime());
    const notice = await page.locator(".hold-notice").textContent();
    expect(notice).toContain("cannot hold");
    expect(await page.getByRole("button", { name: "I need more time" }).count()).toBe(0);
    expect(await firstTestChecked(page)).toBe(true);

    // A second request (a form posted again, or crafted) meets the same cap in the service.
    await page.goBack();
    if ((await page.getByRole("button", { name: "I need more time" }).count()) > 0) {
      await page.getByRole("button", { name: "I need more time" }).click();
      await page.locator(".hold-notice").getByText("cannot hold").waitFor();
    }
    expect((await holdEnd(reference)).getTime()).toBe(cap.getTime());
    await page.context().close();
  });

  it("sends the form, not 'I need more time', when Enter is pressed in it", async () => {
    const { page } = await newPatientPage(browser());
    const event = await freeEvent();
    const reference = await holdFirstTime(page, event.id);
    const end = await holdEnd(reference);
    await fillConsent(page);
    await page
      .getByRole("group", { name: "Which PSA test will this be?" })
      .getByLabel("1st")
      .press("Enter");
    await page.waitForURL(/\/booking-success/);
    const [row] = await query<{ status: string; hold_expires_at: Date | null }>(
      "select status, hold_expires_at from booking where reference = $1",
      [reference],
    );
    expect(row!.status).toBe("confirmed");
    // The hold was not extended on the way.
    expect(row!.hold_expires_at === null || row!.hold_expires_at.getTime() <= end.getTime()).toBe(
      true,
    );
    await page.context().close();
  });
});

describe("the hold's end, when no more time can be given", () => {
  it("warns without pointing to a button that is not there", async () => {
    const { page } = await newPatientPage(browser());
    const event = await freeEvent();
    const reference = await holdFirstTime(page, event.id);
    // Twenty-eight minutes into a hold whose whole life is thirty: nothing more can be given.
    const end = await setHold(reference, 28, 2);
    await page.reload();
    const alert = page.locator(".hold-notice").getByRole("alert");
    await expect.poll(() => alert.textContent()).toContain(`ends soon, at ${london(end)}`);
    expect(await alert.textContent()).toContain("Please send the form before then.");
    expect(await alert.textContent()).not.toContain("I need more time");
    expect(await page.getByRole("button", { name: "I need more time" }).count()).toBe(0);
    await page.context().close();
  });
});

describe("the hold's end at checkout", () => {
  it("is warned of, can be put back with 'I need more time', and says what to do once it has come (with JavaScript)", async () => {
    const { page } = await newPatientPage(browser());
    const event = await insertPaidEvent(server.db, {
      name: `Hold Check Till ${uniqueId()}`,
      eventDate: londonDay(6),
    });
    const reference = await reachCheckout(page, event.id);
    const end = await setHold(reference, 11, 4);
    await page.clock.install({ time: new Date() });
    await page.reload();
    const notice = page.locator(".hold-notice");
    await expect
      .poll(() => notice.textContent())
      .toContain(`until ${london(end)}, 4 minutes from now`);
    // The page has hydrated once PayPal's part of it starts (it renders only in the browser);
    // before that, moving the clock would move no timer of the page's.
    await page
      .getByText(/Loading PayPal…|Failed to load the PayPal JS SDK script/)
      .first()
      .waitFor();

    await page.clock.runFor(95_000);
    const alert = notice.getByRole("alert");
    await expect.poll(() => alert.textContent()).toContain(`ends soon, at ${london(end)}`);
    expect(await alert.textContent()).toContain("I need more time");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "I need more time" }).click();
    await expect
      .poll(async () => (await holdEnd(reference)).getTime())
      .toBeGreaterThan(end.getTime() + 10 * 60_000);
    const extended = await holdEnd(reference);
    await expect.poll(() => notice.textContent()).toContain(`until ${london(extended)}`);
    expect(await page.getByRole("status").filter({ hasText: "Done:" }).textContent()).toContain(
      `we are now holding the 10:00 appointment for you until ${london(extended)}`,
    );

    // The end comes while the page is open: it says so, and what he can do; more time is no
    // longer the page's to give.
    await page.clock.runFor(extended.getTime() - Date.now() + 30_000);
    await expect.poll(() => alert.textContent()).toContain("You can still try to pay");
    await alert.getByRole("link", { name: "choose a time again" }).waitFor();
    expect(await page.getByRole("button", { name: "I need more time" }).count()).toBe(0);
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it("without JavaScript, gives more time until a payment has started, and then asks him to pay before the end", async () => {
    const { page } = await newPatientPage(browser(), { javaScriptEnabled: false });
    const event = await insertPaidEvent(server.db, {
      name: `Hold Check Counter ${uniqueId()}`,
      eventDate: londonDay(6),
    });
    const reference = await reachCheckout(page, event.id);
    await setHold(reference, 11, 2);
    await page.reload();
    await page.getByRole("button", { name: "I need more time" }).click();
    await page.getByText("Done: we are now holding").waitFor();
    const extended = await holdEnd(reference);
    expect(extended.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
    expect(await page.locator(".hold-notice").textContent()).toContain(`until ${london(extended)}`);

    // A payment has started at PayPal (in another tab, say): the hold is no longer his to
    // stretch, and the button left on this page says so truthfully.
    await query("update booking set payment_order_id = $2 where reference = $1", [
      reference,
      `ORDER-${uniqueId()}`,
    ]);
    const end = await setHold(reference, 12, 2);
    await page.getByRole("button", { name: "I need more time" }).click();
    const notice = page.locator(".hold-notice");
    await notice.getByText("You have started paying, so we cannot give more time.").waitFor();
    expect(await notice.textContent()).toContain(`Please finish paying by ${london(end)}.`);
    expect(await notice.textContent()).not.toContain("stopped holding");
    expect((await holdEnd(reference)).getTime()).toBe(end.getTime());

    await page.goto(`/checkout?booking=${reference}`);
    expect(await page.getByRole("button", { name: "I need more time" }).count()).toBe(0);
    expect(await notice.textContent()).toContain("You have started paying");
    expect(await notice.textContent()).not.toContain("the most time we can give");
    expect(await notice.getByRole("alert").textContent()).toContain(
      `ends soon, at ${london(end)}. Please pay before then.`,
    );
    await page.context().close();
  });
});

describe("a form sent after the hold ended", () => {
  it("books the time when it is still free", async () => {
    const { page, email } = await newPatientPage(browser(), { javaScriptEnabled: false });
    const event = await freeEvent();
    await holdFirstTime(page, event.id);
    await fillConsent(page);
    // The hold began forty minutes ago and ended ten minutes ago, beyond its whole life.
    await query(
      `update booking set created_at = now() - interval '40 minutes',
         hold_expires_at = now() - interval '10 minutes'
       where user_id = (select id from public.user where email = $1)`,
      [email],
    );
    await page.getByRole("button", { name: "Complete booking" }).click();
    await page.waitForURL(/\/booking-success\?booking=MHAT-/);
    await page.getByText("Successfully confirmed your booking!").waitFor();
    const rows = await query<{ status: string; slot_time: string; answers: unknown }>(
      `select b.status, b.slot_time, c.answers from booking b join public.user u on u.id = b.user_id
       left join consent c on c.booking_id = b.id where u.email = $1 and b.status = 'confirmed'`,
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slot_time.slice(0, 5)).toBe("10:00");
    expect(JSON.stringify(rows[0]!.answers)).toContain("Father");
    await page.context().close();
  });

  it("keeps the answers and asks only for a new time when someone else took it", async () => {
    const { page, email } = await newPatientPage(browser(), { javaScriptEnabled: false });
    const event = await freeEvent();
    const reference = await holdFirstTime(page, event.id);
    await fillConsent(page);
    await setHold(reference, 30, -5);
    // Meanwhile both places at 10:00 went to other people.
    await insertConfirmedBookings(server.db, event.id, 2, "10:00");

    await page.getByRole("button", { name: "Complete booking" }).click();
    await page.getByText("We have kept your answers").waitFor();
    expect(page.url()).not.toMatch(/Father|numberOfPsaTest/);
    // Only a time is asked for: no consent question is shown again.
    expect(await page.getByRole("group", { name: "Which PSA test will this be?" }).count()).toBe(0);
    const times = page.getByRole("group", { name: "Available times" });
    expect(await times.getByLabel(/^10:00/).isDisabled()).toBe(true);
    await times.getByLabel("10:30").check();
    await page.getByRole("button", { name: "Complete booking" }).click();
    await page.waitForURL(/\/booking-success\?booking=MHAT-/);
    await page.getByText("Successfully confirmed your booking!").waitFor();
    const rows = await query<{ slot_time: string; answers: unknown }>(
      `select b.slot_time, c.answers from booking b join public.user u on u.id = b.user_id
       join consent c on c.booking_id = b.id where u.email = $1 and b.status = 'confirmed'`,
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slot_time.slice(0, 5)).toBe("10:30");
    expect(JSON.stringify(rows[0]!.answers)).toContain("Father");

    // The same page with JavaScript has no accessibility problems.
    const scripted = await newPage(browser());
    await scripted.context().addCookies(await page.context().cookies());
    await scripted.goto(page.url());
    await expectNoAxeViolations(scripted);
    await scripted.context().close();
    await page.context().close();
  });
});

/**
 * A new patient signed in, a paid event of this test's own (six days ahead, £25.00) and a booking
 * of his there written straight into the database as `values` says.
 */
async function paidBookingOfNewPatient(
  place: string,
  values: Omit<Parameters<typeof insertBooking>[1], "eventId" | "userId">,
) {
  const { page, email } = await newPatientPage(browser());
  const event = await insertPaidEvent(server.db, {
    name: `Hold Check ${place} ${uniqueId()}`,
    eventDate: londonDay(6),
  });
  const [user] = await query<{ id: string }>("select id from public.user where email = $1", [
    email,
  ]);
  const booking = (more: typeof values) =>
    insertBooking(server.db, {
      eventId: event.id,
      userId: user!.id,
      paymentRequired: true,
      pricePence: 2500,
      ...more,
    });
  return { page, email, event, row: await booking(values), booking };
}

describe("the checkout, before he pays", () => {
  it("says until when cancelling gives his money back, and warns him when it already would not", async () => {
    const { page, event, row } = await paidBookingOfNewPatient("Terms", {
      status: "awaiting_payment",
      holdExpiresAt: new Date(Date.now() + 10 * 60_000),
    });
    const terms = page.getByRole("region", { name: "If you cannot come" });
    // A fortnight ahead: in good time, whatever the bank holidays.
    await query("update event set event_date = current_date + 14 where id = $1", [event.id]);
    await page.goto(`/checkout?booking=${row.reference}`);
    expect(await terms.textContent()).toContain("you get back the £25.00 you pay now");
    expect(await terms.getAttribute("class")).toBe("inset");
    // Tomorrow: too late for a refund or an online change, and said before the pay button.
    await query("update event set event_date = current_date + 1 where id = $1", [event.id]);
    await page.goto(`/checkout?booking=${row.reference}`);
    const text = (await terms.textContent()) ?? "";
    expect(text).toContain("If you pay now and then cancel, the £25.00 is not refunded");
    expect(text).toContain("It is too late to change the time online.");
    expect(await terms.getAttribute("class")).toBe("warning");
    const order = await page.evaluate(() => {
      const section = document.querySelector("section[aria-labelledby='terms-title']")!;
      const pay = [...document.querySelectorAll("button")].find((button) =>
        button.textContent?.includes("Pay with PayPal or card"),
      )!;
      return section.compareDocumentPosition(pay) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    expect(order).toBeTruthy();
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("the booking step of a paid event, before the consent form", () => {
  it("says until when cancelling gives his money back, and warns him when it already would not", async () => {
    const { page, event } = await paidBookingOfNewPatient("Choosing", {
      status: "cancelled",
    });
    const policy = page.locator("form", {
      has: page.getByRole("heading", { name: "Cancellation Policy" }),
    });
    // A fortnight ahead: in good time, whatever the bank holidays.
    await query("update event set event_date = current_date + 14 where id = $1", [event.id]);
    await page.goto(`/book-event?event=${event.id}`);
    expect(await policy.textContent()).toMatch(
      /If you book and then cancel by the end of \w+, \d\d \w+ \d{4}, you get back the £25\.00 you pay\./,
    );
    expect(await policy.locator(".warning").count()).toBe(0);
    // The day after tomorrow: still taking bookings, but at most one working day between, too
    // late for a refund; said before he gives his consent answers or pays.
    await query("update event set event_date = current_date + 2 where id = $1", [event.id]);
    await page.goto(`/book-event?event=${event.id}`);
    expect(await policy.locator(".warning").textContent()).toContain(
      "If you book and pay, then cancel, the £25.00 is not refunded: this event is too soon",
    );
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("the booking page while he is on his way to paying (found by the phone review)", () => {
  it("sends him on to payment, and offers no other time it would then refuse", async () => {
    const { page, event, row } = await paidBookingOfNewPatient("Paying", {
      status: "awaiting_payment",
      holdExpiresAt: new Date(Date.now() + 10 * 60_000),
    });
    await page.goto(`/book-event?event=${event.id}`);
    const notice = page.getByRole("status").filter({ hasText: "You have started booking" });
    expect(await notice.textContent()).toContain("You have started booking the 10:00 appointment.");
    expect(
      await notice.getByRole("link", { name: "Carry on to payment" }).getAttribute("href"),
    ).toBe(`/checkout?booking=${row.reference}`);
    expect(await page.getByRole("group", { name: "Available times" }).count()).toBe(0);
    expect(await page.locator("main").textContent()).not.toContain("choose another below");
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("a payment PayPal holds for review", () => {
  it("says truthfully that no confirmation e-mail has been sent yet, and none is", async () => {
    const { page, email, row } = await paidBookingOfNewPatient("Hall", {
      status: "awaiting_payment",
      paymentStatus: "pending",
      holdExpiresAt: new Date(Date.now() + 6 * 24 * 3_600_000),
    });
    // Checkout, from an old tab or the booking page, sends him to the page that says so, rather
    // than offering to pay again.
    await page.goto(`/checkout?booking=${row.reference}`);
    expect(new URL(page.url()).pathname).toBe("/booking-success");
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toMatch(/We have sent a confirmation e-mail/i);
    expect(text).toContain("We have not sent you a confirmation e-mail yet");
    expect(text).toContain("When PayPal accepts the payment, we will e-mail your confirmation");
    await expectNoAxeViolations(page);
    // Nothing about this booking is queued or sent (sign-up's own e-mail aside).
    const queued = await query(
      `select id from outbox_email where "to" = $1 and (subject like $2 or text like $2)`,
      [email, `%${row.reference}%`],
    );
    expect(queued).toEqual([]);
    const sent = await mailsTo(email);
    expect(sent.filter((mail) => (mail.text ?? "").includes(row.reference))).toEqual([]);
    // He has paid, and his place is kept: My bookings lists it, and says what is happening.
    await page.goto("/my-bookings");
    const coming = page.getByRole("region", { name: "Coming up" });
    expect(await coming.textContent()).toContain(row.reference);
    expect(await coming.textContent()).toContain("Payment being checked");
    expect(await coming.textContent()).toContain("PayPal is checking your payment.");
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it("is no longer listed as coming up once its appointment is over, and says who to ask", async () => {
    const { page, event, row } = await paidBookingOfNewPatient("Annexe", {
      status: "awaiting_payment",
      paymentStatus: "pending",
      holdExpiresAt: new Date(Date.now() + 6 * 24 * 3_600_000),
    });
    await query("update event set event_date = current_date - 2 where id = $1", [event.id]);
    await page.goto("/my-bookings");
    expect(await page.getByRole("region", { name: "Coming up" }).count()).toBe(0);
    const history = page.getByRole("region", { name: "Past and cancelled bookings" });
    const text = (await history.textContent()) ?? "";
    expect(text).toContain(row.reference);
    expect(text).toContain("Payment being checked");
    expect(text).toContain(
      "PayPal is still checking the payment you made for this appointment. Questions? Call our booking helpline on 01632 960 001.",
    );
    expect(text).not.toContain("We are keeping your place");
    expect(await history.getByRole("link", { name: "01632 960 001" }).getAttribute("href")).toBe(
      "tel:+441632960001",
    );
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("a booking cancelled while it was being made", () => {
  it("says so on the journey's pages, with what happened to the money, instead of a form", async () => {
    const { page, event, row } = await paidBookingOfNewPatient("Rooms", {
      status: "cancelled",
      paymentStatus: "unpaid",
    });
    await query("update event set status = 'cancelled' where id = $1", [event.id]);
    for (const path of ["/checkout", "/book-event/consent", "/booking-success"]) {
      await page.goto(`${path}?booking=${row.reference}`);
      await page.getByRole("heading", { name: "This booking has been cancelled" }).waitFor();
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toContain("We have had to cancel this event.");
      expect(text).toContain("No money has been taken.");
      expect(text).not.toContain("We are holding");
    }
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: "Find another event" }).click();
    await page.waitForURL((url) => url.pathname === "/book-event-main");
    await page.context().close();
  });
});

describe("coming back from PayPal's page without paying", () => {
  it("says the time is still held only while it is", async () => {
    const awaiting = (holdExpiresAt: Date, slotTime: string) => ({
      slotTime,
      status: "awaiting_payment" as const,
      paymentStatus: "unpaid" as const,
      holdExpiresAt,
    });
    const {
      page,
      row: live,
      booking,
    } = await paidBookingOfNewPatient(
      "Annexe",
      awaiting(new Date(Date.now() + 10 * 60_000), "10:00"),
    );
    await page.goto(`/checkout/cancel?booking=${live.reference}`);
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    expect(await page.locator("main").textContent()).toContain(
      "You cancelled the payment. Your time is still held: you can pay below.",
    );
    // A made-up notice in the address is no notice, not a broken page.
    const madeUp = await page.goto(`/checkout?booking=${live.reference}&payment=__proto__`);
    expect(madeUp?.status()).toBe(200);
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    await query("update booking set status = 'expired' where id = $1", [live.id]);

    const lapsed = await booking(awaiting(new Date(Date.now() - 60_000), "10:30"));
    await page.goto(`/checkout/cancel?booking=${lapsed.reference}`);
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain("You cancelled the payment.");
    expect(text).not.toContain("still held");
    expect(text).toContain("We could not keep 10:30 for you any longer");
    await expectNoAxeViolations(page);
    await page.context().close();
  });
});

describe("booking another event while a payment is under way", () => {
  it("says PayPal is checking the other booking's payment, with nothing to finish, and links to it (found by an accessibility review)", async () => {
    const { page, row } = await paidBookingOfNewPatient("Pavilion", {
      status: "awaiting_payment",
      paymentStatus: "pending",
      holdExpiresAt: new Date(Date.now() + 6 * 24 * 3_600_000),
    });
    const other = await insertFreeEvent(server.db, {
      name: `Hold Check Chapel ${uniqueId()}`,
      eventDate: londonDay(5),
    });
    await page.goto(`/book-event?event=${other.id}`);
    await page.locator(".radio__input:not([disabled])").first().check();
    await page.getByRole("button", { name: "Proceed to Consent Form" }).click();
    await page
      .getByText(
        `PayPal is still checking the payment you made for another booking (${row.reference}).`,
      )
      .first()
      .waitFor();
    expect(await page.locator("main").textContent()).not.toContain("finish");
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: `See booking ${row.reference}` }).click();
    await page.waitForURL((url) => url.pathname === `/my-bookings/${row.reference}`);
    await page.getByText("PayPal is checking your payment.").waitFor();
    await page.context().close();
  });
});
