import { and, eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking } from "#app/db/schema";
import { isHoldLive } from "#app/domain/booking-lifecycle";
import { offerFor } from "../waitlist.server";
import { heldBooking, holdPlace, type HoldResult } from "./hold.server";

export type TakeOfferResult =
  | HoldResult
  /** not this person's offer, or no such offer */
  | { ok: false; reason: "offer-not-found" }
  /** the offer ran out or was turned down, or the hold it became has ended */
  | { ok: false; reason: "offer-ended" };

/**
 * Takes the place offered from the waiting list: a normal hold of the offered time through
 * `holdPlace` (which checks every rule of a hold, counts the person's own offer out of the places
 * taken and marks it taken in the same transaction), then on to consent and payment as usual.
 */
export async function takeOfferedPlace(
  db: Db,
  input: { entryId: string; userId: string; clientAddress: string },
  now = new Date(),
): Promise<TakeOfferResult> {
  const offer = await offerFor(db, input, now);
  if (!offer) return { ok: false, reason: "offer-not-found" };
  if (offer.status === "accepted" && offer.bookingId) {
    // Taken already, by a first press of the button: the hold it made, while it lasts.
    const [made] = await db
      .select()
      .from(booking)
      .where(and(eq(booking.id, offer.bookingId), eq(booking.userId, input.userId)));
    if (made && isHoldLive(made, now)) return { ok: true, booking: heldBooking(made) };
  }
  if (!offer.live) return { ok: false, reason: "offer-ended" };
  return holdPlace(
    db,
    {
      eventId: offer.eventId,
      userId: input.userId,
      slotTime: offer.slotTime,
      clientAddress: input.clientAddress,
    },
    now,
  );
}
