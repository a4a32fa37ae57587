import { bookingDeadlineSentences } from "./terms-wording";
import { createEvent, type EventAttributes } from "ics";
import { organisation } from "#app/content/organisation";
import { formatTimeOfDay, londonInstant, parseTimeOfDay } from "./london-time";

/**
 * The calendar entry (.ics) sent with a booking confirmation. Times are written as UTC instants,
 * worked out from the London date and wall-clock times, so every calendar shows the right local
 * time, in Britain or abroad, on the days the clocks change too. It says where and when, and how
 * to change the booking: never anything about the person's health.
 */
export interface CalendarBooking {
  reference: string;
  eventName: string;
  /** London date, "yyyy-MM-dd" */
  eventDate: string;
  /** the appointment's start, London wall-clock "HH:mm" */
  slotTime: string;
  sessionMinutes: number;
  /** the joined address */
  location: string;
  latitude?: number | null;
  longitude?: number | null;
  /** the site's host name, so the UID ("MHAT-…@host") is unique to this site and stable for the booking */
  uidHost: string;
  /** DTSTAMP: when the entry was made */
  stamp: Date;
  /**
   * Which of the booking's times this is: 0 for the first, one more for each change of time. Each
   * time is its own calendar entry (its own UID), so the old one can be cancelled and the new one
   * added without either undoing the other.
   */
  calendarVersion?: number;
  /** PUBLISH adds or updates the entry; CANCEL removes it (sent for the old time after a change). */
  method?: "PUBLISH" | "CANCEL";
  /** what was paid, in pence: the description gives the last day for a full refund only then */
  paidPence?: number;
}

/** The entry's UID: stable for one time of one booking ("MHAT-…@host", then "MHAT-…-2@host"). */
export function calendarUid(reference: string, uidHost: string, calendarVersion = 0): string {
  return calendarVersion === 0
    ? `${reference}@${uidHost}`
    : `${reference}-${calendarVersion + 1}@${uidHost}`;
}

/** The appointment's end as London wall-clock "HH:mm" (the start plus the session length). */
export function slotEndTime(slotTime: string, sessionMinutes: number): string {
  return formatTimeOfDay(parseTimeOfDay(slotTime) + sessionMinutes);
}

/** The appointment's start and end as instants. */
export function appointmentInstants(
  eventDate: string,
  slotTime: string,
  sessionMinutes: number,
): { start: Date; end: Date } {
  return {
    start: londonInstant(eventDate, slotTime),
    end: londonInstant(eventDate, slotEndTime(slotTime, sessionMinutes)),
  };
}

export function bookingCalendar(booking: CalendarBooking): string {
  const { start, end } = appointmentInstants(
    booking.eventDate,
    booking.slotTime,
    booking.sessionMinutes,
  );
  const { booking: helpline } = organisation.phones;
  const cancelled = booking.method === "CANCEL";
  const attributes: EventAttributes & { timestamp: number } = {
    uid: calendarUid(booking.reference, booking.uidHost, booking.calendarVersion),
    productId: `-//${organisation.shortName}//Bookings//EN`,
    method: cancelled ? "CANCEL" : "PUBLISH",
    // A cancellation must outrank the entry it removes (RFC 5545, 3.8.7.4).
    ...(cancelled ? { sequence: 1 } : {}),
    title: `${organisation.shortName} screening: ${booking.eventName}`,
    start: start.getTime(),
    startOutputType: "utc",
    end: end.getTime(),
    endOutputType: "utc",
    location: booking.location,
    ...(booking.latitude != null && booking.longitude != null
      ? { geo: { lat: booking.latitude, lon: booking.longitude } }
      : {}),
    description: [
      `Your ${organisation.shortName} screening appointment. Booking reference: ${booking.reference}.`,
      `To change or cancel, see your booking under My bookings on our website, or call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}.`,
      ...(cancelled ? [] : bookingDeadlineSentences(start, booking.paidPence ?? 0)),
    ].join("\n"),
    status: cancelled ? "CANCELLED" : "CONFIRMED",
    busyStatus: "BUSY",
    organizer: { name: organisation.name, email: organisation.emails.bookings },
    timestamp: booking.stamp.getTime(),
  };
  const { error, value } = createEvent(attributes);
  if (error || !value) throw error ?? new Error("Could not make the calendar entry");
  return value;
}
