import { asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { newsletterSubscription } from "#app/db/schema";
import { organisation } from "#app/content/organisation";
import { config } from "#app/config.server";
import type { NewsletterSubscription } from "#app/domain/newsletter";
import { subscribersCsv, subscribersCsvFilename } from "#app/domain/subscribers-csv";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { recordAudit } from "./audit.server";
import { enqueueEmail, type OutgoingEmail } from "./email.server";
import { unsubscribeLink } from "./unsubscribe.server";

/**
 * Subscribes an address. Subscribing again is not an error: it refreshes the name, and an address
 * that had unsubscribed is subscribed again. An address that was not subscribed before gets a
 * short confirmation with the unsubscribe link (an address already subscribed gets nothing, so the
 * form cannot be used to send someone mail again and again).
 */
export async function subscribeToNewsletter(
  db: Db,
  input: NewsletterSubscription,
  baseUrl: string = config().publicBaseUrl,
) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ unsubscribedAt: newsletterSubscription.unsubscribedAt })
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.email, input.email))
      .for("update");
    const [row] = await tx
      .insert(newsletterSubscription)
      .values({ name: input.name, email: input.email, hearAboutEvents: input.hear_about_event })
      .onConflictDoUpdate({
        target: newsletterSubscription.email,
        set: {
          name: input.name,
          hearAboutEvents: input.hear_about_event,
          unsubscribedAt: null,
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: newsletterSubscription.id });
    if (!before || before.unsubscribedAt) {
      await enqueueEmail(tx, newsletterWelcome(input.email, unsubscribeLink(baseUrl, row!.id)));
    }
    return row!;
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

/** The confirmation of a new subscription. It does not repeat the name typed into the form. */
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
      "If you did not subscribe, or change your mind, use the link below and we will stop.",
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
