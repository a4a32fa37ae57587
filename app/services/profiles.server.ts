import { and, eq, gte, isNotNull, isNull, or } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, event, profile, testResult, user } from "#app/db/schema";
import { londonDate } from "#app/domain/london-time";
import { lockPerson, takesPlaceWhere } from "./booking/places.server";
import { suggestFlagsAgainForBirthDate } from "./results-admin.server";

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
  "We need your date of birth while you have a booking or a result to come: the laboratory asks for it with your sample, and your result is read against your age. You can correct it, but not remove it.";

export type ProfileSaveResult = { ok: true } | { ok: false; fieldErrors: { dateOfBirth: string } };

/**
 * Saves the editable fields (not the e-mail, not the NHS number) and keeps the account's name in
 * step. A date of birth is not removed while he has a place to come or a result not yet released:
 * it was checked when he booked, the laboratory's list reads it, and so does the result's import.
 * A new date of birth gets his results' flags suggested again (suggestFlagsAgainForBirthDate).
 */
export async function updateOwnProfile(
  db: Db,
  userId: string,
  update: ProfileUpdate,
  now = new Date(),
): Promise<ProfileSaveResult> {
  return db.transaction(async (tx): Promise<ProfileSaveResult> => {
    // His lock first, as a booking and a staff correction take it before his profile's row.
    await lockPerson(tx, userId);
    if (update.dateOfBirth === null) {
      const [needed] = await tx
        .select({ id: booking.id })
        .from(booking)
        .innerJoin(event, eq(event.id, booking.eventId))
        .leftJoin(testResult, eq(testResult.bookingId, booking.id))
        .where(
          and(
            eq(booking.userId, userId),
            or(
              // A place to come: the laboratory's list reads it.
              and(takesPlaceWhere(now), gte(event.eventDate, londonDate(now))),
              // A sample whose result is not released: the import reads it for the flag.
              and(
                eq(booking.status, "confirmed"),
                isNotNull(booking.sampleTakenAt),
                isNull(testResult.releasedAt),
              ),
            ),
          ),
        )
        .limit(1);
      if (needed) return { ok: false, fieldErrors: { dateOfBirth: DATE_OF_BIRTH_NEEDED } };
    }
    const [before] = await tx
      .select({ dateOfBirth: profile.dateOfBirth })
      .from(profile)
      .where(eq(profile.userId, userId))
      .for("update");
    if (!before) throw new Error("No profile for this account");
    await tx
      .update(profile)
      .set({ ...update, updatedAt: new Date() })
      .where(eq(profile.userId, userId));
    if (update.dateOfBirth !== undefined && update.dateOfBirth !== before.dateOfBirth)
      await suggestFlagsAgainForBirthDate(
        tx,
        userId,
        { from: before.dateOfBirth, to: update.dateOfBirth },
        now,
      );
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
