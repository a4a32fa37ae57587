import { z } from "zod";

/**
 * A coordinator cancelling a man's booking for him, when he asks by phone or in writing (D-189):
 * what he gets back, chosen on the page, and the policy's refund the page showed.
 */

export const STAFF_CANCEL_MESSAGES = {
  refundMissing: "Choose what he gets back",
  termsChanged:
    "What the cancellation policy gives him has changed since you opened this page: the last day for a full refund has passed. Read the choice again and confirm.",
} as const;

export const staffCancelSchema = z.object({
  refund: z.enum(["policy", "full"], { error: STAFF_CANCEL_MESSAGES.refundMissing }),
  /** the policy's refund the page showed, in pence: cancelling for less is refused */
  policyRefundPence: z
    .string()
    .regex(/^\d{1,8}$/)
    .transform(Number),
});
