import { asc, count, isNull } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { newsletterSubscription } from "#app/db/schema";
import { organisation } from "#app/content/organisation";
import { config } from "#app/config.server";
import type { NewsletterSubscription } from "#app/domain/newsletter";
import { NEWSLETTER_CONFIRM_LINK_DAYS } from "#app/domain/newsletter-confirm";
import { subscribersCsv, subscribersCsvFilename } from "#app/domain/subscribers-csv";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { recordAudit } from "./audit.server";
import { enqueueEmail, type OutgoingEmail } from "./email.server";
import {
  checkNewsletterConfirmation,
  newsletterConfirmLink,
  sealNewsletterRequest,
  type NewsletterConfirmCheck,
} from "./newsletter-confirmation.server";
import { enqueueUnaskedMail } from "./recipient-mail.server";
import { unsubscribeLink } from "./unsubscribe.server";

/**
 * Asks the owner of an address to confirm a subscription: it only sends them an e-mail with a
 * link (double opt-in) and changes nothing, so nobody can subscribe someone else, undo their
 * opt-out or change their name. The e-mail is limited per recipient like every mail a stranger
 * can ask for (domain/recipient-mail.ts); the caller answers the same whether it was sent or not.
 */
export async function requestNewsletterSubscription(
  db: Db,
  input: NewsletterSubscription,
  baseUrl: string = config().publicBaseUrl,
  now = new Date(),
): Promise<void> {
  const token = sealNewsletterRequest(
    { email: input.email, name: input.name, hearAboutEvents: input.hear_about_event },
    now,
  );
  await enqueueUnaskedMail(
    db,
    "newsletter-confirmation",
    newsletterConfirmation(input.email, newsletterConfirmLink(baseUrl, token)),
    now,
  );
}

/**
 * Subscribes, or subscribes again, the address a confirmation link was made for, with the name
 * typed when it was asked for. An address that was not subscribed gets a short welcome with the
 * unsubscribe link.
 */
export async function confirmNewsletterSubscription(
  db: Db,
  token: string | null | undefined,
  baseUrl: string = config().publicBaseUrl,
  now = new Date(),
): Promise<NewsletterConfirmCheck> {
  return db.transaction(async (tx) => {
    const check = await checkNewsletterConfirmation(tx, token, now, { forUpdate: true });
    if (!check.ok) return check;
    const { email, name, hearAboutEvents } = check.request;
    const [row] = await tx
      .insert(newsletterSubscription)
      .values({ name, email, hearAboutEvents })
      .onConflictDoUpdate({
        target: newsletterSubscription.email,
        set: { name, hearAboutEvents, unsubscribedAt: null, updatedAt: now },
      })
      .returning({ id: newsletterSubscription.id });
    if (!check.wasSubscribed)
      await enqueueEmail(tx, newsletterWelcome(email, unsubscribeLink(baseUrl, row!.id)));
    return check;
  });
}

/**
 * The footer every newsletter e-mail ends with. Send the same link as the message's
 * `listUnsubscribe` too, for mail programs' own unsubscribe button.
 */
export function newsletterFooter(link: string): string {
  return [
    "",
    "--",
    `You are getting this because this address subscribed to the ${organisation.shortName} newsletter.`,
    "To unsubscribe, open this link (you do not need to sign in):",
    link,
  ].join("\n");
}

/**
 * The request to confirm. It does not repeat the name typed into the form, which anyone could
 * have typed.
 */
function newsletterConfirmation(to: string, link: string): OutgoingEmail {
  return {
    to,
    subject: `Confirm your subscription to the ${organisation.shortName} newsletter`,
    text: [
      "Hello,",
      "",
      `Someone, perhaps you, asked to subscribe this e-mail address to the ${organisation.name} newsletter.`,
      `To confirm, open this link and press "Confirm subscription" (it works for ${NEWSLETTER_CONFIRM_LINK_DAYS} days):`,
      "",
      link,
      "",
      "If you did not ask for this, ignore this e-mail: nothing changes, and you will not hear from us.",
      "",
      organisation.name,
    ].join("\n"),
  };
}

/** The welcome once a subscription is confirmed. It does not repeat the name either. */
function newsletterWelcome(to: string, link: string): OutgoingEmail {
  return {
    to,
    listUnsubscribe: link,
    subject: `You are subscribed to the ${organisation.shortName} newsletter`,
    text: [
      "Hello,",
      "",
      `Thank you for subscribing to the ${organisation.name} newsletter. We will send you news`,
      "about men's health and our screening events.",
      "",
      "If you change your mind, use the link below and we will stop.",
      "",
      organisation.name,
      newsletterFooter(link),
    ].join("\n"),
  };
}

/** How many addresses are subscribed now (those that unsubscribed are not counted). */
export async function countCurrentSubscribers(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(newsletterSubscription)
    .where(isNull(newsletterSubscription.unsubscribedAt));
  return row?.n ?? 0;
}

/**
 * The subscribers CSV for staff: current subscribers only, oldest first. The export is recorded in
 * the audit log (with how many rows) before the file is handed over.
 */
export async function exportSubscribers(
  db: Db,
  actor: StaffActor,
  now = new Date(),
): Promise<{ csv: string; filename: string; count: number }> {
  assertCan(actor, "subscriber:export");
  const rows = await db
    .select({
      name: newsletterSubscription.name,
      email: newsletterSubscription.email,
      hearAboutEvents: newsletterSubscription.hearAboutEvents,
      subscribedAt: newsletterSubscription.createdAt,
    })
    .from(newsletterSubscription)
    .where(isNull(newsletterSubscription.unsubscribedAt))
    .orderBy(asc(newsletterSubscription.createdAt), asc(newsletterSubscription.email));
  await recordAudit(db, actor, {
    action: "subscribers.export",
    entityType: "newsletter_subscription",
    details: { count: rows.length },
  });
  return { csv: subscribersCsv(rows), filename: subscribersCsvFilename(now), count: rows.length };
}
