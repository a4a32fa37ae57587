import type { Db } from "#app/db/client.server";
import {
  RECIPIENT_MAIL_LIMITS,
  mailboxOf,
  recipientMailDecision,
  type UnaskedMailKind,
} from "#app/domain/recipient-mail";
import { enqueueEmail, type OutgoingEmail } from "./email.server";
import { log } from "./log.server";
import { hitRateLimit, peekRateLimit } from "./rate-limit.server";
import { keyedHash } from "./secrets.server";

/**
 * Queues a mail that anyone could have asked for by typing the address into a public form, unless
 * the recipient has had enough of them (RECIPIENT_MAIL_LIMITS, counted across every client
 * address and instance). Returns whether it was queued; callers answer the visitor the same either
 * way, so nobody learns whether an address is known or throttled.
 */
export async function enqueueUnaskedMail(
  db: Db,
  kind: UnaskedMailKind,
  message: OutgoingEmail,
  now = new Date(),
): Promise<boolean> {
  const { sameKind, sameKindWindowMs, anyKind, anyKindWindowMs } = RECIPIENT_MAIL_LIMITS;
  const mailbox = keyedHash("mail-recipient", mailboxOf(message.to));
  const sameKindKey = `mail:${kind}:${mailbox}`;
  const anyKindKey = `mail:${mailbox}`;
  const [kindSoFar, anySoFar] = await Promise.all([
    peekRateLimit(db, sameKindKey, sameKindWindowMs, now),
    peekRateLimit(db, anyKindKey, anyKindWindowMs, now),
  ]);
  let decision = recipientMailDecision({ sameKind: kindSoFar.hits, anyKind: anySoFar.hits });
  if (decision === "send") {
    // Counted atomically: of requests racing for the last mail, only those within the limits send.
    const kindCounted = await hitRateLimit(db, sameKindKey, sameKind, sameKindWindowMs, now);
    const anyCounted = await hitRateLimit(db, anyKindKey, anyKind, anyKindWindowMs, now);
    decision = recipientMailDecision({
      sameKind: kindCounted.hits - 1,
      anyKind: anyCounted.hits - 1,
    });
  }
  if (decision !== "send") {
    log.info({ code: "recipient_mail_throttled", kind, decision }, "mail: not sent (throttled)");
    return false;
  }
  await enqueueEmail(db, message);
  return true;
}
