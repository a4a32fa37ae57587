import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, event, user } from "#app/db/schema";
import { bookingStage } from "#app/domain/booking-lifecycle";
import { closingTimeReached } from "#app/domain/check-in";
import type { ChangeRefusal } from "#app/domain/booking-change";
import { isErasedAccount } from "#app/domain/data-rights";
import { isUuid } from "#app/domain/ids";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import type { SlotChoice } from "#app/domain/slot-choices";
import {
  otherFreeTimes,
  sameEventTimeRefusal,
  staffMoveRefusal,
  type StaffMoveRefusal,
} from "#app/domain/staff-move";
import { openAttendeeBooking, openAttendeeEvent, type AttendeeEvent } from "../attendees.server";
import { recordAudit } from "../audit.server";
import { eventsChanged } from "../events.server";
import { log } from "../log.server";
import {
  eventOptions,
  hasResult,
  moveBookingRow,
  offeredTimes,
  targetRefusal,
  type ChangeEventOption,
} from "./change.server";
import { lockBooking, lockEvent, lockPerson, type Booking, type EventRow } from "./places.server";

/**
 * A coordinator moves a man's booked place to another time when he asks, by phone or in writing
 * (`booking:move`, D-190): at its own event, or at another event he could move to himself (same
 * product, price and payment, open to him, one he may book: `targetRefusal`). The policy's notice
 * is his to keep online; a coordinator may move him on the day itself, even after the time he
 * missed. What it never does: move a place he has come to or that has a sample or a result, or
 * take a time that is full or has begun. The booking row moves as his own change moves it
 * (`moveBookingRow`): payment, consent and reference go with it, he is e-mailed the new time, and
 * the move is audited.
 */

/** His own event's times, counting every place but his: the public booking window is not asked. */
const timesAtHisEvent = (db: Db, ev: EventRow, bookingId: string, now: Date) =>
  offeredTimes(db, ev, bookingId, now, { publicWindow: false });

/** What the coordinator's page shows before moving a booking for him. */
export interface StaffMovePreview {
  event: AttendeeEvent;
  reference: string;
  name: string;
  slotTime: string;
  /** the other events he could be moved to, soonest first */
  others: ChangeEventOption[];
  /** the event whose times are offered: his own, or another chosen from `others` */
  chosen: { id: string; name: string; eventDate: string; current: boolean };
  /** the chosen event's times, each free, full or passed (at his own, his time counts as free) */
  times: SlotChoice[];
  /** why it cannot be moved; null when it can */
  refusal: Exclude<StaffMoveRefusal, "not-found"> | null;
}

/**
 * The booking of this event, for the coordinator's page; null when there is none. `toEventId`
 * chooses another event's times to offer (one of `others`; his own otherwise).
 */
export async function staffMovePreview(
  db: Db,
  actor: StaffActor,
  {
    eventId,
    bookingId,
    toEventId = null,
    now = new Date(),
  }: { eventId: string; bookingId: string; toEventId?: string | null; now?: Date },
): Promise<StaffMovePreview | null> {
  assertCan(actor, "booking:move");
  const found = await openAttendeeBooking(db, actor, { eventId, bookingId, now });
  if (!found) return null;
  const { row, event: own, attendeeEvent: ev } = found;
  const preview = {
    event: ev,
    reference: row.reference,
    name: found.name,
    slotTime: row.slotTime,
  };
  const ownChoice = { id: own.id, name: own.name, eventDate: own.eventDate, current: true };
  const refusal = staffMoveRefusal({
    stage: bookingStage(row),
    hasResult: found.hasResult,
    accountDeleted: isErasedAccount({ id: row.userId, email: found.email }),
    eventCancelled: own.status === "cancelled",
    eventEnded: closingTimeReached(ev, now),
  });
  if (refusal) return { ...preview, others: [], chosen: ownChoice, times: [], refusal };

  const others = (await eventOptions(db, row, own, row.userId, now)).filter(
    (option) => !option.current,
  );
  const other = others.find((option) => option.id === toEventId);
  if (other) {
    const [target] = await db.select().from(event).where(eq(event.id, other.id));
    const times = await offeredTimes(db, target!, row.id, now);
    return { ...preview, others, chosen: { ...other, current: false }, times, refusal: null };
  }
  const times = await timesAtHisEvent(db, own, row.id, now);
  const stuck = otherFreeTimes(times, row.slotTime).length === 0 && others.length === 0;
  return {
    ...preview,
    others,
    chosen: ownChoice,
    times,
    refusal: stuck ? "no-other-time" : null,
  };
}

export type StaffMoveOutcome =
  | { ok: true; reference: string; eventId: string; slotTime: string }
  | { ok: false; reason: StaffMoveRefusal };

/**
 * Moves one booked place of this event to `slotTime`, at this event or at `toEventId`, for him.
 * One transaction, with the locks in the order his own change takes them (his, both events' by
 * id, the booking's), so that a coordinator's move, his own change or cancellation, a check-in and
 * a new booking wait for one another.
 */
