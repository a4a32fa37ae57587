import {
  addLondonDays,
  formatTimeOfDay,
  londonDate,
  londonInstant,
  parseTimeOfDay,
} from "./london-time";

/** The event fields the rules need; dates are London "yyyy-MM-dd", times "HH:mm". */
export interface EventTiming {
  eventDate: string;
  startTime: string;
  endTime: string;
}

export interface EventCapacity {
  totalSpaces: number;
  /** every place taken: confirmed bookings and live holds (the spec's `booked_spaces`) */
  bookedSpaces: number;
}

export type EventCategory = "community" | "freemasons" | "corporate";
export const EVENT_CATEGORIES: readonly EventCategory[] = ["community", "freemasons", "corporate"];

/** exclusive_for value that marks an event reserved for one employer's staff. */
export const CORPORATE_ONLY = "CORPORATE";

/** Non-corporate events close to booking this long before they end. */
export const CLOSING_WINDOW_MS = 24 * 60 * 60 * 1000;

export function eventStart(event: EventTiming): Date {
  return londonInstant(event.eventDate, event.startTime);
}

export function eventEnd(event: EventTiming): Date {
  return londonInstant(event.eventDate, event.endTime);
}

/** An event is upcoming while its end is in the future. */
export function isUpcoming(event: EventTiming, now: Date): boolean {
  return eventEnd(event).getTime() > now.getTime();
}

export function spacesLeft(event: EventCapacity): number {
  return Math.max(0, event.totalSpaces - event.bookedSpaces);
}

/** Where an event stands for someone who wants to book it (shown on its card and page). */
export type BookingWindow = "passed" | "full" | "closed" | "bookable";

/** An event reserved for the staff of the employer that hosts it (`exclusive_for` CORPORATE). */
export function isCorporateOnly(exclusiveFor: string | null | undefined): boolean {
  return exclusiveFor?.trim().toUpperCase() === CORPORATE_ONLY;
}

/**
 * The booking window: whether an event takes bookings at `now`, and if not, why.
 * Event Passed when its end is before now. Fully Booked ("full") when no spaces remain. Booking
 * closed ("closed") when it is not corporate-only and its end is within 24 hours, even with
 * spaces left. Otherwise bookable. Corporate-only events stay bookable to the end, because staff
 * often book late.
 */
export function bookingWindow(
  event: EventTiming & EventCapacity & { exclusiveFor: string | null },
  now: Date,
): BookingWindow {
  const end = eventEnd(event).getTime();
  if (end < now.getTime()) return "passed";
  if (spacesLeft(event) <= 0) return "full";
  if (!isCorporateOnly(event.exclusiveFor) && end - now.getTime() <= CLOSING_WINDOW_MS)
    return "closed";
  return "bookable";
}

export type DateWindow = "today" | "next-week" | "next-month" | "future-events";
export const DATE_WINDOWS: readonly DateWindow[] = [
  "today",
  "next-week",
  "next-month",
  "future-events",
];

export const DATE_WINDOW_LABELS: Record<DateWindow, string> = {
  today: "What's on today",
  "next-week": "What's on next week",
  "next-month": "What's on next month",
  "future-events": "All Future Events",
};

/**
 * The London dates (inclusive) a window covers: today; the next 7 days; the next 31 days;
 * or everything from today on.
 */
export function dateWindowRange(
  window: DateWindow,
  now: Date,
): { from: string; to: string | null } {
  const today = londonDate(now);
  switch (window) {
    case "today":
      return { from: today, to: today };
    case "next-week":
      return { from: today, to: addLondonDays(today, 7) };
    case "next-month":
      return { from: today, to: addLondonDays(today, 31) };
    case "future-events":
      return { from: today, to: null };
  }
}

export function isInDateWindow(eventDate: string, window: DateWindow, now: Date): boolean {
  const { from, to } = dateWindowRange(window, now);
  return eventDate >= from && (to === null || eventDate <= to);
}

/**
 * Slot start times from start to end in steps of the session length, as "HH:mm". A slot must
 * finish by the end time. Times are London wall-clock times, as printed on the invitation.
 */
export function generateSlots(
  startTime: string,
  endTime: string,
  sessionMinutes: number,
): string[] {
  const start = parseTimeOfDay(startTime);
  const end = parseTimeOfDay(endTime);
  if (!Number.isInteger(sessionMinutes) || sessionMinutes <= 0)
    throw new Error("Session length must be a positive number of minutes.");
  const slots: string[] = [];
  for (let minute = start; minute + sessionMinutes <= end; minute += sessionMinutes)
    slots.push(formatTimeOfDay(minute));
  return slots;
}

/** The slots still offered: in the future, and with places left (per-slot bookings are counted by the caller). */
export function availableSlots(
  event: EventTiming & { sessionDuration: number; placesPerSlot: number },
  bookedPerSlot: ReadonlyMap<string, number>,
  now: Date,
): string[] {
  return generateSlots(event.startTime, event.endTime, event.sessionDuration).filter(
    (slot) =>
      londonInstant(event.eventDate, slot).getTime() > now.getTime() &&
      (bookedPerSlot.get(slot) ?? 0) < event.placesPerSlot,
  );
}

/** Money is held in pence and shown as pounds with two decimals (kept in ./pricing, which has no imports). */
export { formatPounds } from "./pricing";

export function joinAddress(parts: (string | null | undefined)[]): string {
  return parts.filter((part): part is string => Boolean(part && part.trim())).join(", ");
}

/** An event's address on one line, as its page, e-mails and calendar entries give it. */
export function eventAddress(ev: {
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  postcode: string | null;
  country: string | null;
}): string {
  return joinAddress([ev.addressLine1, ev.addressLine2, ev.city, ev.postcode, ev.country]);
}
