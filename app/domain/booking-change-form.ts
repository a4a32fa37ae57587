import { z } from "zod";
import { CHANGE_FORM_MESSAGES } from "./booking-change";

/**
 * The change page's form (kept apart from `booking-change.ts`, whose words the page itself shows,
 * so that Zod stays out of the browser's JavaScript).
 */

/** The chosen event and time, as the "Continue" and "Confirm the change" buttons post them. */
export const changeChoiceSchema = z.object({
  event: z
    .string({ error: CHANGE_FORM_MESSAGES.chooseEvent })
    .trim()
    .min(1, CHANGE_FORM_MESSAGES.chooseEvent)
    .max(64, CHANGE_FORM_MESSAGES.chooseEvent),
  slotTime: z
    .string({ error: CHANGE_FORM_MESSAGES.chooseTime })
    .trim()
    .min(1, CHANGE_FORM_MESSAGES.chooseTime)
    .max(5, CHANGE_FORM_MESSAGES.chooseTime),
});
