import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { nextAttemptDelayMs, shouldGiveUp } from "#app/domain/backoff";
import { onPostgresServer, type Db } from "#app/db/client.server";
import { outboxEmail } from "#app/db/schema";
import { noteDatabaseError } from "#app/db/health.server";
import { isNeverDelivered } from "#app/domain/data-rights";
import { log } from "./log.server";

/** A file sent with a message, such as a booking's calendar entry; text content, sent as UTF-8. */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  attachments?: EmailAttachment[];
  /**
   * For mail sent because someone subscribed: their signed unsubscribe link. Mail programs then
   * offer an "Unsubscribe" button, which POSTs to the link (RFC 2369 and RFC 8058).
   */
  listUnsubscribe?: string;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/**
 * Queues a message. Pass the transaction that makes the change the mail reports, so that both
 * commit together. Never put health data (consent, results, NHS number) in a message. A message
 * to an address that can never be delivered (an erased account's) is not queued: null.
 */
export async function enqueueEmail(db: Db, message: OutgoingEmail): Promise<string | null> {
  if (isNeverDelivered(message.to)) {
    log.info(
      { code: "outbox.never-delivered" },
      "outbox: not queued, the address is never delivered",
    );
    return null;
  }
  const [row] = await db
    .insert(outboxEmail)
    .values({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      replyTo: message.replyTo,
      attachments: message.attachments?.length ? message.attachments : null,
      listUnsubscribe: message.listUnsubscribe,
    })
    .returning({ id: outboxEmail.id });
  // Wake the worker soon after commit instead of waiting for its next poll.
  setTimeout(() => listeners.forEach((listener) => listener()), 20);
  return row!.id;
}

export function listOutbox(db: Db, limit = 100) {
  return db.select().from(outboxEmail).orderBy(desc(outboxEmail.createdAt)).limit(limit);
}

/** How long a claimed message stays reserved for one worker while it is being sent (embedded database). */
const CLAIM_LEASE_MS = 5 * 60_000;

type OutboxRow = typeof outboxEmail.$inferSelect;
type Transport = Pick<Transporter, "sendMail">;

const dueNow = (now: Date) =>
  and(eq(outboxEmail.status, "pending"), lte(outboxEmail.nextAttemptAt, now));

/**
 * Claims due messages, sends them, and records the outcome; returns how many were sent. At least
 * once: a worker that dies between SMTP's "accepted" and recording it sends that one again.
 *
 * On a Postgres server, where other instances work the same outbox, each message is claimed with
 * a row lock (FOR UPDATE SKIP LOCKED) held while it is sent: another instance skips it, and if
 * this one dies mid-send its connection goes, Postgres lets go of the row, and the next pass of
 * any instance sends it at once. (A lease, a time the row is reserved for, would leave a dead
 * instance's messages waiting out that time, and would have to outlast the slowest send.) The
 * embedded database has one connection, which a transaction open during a send would take from
 * every page, and one process: there a batch is claimed for CLAIM_LEASE_MS instead.
 */
export async function deliverDueEmails(
  db: Db,
  transport: Transport,
  from: string,
  now = () => new Date(),
  batchSize = 20,
): Promise<number> {
  if (onPostgresServer(db)) {
    let sent = 0;
    for (let count = 0; count < batchSize; count++) {
      const outcome = await db.transaction(async (tx) => {
        const [message] = await tx
          .select()
          .from(outboxEmail)
          .where(dueNow(now()))
          .orderBy(asc(outboxEmail.nextAttemptAt))
          .limit(1)
          .for("update", { skipLocked: true });
        if (!message) return "none";
        return (await sendOne(tx, transport, from, message, now)) ? "sent" : "failed";
      });
      if (outcome === "none") break;
      if (outcome === "sent") sent++;
    }
    return sent;
  }

  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(outboxEmail)
      .where(dueNow(now()))
      .orderBy(asc(outboxEmail.nextAttemptAt))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    if (due.length > 0) {
      await tx
        .update(outboxEmail)
        .set({ nextAttemptAt: new Date(now().getTime() + CLAIM_LEASE_MS) })
        .where(
          inArray(
            outboxEmail.id,
            due.map((row) => row.id),
          ),
        );
    }
    return due;
  });
  let sent = 0;
  for (const message of claimed) if (await sendOne(db, transport, from, message, now)) sent++;
  return sent;
}

/** Sends one claimed message and records the outcome: sent, or tried again later with back-off. */
async function sendOne(
  db: Db,
  transport: Transport,
  from: string,
  message: OutboxRow,
  now: () => Date,
): Promise<boolean> {
  try {
    await transport.sendMail({
      from,
      to: message.to,
      replyTo: message.replyTo ?? undefined,
      subject: message.subject,
      text: message.text,
      html: message.html ?? undefined,
      ...(message.attachments?.length
        ? {
            attachments: message.attachments.map((file) => ({
              filename: file.filename,
              contentType: file.contentType,
              content: file.content,
            })),
          }
        : {}),
      ...(message.listUnsubscribe
        ? {
            list: { unsubscribe: message.listUnsubscribe },
            headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
          }
        : {}),
    });
  } catch (error) {
    const attempts = message.attempts + 1;
    const reason = error instanceof Error ? error.message : String(error);
    await db
      .update(outboxEmail)
      .set({
        attempts,
        lastError: reason.slice(0, 500),
        status: shouldGiveUp(attempts) ? "failed" : "pending",
        nextAttemptAt: new Date(now().getTime() + nextAttemptDelayMs(attempts)),
      })
      .where(eq(outboxEmail.id, message.id));
    log.warn(
      { messageId: message.id, attempts, err: error },
      "outbox: delivery failed, will retry",
    );
    return false;
  }
  await db
    .update(outboxEmail)
    .set({
      status: "sent",
      sentAt: now(),
      attempts: sql`${outboxEmail.attempts} + 1`,
      lastError: null,
    })
    .where(eq(outboxEmail.id, message.id));
  return true;
}

export interface OutboxWorker {
  /** Runs one delivery pass now; resolves when it is done. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

/** Polls the outbox and delivers through SMTP. One pass runs at a time. */
export function startOutboxWorker(options: {
  db: Db;
  smtpUrl: string;
  from: string;
  pollMs: number;
}): OutboxWorker {
  const transport = nodemailer.createTransport(options.smtpUrl);
  let running: Promise<number> | undefined;
  let stopped = false;

  const flush = () => {
    running ??= deliverDueEmails(options.db, transport, options.from)
      .catch((error) => {
        noteDatabaseError(error);
        log.error({ err: error, code: "outbox_pass_failed" }, "outbox: pass failed");
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const timer = setInterval(() => void flush(), options.pollMs);
  timer.unref();
  const listener = () => {
    if (!stopped) void flush();
  };
  listeners.add(listener);
  void flush();

  return {
    flush,
    async stop() {
      stopped = true;
      clearInterval(timer);
      listeners.delete(listener);
      await running;
      transport.close();
    },
  };
}
