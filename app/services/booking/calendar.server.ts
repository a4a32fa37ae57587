import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import { bookingCalendar } from "#app/domain/calendar";
import type { Booking, EventRow } from "./places.server";

/** A booking's calendar entry (.ics): in the confirmation, on "My bookings", and cancelled. */

/** The site's host name: calendar UIDs are "MHAT-…@host", unique to this site. */
export function siteHost(): string {
  try {
    return new URL(config().publicBaseUrl).hostname || "localhost";
  } catch {
    return "localhost";
  }
}

/**
 * The entry for the booking's current time (its `calendarVersion`, so the UID is the one the
 * person already has), to add it (PUBLISH) or take it off his calendar (CANCEL).
 */
export function calendarEntryFor(
  row: Pick<Booking, "reference" | "slotTime" | "calendarVersion" | "paymentStatus" | "pricePence">,
  ev: EventRow,
  address: string,
  options: { stamp: Date; method?: "PUBLISH" | "CANCEL" },
): string {
  return bookingCalendar({
    reference: row.reference,
    eventName: ev.name,
    eventDate: ev.eventDate,
    slotTime: row.slotTime,
    sessionMinutes: ev.sessionDuration,
    location: address,
    latitude: ev.latitude,
    longitude: ev.longitude,
    uidHost: siteHost(),
    stamp: options.stamp,
    calendarVersion: row.calendarVersion,
    method: options.method ?? "PUBLISH",
    paidPence: row.paymentStatus === "paid" ? row.pricePence : 0,
  });
}

/** The attachment's or download's file name. */
export const calendarFileName = (reference: string) =>
  `${organisation.shortName.toLowerCase()}-booking-${reference}.ics`;
