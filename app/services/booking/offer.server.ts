import type { Db } from "#app/db/client.server";
import { offerFor } from "../waitlist.server";
import { holdPlace, type HoldResult } from "./hold.server";

export type TakeOfferResult =
  | HoldResult
  /** not this person's offer, or no such offer */
  | { ok: false; reason: "offer-not-found" }
  /** the offer ran out, was turned down or taken already */
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
