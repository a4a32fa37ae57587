import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiry, newsletterSubscription, outboxEmail } from "#app/db/schema";
import { seedDemoData } from "#app/demo/seed.server";
import { deliverDueEmails } from "#app/services/email.server";
import { createEnquiry } from "#app/services/enquiries.server";
import { subscribeToNewsletter } from "#app/services/subscriptions.server";
import { openTestDatabase } from "#tests/support/database";
import { startSmtpSink } from "#tests/support/smtp-sink";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  database = await openTestDatabase();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
  await database?.close();
});

const form = {
  "first-name": "Alan",
  "last-name": "Marsh",
  email: "alan.marsh@example.com",
  "phone-number": "01632 960 123",
  message: "Could you run an event for our bowls club in May?",
};

describe("enquiries", () => {
  it("stores the enquiry and e-mails the staff inbox through the outbox", async () => {
    const { db } = database;
    const row = await createEnquiry(db, form, "staff@example.org");
    const [stored] = await db.select().from(enquiry).where(eq(enquiry.id, row.id));
    expect(stored).toMatchObject({
      firstName: "Alan",
      lastName: "Marsh",
      email: "alan.marsh@example.com",
    });

    const [queued] = await db
      .select()
      .from(outboxEmail)
      .where(eq(outboxEmail.to, "staff@example.org"));
    expect(queued).toMatchObject({ status: "pending", replyTo: "alan.marsh@example.com" });

    const sent = await deliverDueEmails(
      db,
      nodemailer.createTransport(sink.url),
      "MHAT <bookings@example.org>",
    );
    // Other tests' mail may be due too; this message's own row is checked below.
    expect(sent).toBeGreaterThanOrEqual(1);
    const mail = await sink.waitFor((message) => message.envelopeTo.includes("staff@example.org"));
    expect(mail.parsed.subject).toBe("Website enquiry from Alan Marsh");
    expect(mail.parsed.replyTo?.[0]?.address).toBe("alan.marsh@example.com");
    expect(mail.parsed.text).toContain("Could you run an event for our bowls club in May?");

    const [delivered] = await db.select().from(outboxEmail).where(eq(outboxEmail.id, queued!.id));
    expect(delivered).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("stores nothing when the notification cannot be queued", async () => {
    const { db } = database;
    const before = await db.select().from(enquiry);
    // A missing recipient breaks the outbox insert (NOT NULL), which must undo the enquiry too.
    await expect(
      createEnquiry(db, { ...form, email: "rollback@example.com" }, undefined as never),
    ).rejects.toThrow();
    const after = await db.select().from(enquiry);
    expect(after).toHaveLength(before.length);
    expect(after.some((row) => row.email === "rollback@example.com")).toBe(false);
  });
});

describe("newsletter", () => {
  it("keeps one row per address and refreshes the name", async () => {
    const { db } = database;
    await subscribeToNewsletter(db, {
      name: "Ray",
      email: "ray@example.com",
      hear_about_event: true,
    });
    await subscribeToNewsletter(db, {
      name: "Raymond",
      email: "ray@example.com",
      hear_about_event: true,
    });
    const rows = await db
      .select()
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.email, "ray@example.com"));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toBe("Raymond");
  });
});

describe("demo data", () => {
  it("seeds an empty database once", async () => {
    const { db } = database;
    expect(await seedDemoData(db)).toBe(true);
    expect(await seedDemoData(db)).toBe(false);
  });
});
