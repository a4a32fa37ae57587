import { and, eq, gt, inArray, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, event, user, waitlistEntry } from "#app/db/schema";
import { HOLD_STATUSES } from "#app/domain/booking-lifecycle";
import { availableSlots, bookingWindow } from "#app/domain/events";
import { hasUnlocked } from "../access-codes.server";

/**
 * Places: what an event's bookings take at an instant, counted from the bookings themselves.
 * A confirmed booking takes its place for good; a hold (held, awaiting payment) takes one until
 * its `hold_expires_at`, so an expired hold frees its place at that instant with no job needed.
 * A waiting-list offer (`waitlist_entry`, offered) takes its offered time's place the same way
 * until its `offer_expires_at`, so nobody else can book the place held for the person offered it.
 *
 * Capacity is decided inside one transaction per change: each locks the event's row
 * (`lockEvent`) before counting, so changes to one event's places happen one after another and
 * the last place goes to exactly one person. Locks are always taken person, then event, then
 * booking, so two transactions never wait for each other in a circle.
 */

export type Booking = typeof booking.$inferSelect;
export type EventRow = typeof event.$inferSelect;

/** A hold that still keeps its place at `now` (the SQL twin of `isHoldLive`). */
export function liveHoldWhere(now: Date): SQL {
  return and(inArray(booking.status, [...HOLD_STATUSES]), gt(booking.holdExpiresAt, now))!;
}

/** A booking that takes a place at `now` (the SQL twin of `takesPlace`). */
export function takesPlaceWhere(now: Date): SQL {
  return or(
    eq(booking.status, "confirmed"),
    liveHoldWhere(now),
    and(eq(booking.status, "awaiting_payment"), isNotNull(booking.captureRequestId)),
  )!;
}

/** A waiting-list offer that still holds its place at `now` (the SQL twin of `isOfferLive`). */
export function liveOfferWhere(now: Date): SQL {
  return and(eq(waitlistEntry.status, "offered"), gt(waitlistEntry.offerExpiresAt, now))!;
}

/**
 * Places taken per event at `now`, as a subquery to join on `eventId`: `taken` and `held` (live
 * holds and live waiting-list offers: places not confirmed yet).
 */
export function placesTakenByEvent(db: Db, now: Date) {
  const holds = db
    .select({
      eventId: booking.eventId,
      confirmed: sql<boolean>`${booking.status} = 'confirmed'`.as("confirmed"),
    })
    .from(booking)
    .where(takesPlaceWhere(now));
  const offers = db
    .select({ eventId: waitlistEntry.eventId, confirmed: sql<boolean>`false`.as("confirmed") })
    .from(waitlistEntry)
    .where(liveOfferWhere(now));
  const rows = holds.unionAll(offers).as("place_rows");
  return db
    .select({
      eventId: rows.eventId,
      taken: sql<number>`count(*)::int`.as("taken"),
      held: sql<number>`count(*) filter (where not ${rows.confirmed})::int`.as("held"),
    })
    .from(rows)
    .groupBy(rows.eventId)
    .as("places");
}

export interface PlacesTaken {
  /** per slot ("HH:mm"): confirmed bookings and live holds */
  perSlot: Map<string, number>;
  /** every place taken */
  taken: number;
  /** of those, live holds and live waiting-list offers */
  held: number;
  /** with `userId`: whether that person has one of the counted bookings */
  mine: boolean;
  /** of `users`, those with a counted booking or a live waiting-list offer at this event */
  holders: Set<string>;
}

/**
 * The places an event's bookings and live waiting-list offers take at `now`, in one statement.
 * The booking transaction calls this while it holds the event's row lock, leaving out the booking
 * it is moving or renewing, or the offer whose place it is taking. `users`: people to look for
 * among those taking places (`holders`), for a read shared by several requests at once.
 */
export async function placesTaken(
  db: Db,
  eventId: string,
  now: Date,
  options: {
    exceptBookingId?: string;
    exceptOfferId?: string;
    userId?: string;
    users?: readonly string[];
  } = {},
): Promise<PlacesTaken> {
  const { rows } = (await db.execute(sql`
    select slot_time, count(*)::int as taken, (count(*) filter (where not confirmed))::int as held,
      coalesce(bool_or(kind = 'booking' and user_id = ${options.userId ?? null}::text), false) as mine,
      array_agg(distinct user_id) filter (where user_id = any(${sql.param(options.users ?? [])}::text[])) as holders
    from (
      select ${booking.slotTime} as slot_time, ${booking.status} = 'confirmed' as confirmed,
          ${booking.userId} as user_id, 'booking' as kind
        from ${booking}
        where ${and(
          eq(booking.eventId, eventId),
          takesPlaceWhere(now),
          options.exceptBookingId ? ne(booking.id, options.exceptBookingId) : undefined,
        )}
      union all
      select ${waitlistEntry.offeredSlotTime}, false, ${waitlistEntry.userId}, 'offer'
        from ${waitlistEntry}
        where ${and(
          eq(waitlistEntry.eventId, eventId),
          liveOfferWhere(now),
          options.exceptOfferId ? ne(waitlistEntry.id, options.exceptOfferId) : undefined,
        )}
    ) as place_rows
    group by slot_time`)) as unknown as {
    // Both drivers answer with the rows in `rows`.
    rows: {
      slot_time: string;
      taken: number;
      held: number;
      mine: boolean;
      holders: string[] | null;
    }[];
  };
  const result: PlacesTaken = {
    perSlot: new Map(),
    taken: 0,
    held: 0,
    mine: false,
    holders: new Set(),
  };
  for (const row of rows) {
    result.perSlot.set(row.slot_time, row.taken);
    result.taken += row.taken;
    result.held += row.held;
    result.mine ||= row.mine;
    for (const holder of row.holders ?? []) result.holders.add(holder);
  }
  return result;
}

