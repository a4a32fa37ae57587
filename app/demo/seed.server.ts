import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { appMeta, enquiry, newsletterSubscription } from "#app/db/schema";
import { seedDemoAttendees } from "./attendees.server";
import { seedDemoEvents } from "./events.server";
import { seedDemoPatient } from "./patient.server";
import { seedDemoStaff } from "./staff.server";

/**
 * Demo data for an empty database. Each feature adds a seeder to this list; they run once, in
 * order, inside one transaction, and the database remembers that it has been seeded.
 */
export type Seeder = { name: string; run: (tx: Db, now: Date) => Promise<void> };

const seeders: Seeder[] = [
  { name: "screening events", run: seedDemoEvents },
  { name: "demo patient with bookings and results", run: seedDemoPatient },
  { name: "demo staff with two-factor sign-in", run: seedDemoStaff },
  // After the demo patient, whose bookings count towards each event's places.
  { name: "invented attendees, so booked counts are real bookings", run: seedDemoAttendees },
  {
    name: "enquiries and newsletter",
    async run(tx) {
      await tx.insert(enquiry).values([
        {
          firstName: "Graham",
          lastName: "Whitfield",
          email: "graham.whitfield@example.com",
          phoneNumber: "01632 960 555",
          message:
            "Our bowls club in Witham would like to host a screening evening in the spring. " +
            "Around 60 members are in the age group. Could somebody call me?",
        },
      ]);
      await tx
        .insert(newsletterSubscription)
        .values([{ name: "Derek Ashby", email: "derek.ashby@example.com" }]);
    },
  },
];

const SEEDED_KEY = "demo_data_seeded_at";

export async function seedDemoData(db: Db, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [seeded] = await tx.select().from(appMeta).where(eq(appMeta.key, SEEDED_KEY));
    if (seeded) return false;
    for (const seeder of seeders) await seeder.run(tx, now);
    await tx.insert(appMeta).values({ key: SEEDED_KEY, value: now.toISOString() });
    return true;
  });
}
