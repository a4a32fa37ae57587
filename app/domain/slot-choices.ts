import { generateSlots } from "./events";
import { londonInstant } from "./london-time";

/** Why a time on the booking page cannot be taken, or that it can. */
export type SlotState = "available" | "full" | "passed";

export interface SlotChoice {
  time: string;
  state: SlotState;
}

export const SLOT_STATE_LABELS: Record<Exclude<SlotState, "available">, string> = {
  full: "Full",
  passed: "Passed",
};

/**
 * Every time of an event, each marked available, full (its places are taken, counting unexpired
 * holds) or passed (it has started). The booking page shows them all, so nobody wonders where a
 * time went; only available ones can be chosen.
 */
export function slotChoices(
  event: {
    eventDate: string;
    startTime: string;
    endTime: string;
    sessionDuration: number;
    placesPerSlot: number;
  },
  takenPerSlot: ReadonlyMap<string, number>,
  now: Date,
): SlotChoice[] {
  return generateSlots(event.startTime, event.endTime, event.sessionDuration).map((time) => {
    if (londonInstant(event.eventDate, time).getTime() <= now.getTime())
      return { time, state: "passed" };
    if ((takenPerSlot.get(time) ?? 0) >= event.placesPerSlot) return { time, state: "full" };
    return { time, state: "available" };
  });
}
