/**
 * Why a man's age on an event's day keeps him off its waiting list, in words: for the refusal when
 * he presses "Join", and for the event's page, which says it instead of offering the button.
 */
export type AgeRefusal = "too-young" | "too-old";

export const WAITLIST_AGE_MESSAGES: Record<AgeRefusal, string> = {
  "too-young":
    "You will be under 40 on the day of this event. Our screening events are for people aged 40 to 80 on the day.",
  "too-old":
    "You will be 81 or older on the day of this event. Our screening events are for people aged 40 to 80 on the day.",
};
