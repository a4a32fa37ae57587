import crypto from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiry, newsletterSubscription, outboxEmail } from "#app/db/schema";
import { seedDemoData } from "#app/demo/seed.server";
import { deliverDueEmails } from "#app/services/email.server";
import { createEnquiry } from "#app/services/enquiries.server";
import { NEWSLETTER_CONFIRM_LINK_DAYS } from "#app/domain/newsletter-confirm";
import {
  checkNewsletterConfirmation,
  openNewsletterRequest,
  sealNewsletterRequest,
} from "#app/services/newsletter-confirmation.server";
import {
  confirmNewsletterSubscription,
  requestNewsletterSubscription,
} from "#app/services/subscriptions.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import { startSmtpSink } from "#tests/support/smtp-sink";

const database = testDatabaseForThisFile();
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
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
    expect(queued).toMatchObject({ status: "pending", replyTo: null });

    const sent = await deliverDueEmails(
      db,
      nodemailer.createTransport(sink.url),
      "MHAT <bookings@example.org>",
    );
    // Other tests' mail may be due too; this message's own row is checked below.
    expect(sent).toBeGreaterThanOrEqual(1);
    const mail = await sink.waitFor((message) => message.envelopeTo.includes("staff@example.org"));
    // Only that an enquiry is waiting, and where: nothing the enquirer typed (found by a review).
    expect(mail.parsed.subject).toBe("New website enquiry");
    expect(mail.parsed.replyTo).toBeUndefined();
    expect(mail.parsed.text).toContain(`/admin/enquiries#enquiry-${row.id}`);
    for (const typed of Object.values(form)) {
      expect(mail.parsed.text).not.toContain(typed);
      expect(mail.parsed.subject).not.toContain(typed);
    }

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

describe("newsletter opt-out is undone by anyone", () => {
  it("posting an unsubscribed address leaves it unsubscribed and its name unchanged, and mails only a link to confirm", async () => {
    const { db } = database;
    const email = "opted-out@example.com";
    const unsubscribedAt = new Date("2026-01-05T10:00:00Z");
    await db.insert(newsletterSubscription).values({ name: "Ray Owner", email, unsubscribedAt });

    await requestNewsletterSubscription(
      db,
      { name: "Someone Else", email, hear_about_event: true },
      "https://mhat.example",
    );

    const rows = await db
      .select()
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.email, email));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: "Ray Owner", unsubscribedAt });
    const mails = await db.select().from(outboxEmail).where(eq(outboxEmail.to, email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(/^https:\/\/mhat\.example\/newsletter\/confirm\?token=\S+$/m);
  });
});

const BASE = "https://mhat.example";
const HOUR = 60 * 60_000;

/** The token in the newest confirmation e-mail to `email`. */
async function confirmationToken(email: string): Promise<string> {
  const mails = await database.db
    .select()
    .from(outboxEmail)
    .where(and(eq(outboxEmail.to, email), like(outboxEmail.subject, "Confirm your subscription%")));
  const link = /https:\/\/mhat\.example\/newsletter\/confirm\?token=(\S+)/.exec(
    mails.at(-1)?.text ?? "",
  );
  if (!link) throw new Error(`No confirmation link was mailed to ${email}`);
  return decodeURIComponent(link[1]!);
}

async function subscriptionOf(email: string) {
  const rows = await database.db
    .select()
    .from(newsletterSubscription)
    .where(eq(newsletterSubscription.email, email));
  return rows;
}

