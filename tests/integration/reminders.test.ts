import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "#app/db/client.server";
import { booking, consent, outboxEmail } from "#app/db/schema";
import { WORKER_JOBS } from "#app/services/booking/reconcile.server";
import type { Reminder, ReminderChannel } from "#app/services/booking/reminder-channel.server";
import { emailReminderChannel } from "#app/services/booking/reminder-email.server";
import { sendDueReminders } from "#app/services/booking/reminders.server";
import { enqueueEmail } from "#app/services/email.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  consentForm,
  consentFormSecrets,
  insertBooking,
  insertFreeEvent,
  insertPaidEvent,
  insertPatient,
  uniqueTown,
} from "#tests/support/fixtures";

/**
 * The reminder job on a real database (PGlite here, Postgres with TEST_DATABASE_URL): which
 * bookings it reminds, what the e-mail says, and that each is reminded once. Each test works in
 * a month of its own, so that another test's bookings are never due at its moment.
 * Instants are UTC with the London time beside them (GMT in winter, BST in summer).
 */

const database = testDatabaseForThisFile();

/** A patient's booking at 10:00 (London) on `eventDate`, confirmed weeks before. */
async function bookedAt(
  db: Db,
  eventDate: string,
  more: Partial<typeof booking.$inferInsert> = {},
  eventValues: Parameters<typeof insertFreeEvent>[1] = {},
) {
  const town = uniqueTown("Remindham");
  const ev = await insertFreeEvent(db, {
    name: `${town} Screening`,
    city: town,
    eventDate,
    startTime: "09:00",
    endTime: "12:00",
    sessionDuration: 15,
    addressLine1: "Village Hall, 3 Green Lane",
    postcode: "CM2 9ZZ",
    ...eventValues,
  });
  const patient = await insertPatient(db, { firstName: "Walter" });
  const row = await insertBooking(db, {
    eventId: ev.id,
    userId: patient.id,
    slotTime: "10:00",
    confirmedAt: new Date("2026-01-02T12:00:00Z"),
    ...more,
  });
  return { event: ev, patient, booking: row };
}

async function mailTo(db: Db, to: string) {
  return db.select().from(outboxEmail).where(eq(outboxEmail.to, to));
}

async function reminderSentAt(db: Db, bookingId: string) {
  const [row] = await db
    .select({ at: booking.reminderSentAt })
    .from(booking)
    .where(eq(booking.id, bookingId));
  return row!.at;
}

