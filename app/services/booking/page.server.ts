import { and, eq, or } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, profile } from "#app/db/schema";
import { bookingEligibility, type Eligibility } from "#app/domain/eligibility";
import { slotChoices, type SlotChoice } from "#app/domain/slot-choices";
import { claimBrowserUnlocks, hasUnlocked, type BrowserUnlock } from "../access-codes.server";
import { findEvent, type EventView } from "../events.server";
import { liveOfferOf } from "../waitlist.server";
import { liveHoldWhere, placesTaken } from "./places.server";

export interface BookingPage {
  event: EventView;
  /** a private event this person has not unlocked with its code: they go back to enter it */
  locked: boolean;
  /** events whose unlock moved from this browser's cookie to the person (drop them from the cookie) */
  claimedFromBrowser: string[];
  eligibility: Eligibility;
  choices: SlotChoice[];
  /** this person's booking for the event that is confirmed, or held / awaiting payment and still live */
  current: {
    reference: string;
    status: string;
    slotTime: string;
    holdExpiresAt: Date | null;
  } | null;
  /**
   * a place the waiting list is holding for this person (its time shows as taken among the
   * choices, as it is for everyone else): taken on its own page, `/waiting-list/{entryId}`
   */
  offer: { entryId: string; slotTime: string; expiresAt: Date } | null;
}

/**
 * What the booking page shows one person for one event: whether they may book it (the private
 * event's code, age on the day, NHS number for the laboratory that needs one), every time marked
 * available, full or passed, and any booking of theirs that is already under way. A code given in
 * this browser before signing in (`browserUnlocks`, from its signed cookie) becomes theirs here.
 */
export async function bookingPage(
  db: Db,
  input: { userId: string; eventId: string | undefined; browserUnlocks: readonly BrowserUnlock[] },
  now = new Date(),
): Promise<BookingPage | null> {
  const event = await findEvent(db, input.eventId, now);
  if (!event) return null;
  let locked = false;
  let claimedFromBrowser: string[] = [];
  if (event.is_private) {
    const fromBrowser = input.browserUnlocks.filter((unlock) => unlock.eventId === event.id);
    if (fromBrowser.length > 0)
      claimedFromBrowser = (await claimBrowserUnlocks(db, input.userId, fromBrowser, now)).map(
        (unlock) => unlock.eventId,
      );
    locked = !(await hasUnlocked(db, event.id, input.userId));
  }
  const [person] = await db
    .select({ dateOfBirth: profile.dateOfBirth, nhsNumber: profile.nhsNumber })
    .from(profile)
    .where(eq(profile.userId, input.userId));
  const [current] = await db
    .select({
      reference: booking.reference,
      status: booking.status,
      slotTime: booking.slotTime,
      holdExpiresAt: booking.holdExpiresAt,
    })
    .from(booking)
    .where(
      and(
        eq(booking.eventId, event.id),
        eq(booking.userId, input.userId),
        or(eq(booking.status, "confirmed"), liveHoldWhere(now)),
      ),
    );
  const offer = await liveOfferOf(db, event.id, input.userId, now);
  const taken = await placesTaken(db, event.id, now);
  const choices =
    event.booking_status === "bookable"
      ? slotChoices(
          {
            eventDate: event.event_date,
            startTime: event.start_time,
            endTime: event.end_time,
            sessionDuration: event.session_duration,
            placesPerSlot: event.places_per_slot,
          },
          taken.perSlot,
          now,
        )
      : [];
  return {
    event,
    locked,
    claimedFromBrowser,
    eligibility: bookingEligibility(person ?? { dateOfBirth: null, nhsNumber: null }, {
      eventDate: event.event_date,
      labName: event.lab_name,
    }),
    choices,
    current: current ?? null,
    offer: offer
      ? { entryId: offer.id, slotTime: offer.offeredSlotTime!, expiresAt: offer.offerExpiresAt! }
      : null,
  };
}
