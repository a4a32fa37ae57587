import { z } from "zod";
import { canTake, type BookingStage } from "./booking-lifecycle";
import type { SlotChoice } from "./slot-choices";

/**
 * A coordinator moving a man's booked place to another time of its event, when he asks by phone
 * or in writing (D-190): the time chosen on the page.
 */

export type StaffMoveRefusal =
  | "not-found"
  | "not-movable"
  | "sample-taken"
  | "event-cancelled"
  | "no-other-time"
  | "same-time"
  | "slot-unavailable";

/** Why a coordinator cannot move a booking, in words for them. */
export const STAFF_MOVE_MESSAGES = {
  timeMissing: "Choose his new time",
  "not-movable":
    "Only a booked place he has not yet come to can be moved: this one is checked in, marked as a no-show, cancelled, or not booked yet.",
  "sample-taken": "A sample has been taken for this booking, so it cannot be moved.",
  "event-cancelled": "This event is cancelled, so the booking cannot be moved.",
  "no-other-time":
    "Every other time of this event is full or has begun, so there is no time to move him to. Look again later, when a place may have been freed.",
  "same-time": "That is already his time. Choose another, or go back to the list.",
  "slot-unavailable": "That time has just been taken, or has passed. Choose another time.",
} as const satisfies Record<Exclude<StaffMoveRefusal, "not-found"> | "timeMissing", string>;

export const staffMoveSchema = z.object({
  slotTime: z
    .string({ error: STAFF_MOVE_MESSAGES.timeMissing })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, STAFF_MOVE_MESSAGES.timeMissing),
});

/**
 * Why this booking cannot be moved, or null. Without `chosen`, whether it can be moved at all (the
 * page asks this); with it, whether to that time: another of the event's times, not yet begun,
 * with a place free. His old time may have passed: a man who missed it and phones may come later.
 * The event's times are `slotChoices` counted without his own booking.
 */
export function staffMoveRefusal(input: {
  stage: BookingStage;
  hasResult: boolean;
  eventCancelled: boolean;
  times: readonly SlotChoice[];
  currentTime: string;
  chosen?: string;
}): Exclude<StaffMoveRefusal, "not-found"> | null {
  const { stage, hasResult, eventCancelled, times, currentTime, chosen } = input;
  if (stage === "sample_taken" || hasResult) return "sample-taken";
  if (!canTake(stage, "staff-move")) return "not-movable";
  if (eventCancelled) return "event-cancelled";
  const open = times.filter(
    (choice) => choice.state === "available" && choice.time !== currentTime,
  );
  if (chosen === undefined) return open.length === 0 ? "no-other-time" : null;
  if (chosen === currentTime) return "same-time";
  return open.some((choice) => choice.time === chosen) ? null : "slot-unavailable";
}
