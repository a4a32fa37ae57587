/**
 * The waiting list of a fully booked event, as pure rules. A person joins when no time is free;
 * when a place frees, the first person waiting is offered it, held for them alone for a while; an
 * offer not taken in time lapses and the place goes to the next person.
 *
 * An entry's `status`: waiting (in the queue), offered (a place is held for them until
 * `offerExpiresAt`), accepted (they took the offered place as a hold), left (they took themselves
 * off, or turned the offer down), lapsed (the offer ran out), closed (staff cancelled the event).
 * Only waiting and offered are active: one active entry per person per event.
 */

import { CLOSING_WINDOW_MS, eventEnd, isCorporateOnly, type EventTiming } from "./events";
import { londonInstant } from "./london-time";

export const WAITLIST_STATUSES = [
  "waiting",
  "offered",
  "accepted",
  "left",
  "lapsed",
  "closed",
] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** The statuses that keep someone on the list (one such entry per person per event). */
export const ACTIVE_WAITLIST_STATUSES = ["waiting", "offered"] as const satisfies WaitlistStatus[];

export interface WaitlistOffer {
  status: WaitlistStatus;
  offerExpiresAt: Date | null;
}

/**
 * An offer that still holds its place at `now`: offered, and its end still ahead (the SQL twin is
 * `liveOfferWhere`). One that is offered but not live has lapsed: the worker marks it so and
 * offers the place again.
 */
export function isOfferLive(entry: WaitlistOffer, now: Date): boolean {
  return (
    entry.status === "offered" &&
    entry.offerExpiresAt !== null &&
    entry.offerExpiresAt.getTime() > now.getTime()
  );
}

/**
 * The last instant anyone may still book the event: its end for a corporate-only event, otherwise
 * 24 hours before its end (the booking window's closing rule in `events.ts`).
 */
export function bookingClosesAt(event: EventTiming & { exclusiveFor: string | null }): Date {
  const end = eventEnd(event).getTime();
  return new Date(isCorporateOnly(event.exclusiveFor) ? end : end - CLOSING_WINDOW_MS);
}

/**
 * When an offer of `slotTime` made at `now` lapses: `offerHours` from now, but never after the
 * offered time starts or booking closes, since the place could not be taken after that.
 */
export function offerExpiry(
  event: EventTiming & { exclusiveFor: string | null },
  slotTime: string,
  now: Date,
  offerHours: number,
): Date {
  return new Date(
    Math.min(
      now.getTime() + offerHours * 60 * 60_000,
      londonInstant(event.eventDate, slotTime).getTime(),
      bookingClosesAt(event).getTime(),
    ),
  );
}

/**
 * Whether someone may join the waiting list at `now`: no time can be booked (`openSlots` is 0, or
 * every place is taken), yet booking has not closed, so a freed place could still be offered.
 */
export function waitlistOpen(
  event: EventTiming & { exclusiveFor: string | null },
  openSlots: number,
  now: Date,
): boolean {
  return openSlots === 0 && bookingClosesAt(event).getTime() > now.getTime();
}

export interface QueuedEntry {
  id: string;
  joinedAt: Date;
}

/** Queue order: who joined first, then the id, so that two joining in the same instant still have an order. */
export function compareQueue(a: QueuedEntry, b: QueuedEntry): number {
  return a.joinedAt.getTime() - b.joinedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Who is offered the free places: the first `freePlaces` people waiting, in queue order (people
 * with an offer already are not waiting, so nobody gets two).
 */
export function nextInLine<T extends QueuedEntry & { status: WaitlistStatus }>(
  entries: readonly T[],
  freePlaces: number,
): T[] {
  if (freePlaces <= 0) return [];
  return entries
    .filter((entry) => entry.status === "waiting")
    .sort(compareQueue)
    .slice(0, freePlaces);
}

/**
 * The free places to offer, one per place: for each time still ahead, its places not taken, in
 * time order, but never more than the event's places left overall. Times are "HH:mm".
 */
export function freePlaces(
  openSlots: readonly string[],
  takenPerSlot: ReadonlyMap<string, number>,
  placesPerSlot: number,
  placesLeftOverall: number,
): string[] {
  const places: string[] = [];
  for (const slot of [...openSlots].sort()) {
    const free = placesPerSlot - (takenPerSlot.get(slot) ?? 0);
    for (let i = 0; i < free && places.length < placesLeftOverall; i++) places.push(slot);
  }
  return places;
}
