import { and, eq, gt, inArray, or } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, profile } from "#app/db/schema";
import { bookingEligibility, type Eligibility } from "#app/domain/eligibility";
import { slotChoices, type SlotChoice } from "#app/domain/slot-choices";
import { findEvent, placesTaken, type EventView } from "./events.server";

export interface BookingPage {
  event: EventView;
  eligibility: Eligibility;
  choices: SlotChoice[];
  /** this person's booking for the event that is confirmed, or held / awaiting payment and still live */
  current: { reference: string; status: string; slotTime: string } | null;
}

/**
 * What the booking page shows one person for one event: whether they may book it (age on the day,
 * NHS number for the laboratory that needs one), every time marked available, full or passed, and
 * any booking of theirs that is already under way.
 */
export async function bookingPage(
  db: Db,
  input: { userId: string; eventId: string | undefined },
  now = new Date(),
): Promise<BookingPage | null> {
  const event = await findEvent(db, input.eventId, now);
  if (!event) return null;
  const [person] = await db
    .select({ dateOfBirth: profile.dateOfBirth, nhsNumber: profile.nhsNumber })
    .from(profile)
    .where(eq(profile.userId, input.userId));
  const [current] = await db
    .select({ reference: booking.reference, status: booking.status, slotTime: booking.slotTime })
    .from(booking)
    .where(
      and(
        eq(booking.eventId, event.id),
        eq(booking.userId, input.userId),
        or(
          eq(booking.status, "confirmed"),
          and(
            inArray(booking.status, ["held", "awaiting_payment"]),
            gt(booking.holdExpiresAt, now),
          ),
        ),
      ),
    );
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
    eligibility: bookingEligibility(person ?? { dateOfBirth: null, nhsNumber: null }, {
      eventDate: event.event_date,
      labName: event.lab_name,
    }),
    choices,
    current: current ?? null,
  };
}