export async function moveBookingForHim(
  db: Db,
  actor: StaffActor,
  input: {
    eventId: string;
    bookingId: string;
    slotTime: string;
    toEventId?: string;
    /** his time as the page showed it: a move from any other is refused */
    fromTime?: string;
  },
  now = new Date(),
): Promise<StaffMoveOutcome> {
  assertCan(actor, "booking:move");
  const ev = await openAttendeeEvent(db, actor, input.eventId, now);
  if (!ev || !isUuid(input.bookingId)) return { ok: false, reason: "not-found" };
  const toEventId = input.toEventId ?? ev.id;
  if (!isUuid(toEventId)) return { ok: false, reason: "event-not-found" };

  let moved = false;
  const outcome = await db.transaction(async (tx): Promise<StaffMoveOutcome> => {
    const [found] = await tx
      .select({
        id: booking.id,
        userId: booking.userId,
        eventId: booking.eventId,
        slotTime: booking.slotTime,
        reference: booking.reference,
      })
      .from(booking)
      .where(eq(booking.id, input.bookingId));
    if (!found) return { ok: false, reason: "not-found" };
    if (found.eventId !== ev.id)
      return alreadyMoved(found, toEventId, input)
        ? { ok: true, reference: found.reference, eventId: toEventId, slotTime: input.slotTime }
        : { ok: false, reason: "not-found" };
    await lockPerson(tx, found.userId);
    const locked = new Map<string, EventRow | undefined>();
    for (const id of [...new Set([ev.id, toEventId])].sort())
      locked.set(id, await lockEvent(tx, id));
    const own = locked.get(ev.id);
    const target = locked.get(toEventId);
    const row: Booking = await lockBooking(tx, found.id);
    // His own change may have moved it to another event while his lock was awaited.
    if (!own || row.eventId !== ev.id) return { ok: false, reason: "not-found" };

    const [owner] = await tx
      .select({ id: user.id, email: user.email })
      .from(user)
      .where(eq(user.id, row.userId));
    const refused = staffMoveRefusal({
      stage: bookingStage(row),
      hasResult: await hasResult(tx, row.id),
      accountDeleted: !owner || isErasedAccount(owner),
      eventCancelled: own.status === "cancelled",
      eventEnded: closingTimeReached(own, now),
    });
    if (refused) return { ok: false, reason: refused };
    if (input.fromTime !== undefined && input.fromTime !== row.slotTime)
      return alreadyMoved(row, toEventId, input)
        ? { ok: true, reference: row.reference, eventId: own.id, slotTime: input.slotTime }
        : { ok: false, reason: "moved-meanwhile" };
    if (!target) return { ok: false, reason: "event-not-found" };

    let letGo: readonly string[] = [];
    if (target.id === own.id) {
      const times = await timesAtHisEvent(tx, own, row.id, now);
      const timeRefused = sameEventTimeRefusal(times, row.slotTime, input.slotTime);
      if (timeRefused) return { ok: false, reason: timeRefused };
    } else {
      const taking = await targetRefusal(tx, {
        userId: row.userId,
        row,
        oldEvent: own,
        target,
        slotTime: input.slotTime,
        now,
      });
      if (!taking.ok) return { ok: false, reason: asStaffRefusal(taking.reason) };
      letGo = taking.toLetGo;
    }

    await moveBookingRow(tx, {
      row,
      oldEvent: own,
      target,
      slotTime: input.slotTime,
      letGo,
      by: "staff",
      now,
    });
    await recordAudit(tx, actor, {
      action: "booking.move",
      subjectUserId: row.userId,
      entityType: "booking",
      entityId: row.id,
      details: { eventId: own.id, toEventId: target.id, from: row.slotTime, to: input.slotTime },
    });
    moved = true;
    return { ok: true, reference: row.reference, eventId: target.id, slotTime: input.slotTime };
  });
  if (moved) {
    log.info({ code: "booking_moved_by_staff", bookingId: input.bookingId }, "booking moved");
    eventsChanged();
  }
  return outcome;
}

/**
 * Whether the booking is already where this move asks, from another time than the page showed:
 * a second press of the same move (the first one's answer lost), which is then done.
 */
function alreadyMoved(
  now: { eventId: string; slotTime: string },
  toEventId: string,
  input: { slotTime: string; fromTime?: string },
): boolean {
  return (
    input.fromTime !== undefined &&
    input.fromTime !== now.slotTime &&
    now.eventId === toEventId &&
    now.slotTime === input.slotTime
  );
}

/** `targetRefusal`'s answers about another event, as this page words them. */
function asStaffRefusal(reason: ChangeRefusal): StaffMoveRefusal {
  switch (reason) {
    case "event-not-found":
    case "locked":
    case "different-terms":
    case "already-booked":
    case "not-eligible":
    case "event-unavailable":
    case "slot-unavailable":
    case "same-time":
      return reason;
    default:
      // The booking's own state was asked already, under the same locks.
      return "not-movable";
  }
}
