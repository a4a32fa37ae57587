import { z } from "zod";
import { canTake, type BookingStage } from "./booking-lifecycle";
import type { SlotChoice } from "./slot-choices";

/**
 * A coordinator moving a man's booked place to another time, at its event or another like it, when
 * he asks by phone or in writing (D-190).
 */

export type StaffMoveRefusal =
  | "not-found"
  | "not-movable"
  | "sample-taken"
  | "account-deleted"
  | "event-cancelled"
  /** his event has ended: a man still marked as waiting did not come */
  | "event-ended"
  /** his time changed after the page showed it (another coordinator, or he himself) */
  | "moved-meanwhile"
  | "no-other-time"
  | "same-time"
  | "slot-unavailable"
  /** about another event he is moved to (`targetRefusal`, as his own change asks) */
  | "event-not-found"
  | "locked"
  | "different-terms"
  | "already-booked"
  | "not-eligible"
  | "event-unavailable";

/** Why a coordinator cannot move a booking, in words for them. */
export const STAFF_MOVE_MESSAGES = {
  timeMissing: "Choose his new time",
  "not-movable":
    "Only a booked place he has not yet come to can be moved: this one is checked in, marked as a no-show, cancelled, or not booked yet.",
  "sample-taken": "A sample has been taken for this booking, so it cannot be moved.",
  "account-deleted": "He has deleted his account, so his booking cannot be moved.",
  "moved-meanwhile":
    "His booking was moved since you opened this page: his time now is shown above. Check with him before moving it again.",
  "event-cancelled": "This event is cancelled, so the booking cannot be moved.",
  "event-ended":
    "This event has ended, so the booking can no longer be moved. If he did not come, mark him as a no-show on the list.",
  "no-other-time":
    "Every other time of this event is full or has begun, and no other event like it has a free time he could take. Look again later, when a place may have been freed.",
  "same-time": "That is already his time. Choose another, or go back to the list.",
  "slot-unavailable": "That time has just been taken, or has passed. Choose another time.",
  "event-not-found": "That event is no longer taking bookings. Choose another event.",
  "event-unavailable": "That event is no longer taking bookings. Choose another event.",
  locked:
    "That is a private event he has not unlocked with its access code, so he cannot be moved to it.",
  "different-terms":
    "That event has a different price or way of paying, so he cannot be moved to it. Choose another event.",
  "already-booked": "He already has a booking at that event. Choose another event.",
  "not-eligible":
    "He cannot book that event: his age on its day, or its laboratory needs an NHS number he has not given. Choose another event.",
} as const satisfies Record<Exclude<StaffMoveRefusal, "not-found"> | "timeMissing", string>;

export const staffMoveSchema = z.object({
  slotTime: z
    .string({ error: STAFF_MOVE_MESSAGES.timeMissing })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, STAFF_MOVE_MESSAGES.timeMissing),
  /** another event to move him to; his own when left out */
  toEventId: z.uuid().optional(),
  /** his time as the page showed it: a move from any other is refused */
  fromTime: z
    .string()
    .regex(/^\d{2}:\d{2}$/)
    .optional(),
});

/**
 * Why this booking cannot be moved at all, or null: what he has done, and his event. A time he
 * missed may be moved on the day, but not once the event has ended: he did not come, and the
 * policy keeps what he paid for a time that has begun.
 */
export function staffMoveRefusal(input: {
  stage: BookingStage;
  hasResult: boolean;
  accountDeleted: boolean;
  eventCancelled: boolean;
  /** his event's day and end time have passed (`closingTimeReached`) */
  eventEnded: boolean;
}): "not-movable" | "sample-taken" | "account-deleted" | "event-cancelled" | "event-ended" | null {
  const { stage, hasResult, accountDeleted, eventCancelled, eventEnded } = input;
  if (stage === "sample_taken" || hasResult) return "sample-taken";
  if (!canTake(stage, "staff-move")) return "not-movable";
  // No e-mail could tell him, and no sample could be recorded for it.
  if (accountDeleted) return "account-deleted";
  if (eventCancelled) return "event-cancelled";
  if (eventEnded) return "event-ended";
  return null;
}

/**
 * Why `chosen` cannot be his new time at his own event, or null: another of its times, not yet
 * begun, with a place free. His old time may have passed: a man who missed it and phones may come
 * later. `times` are `slotChoices` counted without his own booking.
 */
export function sameEventTimeRefusal(
  times: readonly SlotChoice[],
  currentTime: string,
  chosen: string,
): "same-time" | "slot-unavailable" | null {
  if (chosen === currentTime) return "same-time";
  const free = times.some((choice) => choice.time === chosen && choice.state === "available");
  return free ? null : "slot-unavailable";
}

/** The times he could be moved to: free, not begun, and not his own (`currentTime`, if given). */
export function otherFreeTimes(times: readonly SlotChoice[], currentTime?: string): SlotChoice[] {
  return times.filter((choice) => choice.state === "available" && choice.time !== currentTime);
}
