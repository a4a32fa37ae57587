import type { Db } from "#app/db/client.server";
import {
  RECIPIENT_MAIL_LIMITS,
  mailboxOf,
  recipientMailDecision,
  type RecipientMailDecision,
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
  const { sameKindKey, anyKindKey } = recipientKeys(kind, message.to);
  let decision = await unaskedMailDecision(db, kind, message.to, now);
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

function recipientKeys(kind: UnaskedMailKind, to: string) {
  const mailbox = keyedHash("mail-recipient", mailboxOf(to));
  return { sameKindKey: `mail:${kind}:${mailbox}`, anyKindKey: `mail:${mailbox}` };
}

/** Whether one more mail of this kind to this address would be sent now (nothing is counted). */
export async function unaskedMailDecision(
  db: Db,
  kind: UnaskedMailKind,
  to: string,
  now = new Date(),
): Promise<RecipientMailDecision> {
  const { sameKindWindowMs, anyKindWindowMs } = RECIPIENT_MAIL_LIMITS;
  const { sameKindKey, anyKindKey } = recipientKeys(kind, to);
  const [kindSoFar, anySoFar] = await Promise.all([
    peekRateLimit(db, sameKindKey, sameKindWindowMs, now),
    peekRateLimit(db, anyKindKey, anyKindWindowMs, now),
  ]);
  return recipientMailDecision({ sameKind: kindSoFar.hits, anyKind: anySoFar.hits });
}
