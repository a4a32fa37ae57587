import { and, asc, eq, gte, inArray, lte, notExists, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import { type AgeRefusal, AGE_ON_THE_DAY_MESSAGES } from "#app/domain/age-on-the-day";
import type { Db } from "#app/db/client.server";
import { booking, event, profile, screeningProduct, user, waitlistEntry } from "#app/db/schema";
import { formatLondonDateTime, formatLongDate } from "#app/domain/date-labels";
import { bookingEligibility } from "#app/domain/eligibility";
import { availableSlots, bookingWindow, spacesLeft } from "#app/domain/events";
import { isUuid } from "#app/domain/ids";
import { londonDate } from "#app/domain/london-time";
import { bookingCharge, formatPounds } from "#app/domain/pricing";
import {
  ACTIVE_WAITLIST_STATUSES,
  bookingClosesAt,
  freePlaces,
  isOfferLive,
  nextInLine,
  offerExpiry,
  waitlistOpen,
  type WaitlistStatus,
} from "#app/domain/waitlist";
import { enqueueEmail } from "./email.server";
import { eventsChanged } from "./events.server";
import {
  eventClosedTo,
  hhmm,
  liveOfferWhere,
  lockEvent,
  lockPerson,
  placesTaken,
  takesPlaceWhere,
  type EventRow,
  type PlacesTaken,
} from "./booking/places.server";

/**
 * The waiting list of a fully booked event (the rules are `app/domain/waitlist.ts`). A person
 * joins when no time is free. When a place frees, the first person waiting is offered it: the
 * offer holds that place for them alone (it counts as taken in `placesTaken`) for
 * WAITLIST_OFFER_HOURS, and its e-mail is queued in the same transaction. Taking it is a normal
 * hold (`holdPlace` counts the person's own offer out); an offer not taken lapses and the place
 * goes to the next person.
 *
 * Every change to an event's list locks the event's row first (`lockEvent`), as the booking
 * services do, so offers, holds, joins and leaves of one event happen one after another: a place
 * is offered to one person at a time, and each offer is made (and e-mailed) once.
 */

export type Entry = typeof waitlistEntry.$inferSelect;

/** The booking window and the free times of an event, counted from a fresh `placesTaken`. */
function openTimes(row: EventRow, taken: PlacesTaken, now: Date) {
  const timing = {
    eventDate: row.eventDate,
    startTime: hhmm(row.startTime),
    endTime: hhmm(row.endTime),
  };
  const capacity = { totalSpaces: row.totalSpaces, bookedSpaces: taken.taken };
  const window = bookingWindow({ ...timing, ...capacity, exclusiveFor: row.exclusiveFor }, now);
  const slots =
    window === "bookable"
      ? availableSlots(
          { ...timing, sessionDuration: row.sessionDuration, placesPerSlot: row.placesPerSlot },
          taken.perSlot,
          now,
        )
      : [];
  return { timing, slots, placesLeft: spacesLeft(capacity) };
}

const timingOf = (row: EventRow) => ({
  eventDate: row.eventDate,
  startTime: hhmm(row.startTime),
  endTime: hhmm(row.endTime),
  exclusiveFor: row.exclusiveFor,
});

/** The address of the page where the person offered a place takes it (no personal data in it). */
export function offerPath(entryId: string): string {
  return `/waiting-list/${entryId}`;
}

/** The offer's e-mail: which event, which time, until when, and the link. No health data. */
function offerEmail(details: {
  to: string;
  firstName: string;
  row: EventRow;
  entryId: string;
  slotTime: string;
  expiresAt: Date;
  /** what he would pay, in pence; 0 when free */
  pricePence: number;
}) {
  const { booking: helpline } = organisation.phones;
  const link = `${config().publicBaseUrl}${offerPath(details.entryId)}`;
  return {
    to: details.to,
    subject: `A place has come up: ${details.row.name}`,
    text: [
      `Hello ${details.firstName},`,
      "",
      "Good news: a place has come up at an event you are on the waiting list for.",
      "",
      `Event: ${details.row.name}`,
      `Date: ${formatLongDate(details.row.eventDate)}`,
      `Time: ${details.slotTime} (UK time)`,
      "",
      `We are holding this place for you until ${formatLondonDateTime(details.expiresAt, " at ")}. After that it goes to the next person on the list.`,
      "",
      "To take it, follow this link (you will be asked to sign in first if you are not signed in):",
      link,
      "",
      details.pricePence > 0
        ? `Taking the place leads you to the consent form and then to payment (${formatPounds(details.pricePence)}), as when you book.`
        : "Taking the place leads you to the consent form, as when you book. This event is free.",
      "",
      "If you no longer want it, you do not need to do anything.",
      "",
      `Questions? Call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}.`,
      "",
      organisation.name,
    ].join("\n"),
  };
}

/** The e-mail when an offer ran out. */
function lapsedEmail(details: { to: string; firstName: string; row: EventRow }) {
  return {
    to: details.to,
    subject: `The place we held for you has gone: ${details.row.name}`,
    text: [
      `Hello ${details.firstName},`,
      "",
      `The place we held for you at ${details.row.name} on ${formatLongDate(details.row.eventDate)} was not taken in time, so it has gone to the next person on the waiting list.`,
      "",
      "You are no longer on the waiting list for this event. You can join it again from the event's page on our website.",
      "",
      organisation.name,
    ].join("\n"),
  };
}

const recipient = {
  email: user.email,
  firstName: sql<string>`coalesce(${profile.firstName}, ${user.name})`,
};

/** Where to write to these people, and the name to greet them by. */
function recipients(tx: Db, userIds: string[]) {
  return tx
    .select({ userId: user.id, ...recipient })
    .from(user)
    .leftJoin(profile, eq(profile.userId, user.id))
    .where(inArray(user.id, userIds));
}

/**
 * Offers the event's free places to the people first in its waiting list: one offer per free
 * place, each held at a time still free, each e-mailed in the caller's transaction. Call it inside
 * the transaction that freed a place, with the event's row locked. Returns how many were offered.
 */
export async function offerFreedPlaces(tx: Db, ev: EventRow, now: Date): Promise<number> {
  if (ev.status !== "published") return 0;
  const taken = await placesTaken(tx, ev.id, now);
  const { slots, placesLeft } = openTimes(ev, taken, now);
  const places = freePlaces(slots, taken.perSlot, ev.placesPerSlot, placesLeft);
  if (places.length === 0) return 0;
  // People waiting who have since got a place some other way are passed over (not removed).
  const placed = tx
    .select({ id: booking.id })
    .from(booking)
    .where(
      and(
        eq(booking.eventId, ev.id),
        eq(booking.userId, waitlistEntry.userId),
        takesPlaceWhere(now),
      ),
    );
  const waiting = await tx
    .select({
      id: waitlistEntry.id,
      status: waitlistEntry.status,
      joinedAt: waitlistEntry.joinedAt,
      ...recipient,
    })
    .from(waitlistEntry)
    .innerJoin(user, eq(user.id, waitlistEntry.userId))
    .leftJoin(profile, eq(profile.userId, waitlistEntry.userId))
    .where(
      and(eq(waitlistEntry.eventId, ev.id), eq(waitlistEntry.status, "waiting"), notExists(placed)),
    );
  // Everyone waiting, in turn: an entry that is no longer waiting when it is updated (left, or
  // deleted with its account, meanwhile) is passed over and the place goes to the next.
  let offered = 0;
  const pricePence = await chargeOf(tx, ev);
  for (const entry of nextInLine(waiting, waiting.length)) {
    if (offered === places.length) break;
    const slotTime = places[offered]!;
    const expiresAt = offerExpiry(timingOf(ev), slotTime, now, config().WAITLIST_OFFER_HOURS);
    const [updated] = await tx
      .update(waitlistEntry)
      .set({
        status: "offered",
        offeredSlotTime: slotTime,
        offeredAt: now,
        offerExpiresAt: expiresAt,
        updatedAt: now,
      })
      .where(and(eq(waitlistEntry.id, entry.id), eq(waitlistEntry.status, "waiting")))
      .returning({ id: waitlistEntry.id });
    if (!updated) continue;
    offered++;
    await enqueueEmail(
      tx,
      offerEmail({
        to: entry.email,
        firstName: entry.firstName,
        row: ev,
        entryId: entry.id,
        slotTime,
        expiresAt,
        pricePence,
      }),
    );
  }
  if (offered > 0) eventsChanged();
  return offered;
}

/** Lapses the event's offers whose time is up, e-mailing each person. Call it with the event locked. */
async function lapseEndedOffers(tx: Db, ev: EventRow, now: Date): Promise<number> {
  const ended = await tx
    .update(waitlistEntry)
    .set({ status: "lapsed", updatedAt: now })
    .where(
      and(
        eq(waitlistEntry.eventId, ev.id),
        eq(waitlistEntry.status, "offered"),
        lte(waitlistEntry.offerExpiresAt, now),
      ),
    )
    .returning({ userId: waitlistEntry.userId });
  if (ended.length === 0) return 0;
  const people = await recipients(
    tx,
    ended.map((row) => row.userId),
  );
  for (const person of people)
    await enqueueEmail(tx, lapsedEmail({ to: person.email, firstName: person.firstName, row: ev }));
  return ended.length;
}

/** Staff cancelled the event: the people on its waiting list are told they no longer wait. */
function closedEmail(details: { to: string; firstName: string; row: EventRow; offered: boolean }) {
  const { row } = details;
  const site = config().publicBaseUrl;
  return {
    to: details.to,
    subject: `Cancelled: ${row.name}, ${formatLongDate(row.eventDate)}`,
    text: [
      `Hello ${details.firstName},`,
      "",
      `We are sorry: ${row.name} on ${formatLongDate(row.eventDate)} has been cancelled.`,
      details.offered
        ? "The place we were holding for you from the waiting list has gone with it, and you are no longer on the waiting list."
        : "You are no longer on its waiting list.",
      "You have not been charged.",
      "",
      `To find another screening event near you, visit ${site}/book-event-main.`,
      "",
      organisation.name,
    ].join("\n"),
  };
}

/**
 * Closes the waiting list of an event staff are cancelling: everyone waiting, or holding an offer,
 * is taken off it and e-mailed, except those the cancellation writes to already about a booking of
 * theirs (`toldOtherwise`: someone waiting can have got a place meanwhile). Call it in the
 * cancelling transaction, with the event locked. Returns how many people were on the list.
 */
export async function closeWaitingList(
  tx: Db,
  ev: EventRow,
  now: Date,
  toldOtherwise: ReadonlySet<string> = new Set(),
): Promise<number> {
  const closed = await tx
    .update(waitlistEntry)
    .set({ status: "closed", updatedAt: now })
    .where(
      and(
        eq(waitlistEntry.eventId, ev.id),
        inArray(waitlistEntry.status, [...ACTIVE_WAITLIST_STATUSES]),
      ),
    )
    .returning({ userId: waitlistEntry.userId, offerExpiresAt: waitlistEntry.offerExpiresAt });
  if (closed.length === 0) return 0;
  const people = await recipients(
    tx,
    closed.map((entry) => entry.userId).filter((userId) => !toldOtherwise.has(userId)),
  );
  for (const person of people) {
    const entry = closed.find((candidate) => candidate.userId === person.userId)!;
    await enqueueEmail(
      tx,
      closedEmail({
        to: person.email,
        firstName: person.firstName,
        row: ev,
        // An offer still running held a place for them (the status it had is gone by now).
        offered: entry.offerExpiresAt !== null && entry.offerExpiresAt.getTime() > now.getTime(),
      }),
    );
  }
  return closed.length;
}

/**
 * The worker's job: for each published event still ahead with a waiting list, lapse the offers
 * whose time is up and offer the places free now (freed by a hold running out, a cancellation by
 * staff, a lapsed offer), each event in its own transaction with its row locked. Two servers
 * running it at once take turns on each event, and the second finds nothing left to do.
 */
export async function offerPlacesFromWaitingLists(
  db: Db,
  now = new Date(),
): Promise<{ lapsed: number; offered: number }> {
  const events = await db
    .selectDistinct({ id: waitlistEntry.eventId })
    .from(waitlistEntry)
    .innerJoin(event, eq(event.id, waitlistEntry.eventId))
    .where(
      and(
        inArray(waitlistEntry.status, [...ACTIVE_WAITLIST_STATUSES]),
        eq(event.status, "published"),
        gte(event.eventDate, londonDate(now)),
      ),
    );
  let lapsed = 0;
  let offered = 0;
  for (const { id } of events) {
    await db.transaction(async (tx) => {
      const row = await lockEvent(tx, id);
      if (!row) return;
      lapsed += await lapseEndedOffers(tx, row, now);
      offered += await offerFreedPlaces(tx, row, now);
    });
  }
  return { lapsed, offered };
}

/** Where a person stands on an event's waiting list. */
export type WaitlistPlace =
  | { status: "waiting"; entryId: string; position: number }
  | { status: "offered"; entryId: string; slotTime: string; expiresAt: Date };

export interface WaitlistState {
  /**
   * no time can be booked now, but booking has not closed, and this person has no place here:
   * joining makes sense
   */
  open: boolean;
  /** booking has closed for good (the event is within its closing window, or over) */
  closed: boolean;
  /** this person has a place here already: a booking, or a hold */
  hasPlace: boolean;
  /** this person's age on the event's day is outside the range: no use offering him the list */
  ageRefusal: AgeRefusal | null;
  /** this person's place on the list, if they are on it */
  mine: WaitlistPlace | null;
}

/** The person's active entry on the event's list, with their position (1 = next in line). */
async function placeOf(
  db: Db,
  eventId: string,
  userId: string,
  now: Date,
): Promise<WaitlistPlace | null> {
  const [entry] = await db
    .select()
    .from(waitlistEntry)
    .where(
      and(
        eq(waitlistEntry.eventId, eventId),
        eq(waitlistEntry.userId, userId),
        inArray(waitlistEntry.status, [...ACTIVE_WAITLIST_STATUSES]),
      ),
    );
  if (!entry) return null;
  if (entry.status === "offered") {
    // An offer whose time is up is not theirs any more, whether or not the worker has been by.
    if (!isOfferLive(entry, now)) return null;
    return {
      status: "offered" as const,
      entryId: entry.id,
      slotTime: entry.offeredSlotTime!,
      expiresAt: entry.offerExpiresAt!,
    };
  }
  const [ahead] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(waitlistEntry)
    .where(
      and(
        eq(waitlistEntry.eventId, eventId),
        eq(waitlistEntry.status, "waiting"),
        sql`(${waitlistEntry.joinedAt}, ${waitlistEntry.id}) < (${entry.joinedAt.toISOString()}::timestamptz, ${entry.id}::uuid)`,
      ),
    );
  return { status: "waiting" as const, entryId: entry.id, position: (ahead?.count ?? 0) + 1 };
}

/** A waiting list this person is on, for "My bookings". */
export interface MyWaitingList {
  eventId: string;
  eventName: string;
  eventDate: string;
  place: WaitlistPlace;
}

/**
 * The waiting lists this person is on now (waiting, or offered a place still held), at published
 * events, soonest first: "My bookings" lists them, as he would otherwise find them only on each
 * event's page.
 */
export async function myWaitingLists(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<MyWaitingList[]> {
  const rows = await db
    .select({ eventId: event.id, eventName: event.name, eventDate: event.eventDate })
    .from(waitlistEntry)
    .innerJoin(event, eq(event.id, waitlistEntry.eventId))
    .where(
      and(
        eq(waitlistEntry.userId, userId),
        inArray(waitlistEntry.status, [...ACTIVE_WAITLIST_STATUSES]),
        eq(event.status, "published"),
        gte(event.eventDate, londonDate(now)),
      ),
    )
    .orderBy(asc(event.eventDate), asc(event.startTime), asc(event.id));
  const lists: MyWaitingList[] = [];
  for (const row of rows) {
    const place = await placeOf(db, row.eventId, userId, now);
    if (place) lists.push({ ...row, place });
  }
  return lists;
}

/**
 * What the event's page shows about its waiting list: whether it is open to join, and where this
 * person (if signed in) stands on it.
 */
export async function waitlistState(
  db: Db,
  input: { eventId: string; userId: string | null },
  now = new Date(),
): Promise<WaitlistState | null> {
  if (!isUuid(input.eventId)) return null;
  const [row] = await db.select().from(event).where(eq(event.id, input.eventId));
  if (!row || row.status !== "published") return null;
  const taken = await placesTaken(db, row.id, now, { userId: input.userId ?? undefined });
  const { slots } = openTimes(row, taken, now);
  return {
    // Someone with a place here already (booked, or holding one) has no need of the list.
    open: !taken.mine && waitlistOpen(timingOf(row), slots.length, now),
    closed: bookingClosesAt(timingOf(row)).getTime() <= now.getTime(),
    hasPlace: taken.mine,
    ageRefusal: input.userId ? await ageRefusalOf(db, input.userId, row.eventDate) : null,
    mine: input.userId ? await placeOf(db, row.id, input.userId, now) : null,
  };
}

/**
 * Whether his age on the event's day keeps him off its waiting list (missing details do not:
 * they can be added before a place comes up).
 */
async function ageRefusalOf(db: Db, userId: string, eventDate: string): Promise<AgeRefusal | null> {
  const [person] = await db
    .select({ dateOfBirth: profile.dateOfBirth, nhsNumber: profile.nhsNumber })
    .from(profile)
    .where(eq(profile.userId, userId));
  const { problems } = bookingEligibility(person ?? { dateOfBirth: null, nhsNumber: null }, {
    eventDate,
    labName: null,
  });
  return (
    problems.find(
      (problem): problem is AgeRefusal => problem === "too-young" || problem === "too-old",
    ) ?? null
  );
}

export type JoinResult =
  | { ok: true; position: number }
  | {
      ok: false;
      reason:
        "event-not-found" | "locked" | AgeRefusal | "already-booked" | "times-free" | "closed";
    };

/** Why someone cannot join, in words for the event's page. */
export const WAITLIST_MESSAGES = {
  "event-not-found": "Event not found",
  locked: "This is a private event. Please enter its access code on the event's page first.",
  ...AGE_ON_THE_DAY_MESSAGES,
  "already-booked": "You already have a booking for this event.",
  "times-free": "A time has become free at this event: you can book it now.",
  closed: "This event is no longer taking bookings, so its waiting list has closed.",
} as const;

/**
 * Joins the event's waiting list: only when no time can be booked and booking has not closed, for
 * someone who may book the event (a private event unlocked; in the age range on the day) and has
 * no place there yet. Joining again while on the list keeps their place.
 */
export async function joinWaitlist(
  db: Db,
  input: { eventId: string; userId: string },
  now = new Date(),
): Promise<JoinResult> {
  if (!isUuid(input.eventId)) return { ok: false, reason: "event-not-found" };
  return db.transaction(async (tx): Promise<JoinResult> => {
    await lockPerson(tx, input.userId);
    const row = await lockEvent(tx, input.eventId);
    const closedTo = row ? await eventClosedTo(tx, row, input.userId) : "event-not-found";
    if (closedTo) return { ok: false, reason: closedTo };
    const ev = row!;
    const existing = await placeOf(tx, ev.id, input.userId, now);
    if (existing?.status === "waiting") return { ok: true, position: existing.position };
    // Missing details can be added before a place comes up; an age outside the range cannot.
    const ageRefusal = await ageRefusalOf(tx, input.userId, ev.eventDate);
    if (ageRefusal) return { ok: false, reason: ageRefusal };
    const taken = await placesTaken(tx, ev.id, now, { userId: input.userId });
    // Their own offer, or a booking of theirs, is a place of theirs already.
    if (taken.mine || existing?.status === "offered")
      return { ok: false, reason: "already-booked" };
    const { slots } = openTimes(ev, taken, now);
    if (!waitlistOpen(timingOf(ev), slots.length, now))
      return { ok: false, reason: slots.length > 0 ? "times-free" : "closed" };
    // An offer that ran out and was not lapsed yet is lapsed now: one active entry per person.
    await tx
      .update(waitlistEntry)
      .set({ status: "lapsed", updatedAt: now })
      .where(
        and(
          eq(waitlistEntry.eventId, ev.id),
          eq(waitlistEntry.userId, input.userId),
          eq(waitlistEntry.status, "offered"),
        ),
      );
    await tx.insert(waitlistEntry).values({
      eventId: ev.id,
      userId: input.userId,
      status: "waiting",
      joinedAt: now,
      updatedAt: now,
    });
    const joined = await placeOf(tx, ev.id, input.userId, now);
    return { ok: true, position: joined?.status === "waiting" ? joined.position : 1 };
  });
}

/**
 * Takes the person off the event's waiting list (or turns down the place offered to them, which
 * is then offered to the next person in the same transaction). Returns whether they were on it.
 */
export async function leaveWaitlist(
  db: Db,
  input: { userId: string } & ({ eventId: string } | { entryId: string }),
  now = new Date(),
): Promise<boolean> {
  const byEntry = "entryId" in input;
  const id = byEntry ? input.entryId : input.eventId;
  if (!isUuid(id)) return false;
  const eventId = byEntry
    ? (
        await db
          .select({ eventId: waitlistEntry.eventId })
          .from(waitlistEntry)
          .where(and(eq(waitlistEntry.id, id), eq(waitlistEntry.userId, input.userId)))
      )[0]?.eventId
    : id;
  if (!eventId) return false;
  return db.transaction(async (tx) => {
    const row = await lockEvent(tx, eventId);
    if (!row) return false;
    const left = await tx
      .update(waitlistEntry)
      .set({ status: "left", updatedAt: now })
      .where(
        and(
          eq(waitlistEntry.eventId, eventId),
          eq(waitlistEntry.userId, input.userId),
          byEntry ? eq(waitlistEntry.id, id) : undefined,
          inArray(waitlistEntry.status, [...ACTIVE_WAITLIST_STATUSES]),
        ),
      )
      .returning({ status: waitlistEntry.status });
    if (left.length === 0) return false;
    await offerFreedPlaces(tx, row, now);
    return true;
  });
}

/** What booking the event costs, in pence: its own price or its product's, 0 when free. */
async function chargeOf(
  db: Db,
  ev: { pricePence: number | null; productId: string; paymentRequired: boolean | null },
): Promise<number> {
  const [product] = await db
    .select({ pricePence: screeningProduct.pricePence })
    .from(screeningProduct)
    .where(eq(screeningProduct.id, ev.productId));
  return bookingCharge(ev, product?.pricePence).pricePence;
}

export interface OfferView {
  entryId: string;
  eventId: string;
  eventName: string;
  eventDate: string;
  slotTime: string;
  expiresAt: Date;
  address: string;
  /** the offer can still be taken */
  live: boolean;
  /** what became of it: offered (live or run out), accepted, left, lapsed, closed */
  status: WaitlistStatus;
  /** the hold it became, once accepted */
  bookingId: string | null;
  /** what booking it costs, in pence (0 when free) */
  pricePence: number;
}

/**
 * The place offered to this person, for the page the e-mail links to: null (a 404) for an entry
 * that is not theirs or was never an offer.
 */
export async function offerFor(
  db: Db,
  input: { entryId: string; userId: string },
  now = new Date(),
): Promise<OfferView | null> {
  if (!isUuid(input.entryId)) return null;
  const [found] = await db
    .select({ entry: waitlistEntry, event })
    .from(waitlistEntry)
    .innerJoin(event, eq(event.id, waitlistEntry.eventId))
    .where(and(eq(waitlistEntry.id, input.entryId), eq(waitlistEntry.userId, input.userId)));
  if (!found?.entry.offeredSlotTime || !found.entry.offerExpiresAt) return null;
  const { entry, event: ev } = found;
  return {
    entryId: entry.id,
    eventId: ev.id,
    eventName: ev.name,
    eventDate: ev.eventDate,
    slotTime: entry.offeredSlotTime!,
    expiresAt: entry.offerExpiresAt!,
    address: [ev.addressLine1, ev.city, ev.postcode].join(", "),
    live: ev.status === "published" && isOfferLive(entry, now),
    status: entry.status,
    bookingId: entry.bookingId,
    pricePence: await chargeOf(db, ev),
  };
}

/**
 * The person's live offer at this event, if any: `holdPlace` counts it out of the places taken
 * (it is their place) and marks it taken with the hold it makes.
 */
export async function liveOfferOf(
  db: Db,
  eventId: string,
  userId: string,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<Entry | undefined> {
  const query = db
    .select()
    .from(waitlistEntry)
    .where(
      and(
        eq(waitlistEntry.eventId, eventId),
        eq(waitlistEntry.userId, userId),
        liveOfferWhere(now),
      ),
    );
  const [entry] = options.lock ? await query.for("update") : await query;
  return entry;
}

/**
 * Marks the offer taken by the hold just made, in the hold's transaction. If the person chose
 * another free time than the one offered, the offered time is free again: it goes to the next
 * person in line at once.
 */
export async function markOfferTaken(
  tx: Db,
  ev: EventRow,
  entry: Entry,
  bookingId: string,
  now: Date,
): Promise<void> {
  await tx
    .update(waitlistEntry)
    .set({ status: "accepted", bookingId, updatedAt: now })
    .where(eq(waitlistEntry.id, entry.id));
  await offerFreedPlaces(tx, ev, now);
}

/** One person on an event's waiting list, as the coordinator sees it. */
export interface StaffWaitlistRow {
  entryId: string;
  userId: string;
  /** 1 for the next in line; offers first, in the order they were made */
  position: number;
  name: string;
  email: string;
  joinedAt: Date;
  status: "waiting" | "offered";
  offeredSlotTime: string | null;
  offerExpiresAt: Date | null;
}

/**
 * The event's waiting list for the back office: those with a live offer, then those waiting, in
 * queue order. The caller checks the capability and audits the read (`viewAttendees`).
 */
export async function waitlistForStaff(
  db: Db,
  eventId: string,
  now: Date,
): Promise<StaffWaitlistRow[]> {
  const rows = await db
    .select({
      entryId: waitlistEntry.id,
      userId: waitlistEntry.userId,
      status: waitlistEntry.status,
      joinedAt: waitlistEntry.joinedAt,
      offeredSlotTime: waitlistEntry.offeredSlotTime,
      offerExpiresAt: waitlistEntry.offerExpiresAt,
      email: user.email,
      name: sql<string>`coalesce(nullif(trim(concat_ws(' ', ${profile.firstName}, ${profile.lastName})), ''), ${user.name})`,
    })
    .from(waitlistEntry)
    .innerJoin(user, eq(user.id, waitlistEntry.userId))
    .leftJoin(profile, eq(profile.userId, waitlistEntry.userId))
    .where(
      and(
        eq(waitlistEntry.eventId, eventId),
        inArray(waitlistEntry.status, [...ACTIVE_WAITLIST_STATUSES]),
      ),
    )
    .orderBy(asc(waitlistEntry.joinedAt), asc(waitlistEntry.id));
  const live = rows.filter((row) => isOfferLive(row, now));
  const waiting = rows.filter((row) => row.status === "waiting");
  return [...live, ...waiting].map((row, index) => ({
    ...row,
    status: row.status as "waiting" | "offered",
    position: index + 1,
  }));
}
