/**
 * Confirming a newsletter subscription from the e-mailed link (double opt-in). No imports: the
 * confirmation page's component reads these words, and the form rules (Zod, the field library)
 * must stay out of the browser's code.
 */

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