/**
 * `taken` without one not yet confirmed place at each of these times: what `placesTaken` counts
 * leaving out a live hold or a live offer read with it (as its `exceptBookingId` and
 * `exceptOfferId` would), for a caller that read those beside the count.
 */
export function withoutPlaces(
  taken: PlacesTaken,
  slots: (string | null | undefined)[],
): PlacesTaken {
  const perSlot = new Map(taken.perSlot);
  let { taken: total, held } = taken;
  for (const slot of slots) {
    if (!slot) continue;
    perSlot.set(slot, (perSlot.get(slot) ?? 0) - 1);
    total--;
    held--;
  }
  return { ...taken, perSlot, taken: total, held };
}

/**
 * Locks the person's row, first of all locks: a person's holds, renewals and payments then take
 * turns, so the one-hold-per-person rule cannot be raced. `no key update` leaves other rows'
 * foreign keys to the person unblocked.
 */
export async function lockPerson(tx: Db, userId: string): Promise<void> {
  await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for("no key update");
}

/**
 * Why this event is closed to this person at all, whatever its places: not published (a draft,
 * or cancelled), or private and not unlocked by them with a code that still works. Taking a place
 * and bringing a lapsed hold back both ask it.
 */
export async function eventClosedTo(
  db: Db,
  row: EventRow,
  userId: string,
): Promise<"event-not-found" | "locked" | null> {
  if (row.status !== "published") return "event-not-found";
  if (!row.isPublic && !(await hasUnlocked(db, row.id, userId))) return "locked";
  return null;
}

export async function lockEvent(tx: Db, eventId: string): Promise<EventRow | undefined> {
  const [row] = await tx.select().from(event).where(eq(event.id, eventId)).for("update");
  return row;
}

export async function lockBooking(tx: Db, bookingId: string): Promise<Booking> {
  const [row] = await tx.select().from(booking).where(eq(booking.id, bookingId)).for("update");
  if (!row) throw new Error("booking vanished while locked");
  return row;
}

/** Postgres returns times as "HH:mm:ss"; the site speaks "HH:mm". */
export const hhmm = (time: string) => time.slice(0, 5);

export type PlaceProblem = "event-unavailable" | "slot-unavailable";

/**
 * Whether a place at this slot can be taken, given the places taken: the booking window must be
 * open (not passed, not closed by the 24-hour rule, places left once holds are counted) and the
 * slot one of the event's, still ahead, with a place left.
 */
export function placeProblemGiven(
  row: EventRow,
  taken: PlacesTaken,
  slotTime: string,
  now: Date,
): PlaceProblem | null {
  const timing = {
    eventDate: row.eventDate,
    startTime: hhmm(row.startTime),
    endTime: hhmm(row.endTime),
  };
  const window = bookingWindow(
    {
      ...timing,
      totalSpaces: row.totalSpaces,
      bookedSpaces: taken.taken,
      exclusiveFor: row.exclusiveFor,
    },
    now,
  );
  if (window !== "bookable") return "event-unavailable";
  const open = availableSlots(
    { ...timing, sessionDuration: row.sessionDuration, placesPerSlot: row.placesPerSlot },
    taken.perSlot,
    now,
  );
  return open.includes(slotTime) ? null : "slot-unavailable";
}

/**
 * Whether a lapsed hold may come back, as a new hold would be taken: the event still open to its
 * person and its place still free. Call it with the person, the event and the booking locked.
 */
export async function canBringBack(
  tx: Db,
  ev: EventRow,
  row: Booking,
  now: Date,
): Promise<boolean> {
  return (
    (await eventClosedTo(tx, ev, row.userId)) === null &&
    (await placeProblem(tx, ev, row.slotTime, now, row.id)) === null
  );
}

/** Ends a booking whose hold ran out and did not come back. */
export async function expireBooking(tx: Db, bookingId: string, now: Date): Promise<void> {
  await tx
    .update(booking)
    .set({ status: "expired", updatedAt: now })
    .where(eq(booking.id, bookingId));
}

/**
 * `placeProblemGiven` on a fresh count. Call it with the event's row locked. `except` leaves out
 * the booking being moved or renewed, or the waiting-list offer whose place is being taken.
 */
export async function placeProblem(
  tx: Db,
  row: EventRow,
  slotTime: string,
  now: Date,
  except: string | { bookingId?: string; offerId?: string } = {},
): Promise<PlaceProblem | null> {
  const { bookingId, offerId } = typeof except === "string" ? { bookingId: except } : except;
  return placeProblemGiven(
    row,
    await placesTaken(tx, row.id, now, { exceptBookingId: bookingId, exceptOfferId: offerId }),
    slotTime,
    now,
  );
}
