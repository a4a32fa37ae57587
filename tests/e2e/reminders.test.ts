import { describe, expect, inject, it } from "vitest";
import { WORKER_JOBS } from "#app/services/booking/reconcile.server";
import { insertFreeEvent } from "#tests/support/fixtures/events";
import { uniqueId } from "#tests/support/fixtures/people";
import { fillConsent, holdFirstTime, newPatientPage } from "./patient-support";
import {
  browserForThisFile,
  mailsTo,
  query,
  serverDatabaseForThisFile,
  waitForMail,
} from "./support";

/**
 * The reminder, end to end: a man books in the browser an appointment a day and a half ahead; the
 * reminder job (the booking worker's, called here against the server's database as the server
 * calls it every WORKER_INTERVAL_MS) runs twice at once, as two servers would, and the server's
 * own mail worker delivers exactly one reminder to the SMTP sink, with the date, time, address
 * and the link to change or cancel.
 */

// E-mailed links start with APP_URL: the job runs in this process, so it gets the server's address.
process.env.APP_URL = inject("baseURL");

const browser = browserForThisFile();
const server = serverDatabaseForThisFile();
const HOUR = 3_600_000;

const londonParts = (instant: Date) => {
  const date = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(instant);
  const time = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/London",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(instant);
  return { date, time, hour: Number(time.slice(0, 2)) };
};

/**
 * An appointment 30 to 40 hours from now, on the quarter hour, between 06:00 and 21:00 London
 * time (so the hour-long event ends on the same day): bookable (it ends more than 24 hours ahead)
 * and inside a 48-hour reminder window.
 */
function appointmentAhead() {
  for (let hours = 30; hours <= 40; hours++) {
    const start = new Date(Math.ceil((Date.now() + hours * HOUR) / (15 * 60_000)) * 15 * 60_000);
    const parts = londonParts(start);
    if (parts.hour >= 6 && parts.hour <= 21) return { start, ...parts };
  }
  throw new Error("no hour between 06:00 and 21:00 in ten hours");
}

describe("the appointment reminder", () => {
  it("arrives once, with the date, time, address and the link to change or cancel, however often the job runs", async () => {
    const appointment = appointmentAhead();
    const [hh, mm] = appointment.time.split(":").map(Number) as [number, number];
    const endTime = `${String(hh + 1).padStart(2, "0")}:${String(mm).padStart(2, "0")}`;
    const ev = await insertFreeEvent(server.db, {
      name: `Reminder Check Morning ${uniqueId()}`,
      eventDate: appointment.date,
      startTime: appointment.time,
      endTime,
      sessionDuration: 15,
      addressLine1: "Reminder Hall, 5 Bell Street",
      city: "Braintree",
      postcode: "CM7 0ZZ",
    });

    const { page, email } = await newPatientPage(browser());
    const reference = await holdFirstTime(page, ev.id);
    await fillConsent(page);
    await page.getByRole("button", { name: "Complete booking" }).click();
    await page.waitForURL(/\/booking-success/);
    await waitForMail((mail) => mail.subject === `Your MHAT screening booking ${reference}`);
    await page.context().close();

    const job = WORKER_JOBS.find((entry) => entry.code === "reminders_sent")!;
    // Just booked: the confirmation has it all, so no reminder yet.
    await job.run(server.db, new Date());
    // Thirteen hours on, two servers run the job at the same moment, then one runs it again.
    const later = new Date(Date.now() + 13 * HOUR);
    await Promise.all([job.run(server.db, later), job.run(server.db, later)]);
    await job.run(server.db, new Date(later.getTime() + 60_000));

    // The server's mail worker sends what was queued: wait until nothing is left for him.
    await expect
      .poll(
        async () =>
          (
            await query<{ pending: number }>(
              `select count(*)::int as pending from outbox_email where "to" = $1 and status <> 'sent'`,
              [email],
            )
          )[0]!.pending,
        { timeout: 15_000 },
      )
      .toBe(0);
    await waitForMail(
      (mail) =>
        mail.to?.some((to) => to.address === email) === true &&
        mail.subject?.startsWith("Reminder: your MHAT screening appointment") === true,
    );
    const reminders = (await mailsTo(email)).filter((mail) =>
      mail.subject?.startsWith("Reminder:"),
    );
    expect(reminders).toHaveLength(1);

    const text = reminders[0]!.text ?? "";
    const [year, month, day] = appointment.date.split("-").map(Number) as [number, number, number];
    const longDate = new Intl.DateTimeFormat("en-GB", {
      weekday: "long",
      day: "2-digit",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(Date.UTC(year, month - 1, day)));
    expect(text).toContain(`Date: ${longDate.replace(/^(\w+) /, "$1, ")}`);
    expect(text).toContain(`Time: ${appointment.time} to `);
    expect(text).toContain("Address: Reminder Hall, 5 Bell Street, Braintree, CM7 0ZZ");
    expect(text).toContain(`Booking reference: ${reference}`);
    expect(text).toContain(`${inject("baseURL")}/my-bookings/${reference}`);
    expect(text).toContain("01632 960 001");
    // The man's NHS number (given at sign-up) and his consent answers stay out of it.
    expect(text).not.toContain("9434765919");
    expect(text).not.toContain("Father");

    const [row] = await query<{ reminder_sent_at: Date | null }>(
      "select reminder_sent_at from booking where reference = $1",
      [reference],
    );
    expect(row!.reminder_sent_at).not.toBeNull();
  });
});
