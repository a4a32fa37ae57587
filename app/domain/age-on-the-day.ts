/**
 * Why a man's age on an event's day rules him out of booking it or joining its waiting list, in
 * words: on the booking page, on the event's page instead of the waiting list's button, and in the
 * refusal when he presses it.
 */
export type AgeRefusal = "too-young" | "too-old";

export const AGE_ON_THE_DAY_MESSAGES: Record<AgeRefusal, string> = {
  "too-young":
    "You will be under 40 on the day of this event. Our screening events are for people aged 40 to 80 on the day.",
  "too-old":
    "You will be 81 or older on the day of this event. Our screening events are for people aged 40 to 80 on the day.",
};
