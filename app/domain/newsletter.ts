import { z } from "zod";
import { emailField, requiredLine } from "./fields";
import type { FieldErrors } from "./forms";

export const NEWSLETTER_MESSAGES = {
  missing: "Please provide both name and email.",
  /**
   * The spec's "Successfully subscribed to the newsletter!", now that a subscription needs the
   * owner's confirmation. The same answer whatever the address's state, so it tells nobody whether
   * an address is subscribed.
   */
  success:
    "Thank you! To finish subscribing to the newsletter, check your inbox and open the link we have sent you.",
  unexpected: "An error occurred. Please try again.",
  /** The spec shows server errors as "Error: {server error}". */
  serverError: (reason: string) => `Error: ${reason}`,
} as const;

const NAME_MISSING = "Enter your name";
const EMAIL_MISSING = "Enter your email address";

export const newsletterSchema = z.object({
  name: requiredLine(NAME_MISSING),
  email: emailField(EMAIL_MISSING),
  // The old site always sent true; a form may leave it out.
  hear_about_event: z
    .union([z.boolean(), z.enum(["true", "false", "on"])])
    .optional()
    .transform(
      (value) => value === undefined || value === true || value === "true" || value === "on",
    ),
});

export type NewsletterSubscription = z.output<typeof newsletterSchema>;

/** The single line the spec shows under the form for a refused subscription. */
export function newsletterFormMessage(fieldErrors: FieldErrors): string {
  if (fieldErrors.name === NAME_MISSING || fieldErrors.email === EMAIL_MISSING)
    return NEWSLETTER_MESSAGES.missing;
  const first = Object.values(fieldErrors)[0] ?? NEWSLETTER_MESSAGES.unexpected;
  return NEWSLETTER_MESSAGES.serverError(first);
}

/** The words of /newsletter/confirm, the page the confirmation e-mail's link opens. */
export const NEWSLETTER_CONFIRM_MESSAGES = {
  missing:
    "This confirmation link is incomplete. Copy the whole link from the e-mail into your browser.",
  invalid:
    "This confirmation link is not valid. It may have been changed or cut short. Copy the whole link from the e-mail, or subscribe again on our news page.",
  expired:
    "This confirmation link has expired. Subscribe again on our news page and we will send you a new one.",
  stale:
    "This link was sent before the address was unsubscribed, so it no longer works. To subscribe again, use the form on our news page.",
  done: "You are subscribed to our newsletter",
} as const;

/** How long the link in a confirmation e-mail works. */
export const NEWSLETTER_CONFIRM_LINK_DAYS = 7;

export type NewsletterConfirmRefusal = "expired" | "stale";

/**
 * Whether a confirmation link made at `issuedAt` may still subscribe its address: not after
 * NEWSLETTER_CONFIRM_LINK_DAYS, and never when the address was unsubscribed after the link was
 * made (an old link must not undo a later opt-out).
 */
export function newsletterConfirmRefusal(
  link: { issuedAt: Date },
  subscription: { unsubscribedAt: Date | null } | undefined,
  now: Date,
): NewsletterConfirmRefusal | null {
  const age = now.getTime() - link.issuedAt.getTime();
  if (age > NEWSLETTER_CONFIRM_LINK_DAYS * 24 * 60 * 60_000) return "expired";
  if (subscription?.unsubscribedAt && subscription.unsubscribedAt >= link.issuedAt) return "stale";
  return null;
}
