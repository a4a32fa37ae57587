import { and, eq, isNull, or } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { profile, user } from "#app/db/schema";

export type Profile = typeof profile.$inferSelect;

/** The signed-in person's own profile. Always looked up by their user id, never by a value from the request. */
export async function findProfileForUser(db: Db, userId: string): Promise<Profile | null> {
  const [row] = await db.select().from(profile).where(eq(profile.userId, userId));
  return row ?? null;
}

/** What the portal's edit form may change: not the e-mail, the NHS number or the reference. */
export type ProfileUpdate = Omit<
  typeof profile.$inferInsert,
  "id" | "userId" | "reference" | "email" | "nhsNumber" | "createdAt" | "updatedAt"
>;

/** Saves the editable fields (not the e-mail, not the NHS number) and keeps the account's name in step. */
export async function updateOwnProfile(db: Db, userId: string, update: ProfileUpdate) {
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(profile)
      .set({ ...update, updatedAt: new Date() })
      .where(eq(profile.userId, userId))
      .returning({ id: profile.id });
    if (updated.length !== 1) throw new Error("No profile for this account");
    await tx
      .update(user)
      .set({ name: `${update.firstName} ${update.lastName}`, updatedAt: new Date() })
      .where(eq(user.id, userId));
  });
}

/**
 * Saves an NHS number the person typed while booking (an event whose laboratory needs one). The
 * number has passed the check digit; a number already on the profile is never overwritten here.
 */
export async function addMissingNhsNumber(db: Db, userId: string, nhsNumber: string) {
  await db
    .update(profile)
    .set({ nhsNumber, updatedAt: new Date() })
    .where(
      and(eq(profile.userId, userId), or(isNull(profile.nhsNumber), eq(profile.nhsNumber, ""))),
    );
}