describe("the reminder job", () => {
  it("e-mails one reminder 48 hours ahead with the date, time, address, what to bring and how to cancel or change, and never again", async () => {
    const { db } = database;
    // Friday 13 February 2026, 10:00 GMT; the job runs on Wednesday at 12:00, 46 hours before.
    const { patient, booking: row } = await bookedAt(db, "2026-02-13");
    const now = new Date("2026-02-11T12:00:00Z");

    await sendDueReminders(db, emailReminderChannel, now, 48);

    const mail = await mailTo(db, patient.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(
      "Reminder: your MHAT screening appointment on Friday, 13 February 2026",
    );
    const text = mail[0]!.text;
    expect(text).toContain("Hello Walter,");
    expect(text).toContain(`Booking reference: ${row.reference}`);
    expect(text).toContain("Date: Friday, 13 February 2026");
    expect(text).toContain("Time: 10:00 to 10:15 (UK time)");
    expect(text).toContain("Address: Village Hall, 3 Green Lane, Remindham");
    expect(text).toContain("CM2 9ZZ");
    expect(text).toContain(`- Your booking reference, ${row.reference}.`);
    expect(text).toContain("roll up easily");
    expect(text).toMatch(
      new RegExp(
        `https?://[^\\s]+/my-bookings/${row.reference}\\?expires=\\d+&signature=[\\w-]+(\\s|$)`,
      ),
    );
    expect(text).toContain("01632 960 001");
    // 46 hours ahead, changing online has closed (at the end of Tuesday 10 February): it says so,
    // and asks him to cancel if he cannot come, never inviting a change. Free: no money spoken of.
    expect(text).toContain(
      "It is too late to change the time online. If you cannot come, please cancel your booking so that someone else can have the place.",
    );
    expect(text).toContain("To see or cancel your booking, open this link:");
    expect(text).not.toMatch(/change or cancel|change the time online until|refund|£/);
    expect(await reminderSentAt(db, row.id)).toEqual(now);

    // The next passes, and a later one, send nothing more.
    await sendDueReminders(db, emailReminderChannel, new Date("2026-02-11T12:01:00Z"), 48);
    await sendDueReminders(db, emailReminderChannel, new Date("2026-02-12T18:00:00Z"), 48);
    expect(await mailTo(db, patient.email)).toHaveLength(1);
  });

  it("tells a paid booking's person plainly that cancelling now gives nothing back", async () => {
    const { db } = database;
    // Friday 13 February 2026, 10:00 GMT, paid £25; the job runs on Wednesday at 12:00.
    const { patient } = await bookedAt(
      db,
      "2026-02-13",
      { paymentRequired: true, pricePence: 2500, paymentStatus: "paid" },
      { paymentRequired: true },
    );
    await sendDueReminders(db, emailReminderChannel, new Date("2026-02-11T12:00:00Z"), 48);
    const [mail] = await mailTo(db, patient.email);
    // Three working days (Tuesday 10, Wednesday 11, Thursday 12) after Monday 9 February.
    expect(mail!.text).toContain(
      "The last day to cancel with a full refund was Monday, 09 February 2026.",
    );
    expect(mail!.text).toContain(
      "If you cannot come, please cancel your booking so that someone else can have the place; the £25.00 you paid is not refunded.",
    );
    expect(mail!.text).not.toMatch(/change the time online until|change or cancel/);
  });

  it("reminds only confirmed bookings whose appointment is ahead and within the window", async () => {
    const { db } = database;
    // The job runs on Wednesday 11 March 2026 at 12:00 GMT.
    const now = new Date("2026-03-11T12:00:00Z");
    const due = await bookedAt(db, "2026-03-13"); // Friday 10:00: 46 hours ahead
    const paidDue = await bookedAt(
      db,
      "2026-03-12",
      { paymentRequired: true, pricePence: 2500, paymentStatus: "paid" },
      { paymentRequired: true },
    );
    const notYet = await bookedAt(db, "2026-03-14"); // Saturday 10:00: 70 hours ahead
    const past = await bookedAt(db, "2026-03-10"); // yesterday
    const thisMorning = await bookedAt(db, "2026-03-11"); // two hours ago
    const cancelled = await bookedAt(db, "2026-03-12", {
      status: "cancelled",
      cancelledAt: new Date("2026-03-01T12:00:00Z"),
      cancelledBy: "patient",
    });
    const held = await bookedAt(db, "2026-03-12", {
      status: "held",
      confirmedAt: null,
      holdExpiresAt: new Date("2026-03-11T12:10:00Z"),
    });
    const expired = await bookedAt(db, "2026-03-12", { status: "expired", confirmedAt: null });
    const alreadySent = await bookedAt(db, "2026-03-12", {
      reminderSentAt: new Date("2026-03-10T12:00:00Z"),
    });
    // Booked two hours ago for tomorrow 10:00: the confirmation is fresh, the reminder waits.
    const justBooked = await bookedAt(db, "2026-03-12", {
      confirmedAt: new Date("2026-03-11T10:00:00Z"),
    });
    // Booked yesterday at 11:00 for tomorrow: 25 hours since, so it is reminded now.
    const bookedYesterday = await bookedAt(db, "2026-03-12", {
      confirmedAt: new Date("2026-03-10T11:00:00Z"),
    });

    await sendDueReminders(db, emailReminderChannel, now, 48);

    for (const reminded of [due, paidDue, bookedYesterday]) {
      expect(await mailTo(db, reminded.patient.email)).toHaveLength(1);
      expect(await reminderSentAt(db, reminded.booking.id)).toEqual(now);
    }
    for (const left of [notYet, past, thisMorning, cancelled, held, expired, justBooked]) {
      expect(await mailTo(db, left.patient.email)).toHaveLength(0);
      expect(await reminderSentAt(db, left.booking.id)).toBeNull();
    }
    expect(await mailTo(db, alreadySent.patient.email)).toHaveLength(0);

    // The one booked two hours ago is reminded 12 hours after its confirmation.
    await sendDueReminders(db, emailReminderChannel, new Date("2026-03-11T21:59:00Z"), 48);
    expect(await mailTo(db, justBooked.patient.email)).toHaveLength(0);
    await sendDueReminders(db, emailReminderChannel, new Date("2026-03-11T22:00:00Z"), 48);
    expect(await mailTo(db, justBooked.patient.email)).toHaveLength(1);
  });

  it("opens the window at exactly the configured hours and closes it an hour before the start", async () => {
    const { db } = database;
    // Friday 17 April 2026, 10:00 BST = 09:00 UTC.
    const { patient } = await bookedAt(db, "2026-04-17");
    await sendDueReminders(db, emailReminderChannel, new Date("2026-04-16T08:59:59Z"), 24);
    expect(await mailTo(db, patient.email)).toHaveLength(0);
    await sendDueReminders(db, emailReminderChannel, new Date("2026-04-16T09:00:00Z"), 24);
    expect(await mailTo(db, patient.email)).toHaveLength(1);

    const late = await bookedAt(db, "2026-04-17");
    // 09:00 BST (08:00 UTC) is an hour before: too late, then and afterwards.
    await sendDueReminders(db, emailReminderChannel, new Date("2026-04-17T08:00:00Z"), 24);
    await sendDueReminders(db, emailReminderChannel, new Date("2026-04-17T12:00:00Z"), 24);
    expect(await mailTo(db, late.patient.email)).toHaveLength(0);
  });

  it("counts the 48 hours in real time across the clock change, in the database as in the rule", async () => {
    const { db } = database;
    // Monday 30 March 2026, 10:00 BST = 09:00 UTC; the clocks went forward on Sunday 29 March.
    // 48 hours before is Saturday 28 March 09:00 UTC (09:00 GMT), not 10:00.
    const { patient } = await bookedAt(db, "2026-03-30");
    await sendDueReminders(db, emailReminderChannel, new Date("2026-03-28T08:59:59Z"), 48);
    expect(await mailTo(db, patient.email)).toHaveLength(0);
    await sendDueReminders(db, emailReminderChannel, new Date("2026-03-28T09:00:00Z"), 48);
    expect(await mailTo(db, patient.email)).toHaveLength(1);
  });

  it("puts no health data in the reminder: no consent answers, no NHS number", async () => {
    const { db } = database;
    const nhsNumber = "9434765919";
    const ev = await insertPaidEvent(db, { eventDate: "2026-05-15", labName: "ESNEFT" });
    const patient = await insertPatient(db, { nhsNumber });
    const row = await insertBooking(db, {
      eventId: ev.id,
      userId: patient.id,
      slotTime: "10:30",
      paymentRequired: true,
      pricePence: 2500,
      paymentStatus: "paid",
      confirmedAt: new Date("2026-05-01T12:00:00Z"),
    });
    await db.insert(consent).values({
      bookingId: row.id,
      userId: patient.id,
      testDate: "2026-05-15",
      answers: consentForm.answers,
      gpConsent: true,
      wordingVersion: "2026-11-24",
      agreedAt: new Date("2026-05-01T12:00:00Z"),
    });

    await sendDueReminders(db, emailReminderChannel, new Date("2026-05-14T09:00:00Z"), 48);

    const [mail] = await mailTo(db, patient.email);
    const whole = JSON.stringify(mail);
    for (const secret of [...consentFormSecrets, nhsNumber, "943 476 5919"])
      expect(whole).not.toContain(secret);
    // The ESNEFT laboratory's reminder to check the number is there, without the number.
    expect(mail!.text).toContain("10-digit NHS number");
  });

  it("sends nothing and marks nothing when the channel fails, and tries again on the next pass", async () => {
    const { db } = database;
    const { patient, booking: row } = await bookedAt(db, "2026-06-12");
    const failing: ReminderChannel = {
      name: "failing",
      async send(tx, reminder) {
        await enqueueEmail(tx, { to: reminder.person.email, subject: "half", text: "half" });
        throw new Error("the channel broke");
      },
    };
    const now = new Date("2026-06-11T09:00:00Z");
    await expect(sendDueReminders(db, failing, now, 48)).rejects.toThrow("the channel broke");
    expect(await mailTo(db, patient.email)).toHaveLength(0);
    expect(await reminderSentAt(db, row.id)).toBeNull();

    await sendDueReminders(db, emailReminderChannel, new Date("2026-06-11T09:01:00Z"), 48);
    expect(await mailTo(db, patient.email)).toHaveLength(1);
  });

  it("hands another channel (a text message, say) the same reminder, with the phone number", async () => {
    const { db } = database;
    const { patient, booking: row } = await bookedAt(db, "2026-07-17");
    const texts: Reminder[] = [];
    const sms: ReminderChannel = {
      name: "sms",
      async send(_tx, reminder) {
        texts.push(reminder);
      },
    };
    await sendDueReminders(db, sms, new Date("2026-07-16T12:00:00Z"), 48);
    const mine = texts.filter((text) => text.bookingId === row.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      person: { firstName: "Walter", email: patient.email, phone: "01632 960 100" },
      booking: { reference: row.reference, eventDate: "2026-07-17", slotStart: "10:00" },
    });
    expect(mine[0]!.manageUrl).toMatch(
      new RegExp(`/my-bookings/${row.reference}\\?expires=\\d+&signature=[\\w-]+$`),
    );
    expect(await mailTo(db, patient.email)).toHaveLength(0);
  });

  it("runs as one of the booking worker's jobs", async () => {
    const { db } = database;
    const job = WORKER_JOBS.find((entry) => entry.code === "reminders_sent");
    expect(job).toBeDefined();
    // Within two days of the real clock: the job reads REMINDER_HOURS_BEFORE (48 unless set). 30
    // hours ahead, or 22 when that would be after 22:00 in London: an appointment there would end
    // after midnight (a run at 17:47 UTC booked 23:47, whose end, "24:07", is no time at all).
    const londonTime = (at: Date) =>
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/London",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(at);
    const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000);
    const start = londonTime(inHours(30)) <= "22:00" ? inHours(30) : inHours(22);
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(start);
    const time = londonTime(start);
    const { patient, booking: row } = await bookedAt(db, day, { slotTime: time });
    const counts = await job!.run(db, new Date());
    expect(counts.sent).toBeGreaterThanOrEqual(1);
    expect(await mailTo(db, patient.email)).toHaveLength(1);
    const [marked] = await db
      .select({ at: booking.reminderSentAt })
      .from(booking)
      .where(inArray(booking.id, [row.id]));
    expect(marked!.at).not.toBeNull();
  });
});
