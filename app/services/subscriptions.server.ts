import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { newsletterSubscription } from "#app/db/schema";
import type { NewsletterSubscription } from "#app/domain/newsletter";

/** Subscribes an address. Subscribing again is not an error: it refreshes the name. */
export async function subscribeToNewsletter(db: Db, input: NewsletterSubscription) {
  const [row] = await db
    .insert(newsletterSubscription)
    .values({ name: input.name, email: input.email, hearAboutEvents: input.hear_about_event })
    .onConflictDoUpdate({
      target: newsletterSubscription.email,
      set: { name: input.name, hearAboutEvents: input.hear_about_event, updatedAt: sql`now()` },
    })
    .returning({ id: newsletterSubscription.id });
  return row!;
}
