import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  envelopeTo: string[];
  raw: string;
  parsed: Email;
}

/**
 * A local SMTP server that accepts every message. It keeps messages in memory and, when given a
 * folder, also writes each one there as an .eml file for other processes to read.
 *
 * `holdRecipients(ms)` makes it wait that long before accepting each recipient (RCPT TO), as a
 * slow mail server does: a sender is then in the middle of a conversation, before the message
 * itself, for a while with every message.
 */
export async function startSmtpSink(options: { folder?: string; rejectWith?: string } = {}) {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let recipientDelayMs = 0;
  /** conversations waiting for their recipient to be accepted */
  let holding = 0;
  if (options.folder) mkdirSync(options.folder, { recursive: true });

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (recipientDelayMs === 0) return callback();
      holding++;
      setTimeout(() => {
        holding--;
        callback();
      }, recipientDelayMs);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        if (options.rejectWith)
          return callback(Object.assign(new Error(options.rejectWith), { responseCode: 451 }));
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = await PostalMime.parse(raw);
        const envelopeTo = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        received.push({ envelopeTo, raw, parsed });
        if (options.folder) {
          writeFileSync(path.join(options.folder, `${Date.now()}-${received.length}.eml`), raw);
        }
        waiters.forEach((wake) => wake());
        callback();
      });
    },
  });
  // A sender that vanishes mid-conversation is no error of the sink's.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** From now on, waits `ms` before accepting each recipient. */
    holdRecipients(ms: number) {
      recipientDelayMs = ms;
    },
    /** How many conversations are waiting for a recipient to be accepted at this moment. */
    holding: () => holding,
    /** Resolves with the first message that matches, waiting up to `timeoutMs`. */
    waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`No matching mail within ${timeoutMs} ms (${received.length} received)`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
