import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, event, profile, testResult, user } from "#app/db/schema";
import { attendeeName } from "#app/domain/attendees";
import { bookingStage } from "#app/domain/booking-lifecycle";
import { isUuid } from "#app/domain/ids";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { slotChoices, type SlotChoice } from "#app/domain/slot-choices";
import { staffMoveRefusal, type StaffMoveRefusal } from "#app/domain/staff-move";
import { openAttendeeEvent, type AttendeeEvent } from "../attendees.server";
import { bookingRead, recordAudit } from "../audit.server";
import { eventsChanged } from "../events.server";
import { log } from "../log.server";
import { moveBookingRow } from "./change.server";
import {
  hhmm,
  lockBooking,
  lockEvent,
  lockPerson,
  placesTaken,
  type Booking,
  type EventRow,
} from "./places.server";

/**
 * A coordinator moves a man's booked place to another time of its event when he asks, by phone or
 * in writing (`booking:move`, D-190). The policy's notice is his to keep online; a coordinator may
 * move him on the day itself, even after the time he missed. What it never does: move a place he
 * has come to or that has a sample or a result, or take a time that is full or has begun. The
 * booking row moves as his own change moves it (`moveBookingRow`): payment, consent and reference
 * go with it, he is e-mailed the new time, and the move is audited.
 */

/** The event's times for his booking, counting every place but his own. */
async function timesFor(tx: Db, ev: EventRow, bookingId: string, now: Date): Promise<SlotChoice[]> {
  const taken = await placesTaken(tx, ev.id, now, { exceptBookingId: bookingId });
  return slotChoices(
    {
      eventDate: ev.eventDate,
      startTime: hhmm(ev.startTime),
      endTime: hhmm(ev.endTime),
      sessionDuration: ev.sessionDuration,
      placesPerSlot: ev.placesPerSlot,
    },
    taken.perSlot,
    now,
  );
}

async function hasResult(tx: Db, bookingId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: testResult.id })
    .from(testResult)
    .where(eq(testResult.bookingId, bookingId));
  return row !== undefined;
}

/** What the coordinator's page shows before moving a booking for him. */
export interface StaffMovePreview {
  event: AttendeeEvent;
  reference: string;
  name: string;
  slotTime: string;
  /** every time of the event; his own is `slotTime` */
  times: SlotChoice[];
  /** why it cannot be moved; null when it can */
  refusal: Exclude<StaffMoveRefusal, "not-found"> | null;
}

/** The booking of this event, for the coordinator's page; null when there is none. */
export async function staffMovePreview(
  db: Db,
  actor: StaffActor,
  { eventId, bookingId, now = new Date() }: { eventId: string; bookingId: string; now?: Date },
): Promise<StaffMovePreview | null> {
  assertCan(actor, "booking:move");
  const ev = await openAttendeeEvent(db, actor, eventId, now);
  if (!ev || !isUuid(bookingId)) return null;
  const [found] = await db
    .select({
      row: booking,
      event,
      firstName: profile.firstName,
      lastName: profile.lastName,
      accountName: user.name,
      hasResult: sql<boolean>`exists (select 1 from ${testResult} where ${testResult.bookingId} = ${booking.id})`,
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .innerJoin(user, eq(user.id, booking.userId))
    .leftJoin(profile, eq(profile.userId, booking.userId))
    .where(and(eq(booking.id, bookingId), eq(booking.eventId, ev.id)));
  if (!found) return null;
  const { row } = found;
  await recordAudit(db, actor, bookingRead(row, ev.id));
  const times = await timesFor(db, found.event, row.id, now);
  return {
    event: ev,
    reference: row.reference,
    name: attendeeName(found),
    slotTime: row.slotTime,
    times,
    refusal: staffMoveRefusal({
      stage: bookingStage(row),
      hasResult: found.hasResult,
      eventCancelled: found.event.status === "cancelled",
      times,
      currentTime: row.slotTime,
    }),
  };
}

export type StaffMoveOutcome =
  { ok: true; reference: string; slotTime: string } | { ok: false; reason: StaffMoveRefusal };

/**
 * Moves one booked place of this event to `slotTime` for him. One transaction, with the locks in
 * the order his own change takes them (his, the event's, the booking's), so that a coordinator's
 * move, his own change or cancellation, a check-in and a new booking wait for one another.
 */
export async function moveBookingForHim(
  db: Db,
  actor: StaffActor,
  input: { eventId: string; bookingId: string; slotTime: string },
  now = new Date(),
): Promise<StaffMoveOutcome> {
  assertCan(actor, "booking:move");
  const ev = await openAttendeeEvent(db, actor, input.eventId, now);
  if (!ev || !isUuid(input.bookingId)) return { ok: false, reason: "not-found" };

  const outcome = await db.transaction(async (tx): Promise<StaffMoveOutcome> => {
    const [found] = await tx
      .select({ id: booking.id, userId: booking.userId })
      .from(booking)
      .where(and(eq(booking.id, input.bookingId), eq(booking.eventId, ev.id)));
    if (!found) return { ok: false, reason: "not-found" };
    await lockPerson(tx, found.userId);
    const locked = await lockEvent(tx, ev.id);
    const row: Booking = await lockBooking(tx, found.id);
    // His own change may have moved it to another event while his lock was awaited.
    if (!locked || row.eventId !== ev.id) return { ok: false, reason: "not-found" };

    const refused = staffMoveRefusal({
      stage: bookingStage(row),
      hasResult: await hasResult(tx, row.id),
      eventCancelled: locked.status === "cancelled",
      times: await timesFor(tx, locked, row.id, now),
      currentTime: row.slotTime,
      chosen: input.slotTime,
    });
    if (refused) return { ok: false, reason: refused };

    await moveBookingRow(tx, {
      row,
      oldEvent: locked,
      target: locked,
      slotTime: input.slotTime,
      by: "staff",
      now,
    });
    await recordAudit(tx, actor, {
      action: "booking.move",
      subjectUserId: row.userId,
      entityType: "booking",
      entityId: row.id,
      details: { eventId: ev.id, from: row.slotTime, to: input.slotTime },
    });
    return { ok: true, reference: row.reference, slotTime: input.slotTime };
  });
  if (outcome.ok) {
    log.info({ code: "booking_moved_by_staff", bookingId: input.bookingId }, "booking moved");
    eventsChanged();
  }
  return outcome;
}