describe("newsletter double opt-in", () => {
  it("only the confirmation link subscribes again, with the name typed; reading it changes nothing", async () => {
    const { db } = database;
    const email = "came-back@example.com";
    const unsubscribedAt = new Date(Date.now() - 2 * HOUR);
    await db.insert(newsletterSubscription).values({ name: "Ray Owner", email, unsubscribedAt });
    await requestNewsletterSubscription(
      db,
      { name: "Raymond", email, hear_about_event: false },
      BASE,
    );
    const token = await confirmationToken(email);
    // The address and the name are sealed, not readable from the link.
    expect(token).not.toContain("came-back");
    expect(Buffer.from(token, "base64url").toString("latin1")).not.toContain("Raymond");

    const check = await checkNewsletterConfirmation(db, token);
    expect(check).toMatchObject({ ok: true, request: { email, name: "Raymond" } });
    expect(await subscriptionOf(email)).toMatchObject([{ name: "Ray Owner", unsubscribedAt }]);

    expect(await confirmNewsletterSubscription(db, token, BASE)).toMatchObject({ ok: true });
    expect(await subscriptionOf(email)).toMatchObject([
      { name: "Raymond", unsubscribedAt: null, hearAboutEvents: false },
    ]);
    const welcome = (await db.select().from(outboxEmail).where(eq(outboxEmail.to, email))).filter(
      (mail) => mail.subject.startsWith("You are subscribed"),
    );
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.listUnsubscribe).toMatch(/^https:\/\/mhat\.example\/unsubscribe\?token=/);
  });

  it("a new address has no subscription until its owner confirms", async () => {
    const { db } = database;
    const email = "newcomer@example.com";
    await requestNewsletterSubscription(
      db,
      { name: "New Reader", email, hear_about_event: true },
      BASE,
    );
    expect(await subscriptionOf(email)).toEqual([]);
    await confirmNewsletterSubscription(db, await confirmationToken(email), BASE);
    expect(await subscriptionOf(email)).toMatchObject([
      { name: "New Reader", unsubscribedAt: null },
    ]);
  });

  it("mails one confirmation link however often the address is posted (the per-recipient limit)", async () => {
    const { db } = database;
    const email = "posted-often@example.com";
    for (let post = 0; post < 5; post++)
      await requestNewsletterSubscription(
        db,
        { name: `Name ${post}`, email, hear_about_event: true },
        BASE,
      );
    const mails = await db.select().from(outboxEmail).where(eq(outboxEmail.to, email));
    expect(mails).toHaveLength(1);
    // It does not repeat the name anyone could have typed.
    expect(mails[0]!.text).not.toContain("Name 0");
  });

  it("refuses a forged, changed, expired or pre-unsubscribe link and changes nothing", async () => {
    const { db } = database;
    const email = "careful@example.com";
    const request = { email, name: "Careful Reader", hearAboutEvents: true };
    const now = new Date();

    expect(await confirmNewsletterSubscription(db, null, BASE)).toEqual({
      ok: false,
      reason: "missing",
    });

    const token = sealNewsletterRequest(request, now);
    const bytes = Buffer.from(token, "base64url");
    bytes[bytes.length - 1]! ^= 1;
    const changed = bytes.toString("base64url");
    // Sealed the same way, with a key made from a guessed secret.
    const guessedKey = Buffer.from(
      crypto.hkdfSync("sha256", "guess", Buffer.alloc(0), "newsletter-confirmation", 32),
    );
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", guessedKey, iv);
    const body = Buffer.concat([
      cipher.update(JSON.stringify({ e: email, n: "Forger", h: true, t: now.getTime() })),
      cipher.final(),
    ]);
    const forged = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    for (const bad of [changed, forged, "nonsense", "x".repeat(5000), `${token}!`]) {
      expect(openNewsletterRequest(bad)).toBeNull();
      expect(await confirmNewsletterSubscription(db, bad, BASE)).toEqual({
        ok: false,
        reason: "invalid",
      });
    }

    const old = new Date(now.getTime() - (NEWSLETTER_CONFIRM_LINK_DAYS * 24 + 1) * HOUR);
    expect(
      await confirmNewsletterSubscription(db, sealNewsletterRequest(request, old), BASE),
    ).toEqual({ ok: false, reason: "expired" });
    expect(await subscriptionOf(email)).toEqual([]);

    // Confirmed, then unsubscribed: a link made before the unsubscribe no longer works.
    const earlier = sealNewsletterRequest(request, new Date(now.getTime() - 2 * HOUR));
    await confirmNewsletterSubscription(
      db,
      sealNewsletterRequest(request, new Date(now.getTime() - HOUR)),
      BASE,
    );
    await db
      .update(newsletterSubscription)
      .set({ unsubscribedAt: new Date(now.getTime() - 30 * 60_000) })
      .where(eq(newsletterSubscription.email, email));
    expect(await confirmNewsletterSubscription(db, earlier, BASE)).toEqual({
      ok: false,
      reason: "stale",
    });
    const [row] = await subscriptionOf(email);
    expect(row!.unsubscribedAt).not.toBeNull();
  });
});

describe("demo data", () => {
  it("seeds an empty database once", async () => {
    const { db } = database;
    expect(await seedDemoData(db)).toBe(true);
    expect(await seedDemoData(db)).toBe(false);
  });
});
