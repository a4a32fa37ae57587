import { and, eq, gte, inArray, isNull, or } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, event, profile, user } from "#app/db/schema";
import { PLACE_STATUSES } from "#app/domain/booking-lifecycle";
import { londonDate } from "#app/domain/london-time";

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

export const DATE_OF_BIRTH_NEEDED =
  "We need your date of birth while you have a booking: the laboratory asks for it with your sample. You can correct it, but not remove it.";

export type ProfileSaveResult = { ok: true } | { ok: false; fieldErrors: { dateOfBirth: string } };

/**
 * Saves the editable fields (not the e-mail, not the NHS number) and keeps the account's name in
 * step. A date of birth is not removed while he has a booking to come: it was checked when he
 * booked, and the laboratory's list is read from the profile.
 */
export async function updateOwnProfile(
  db: Db,
  userId: string,
  update: ProfileUpdate,
  now = new Date(),
): Promise<ProfileSaveResult> {
  return db.transaction(async (tx): Promise<ProfileSaveResult> => {
    if (update.dateOfBirth === null) {
      const [toCome] = await tx
        .select({ id: booking.id })
        .from(booking)
        .innerJoin(event, eq(event.id, booking.eventId))
        .where(
          and(
            eq(booking.userId, userId),
            inArray(booking.status, [...PLACE_STATUSES]),
            gte(event.eventDate, londonDate(now)),
          ),
        )
        .limit(1);
      if (toCome) return { ok: false, fieldErrors: { dateOfBirth: DATE_OF_BIRTH_NEEDED } };
    }
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
    return { ok: true };
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
