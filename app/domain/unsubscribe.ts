/** The words of /unsubscribe, the page a newsletter e-mail's unsubscribe link opens. */
export const UNSUBSCRIBE_MESSAGES = {
  missing:
    "This unsubscribe link is incomplete. Copy the whole link from the e-mail into your browser, or reply to the e-mail and ask us to unsubscribe you.",
  invalid:
    "This unsubscribe link is not valid. It may have been changed or cut short. Copy the whole link from the e-mail, or reply to the e-mail and ask us to unsubscribe you.",
  unknown:
    "We could not find this subscription. It may already have been removed. If you still get our newsletter, reply to it and ask us to unsubscribe you.",
  done: "You have been unsubscribed",
  already: "This address is already unsubscribed",
} as const;

/** RFC 8058: a mail program's one-click unsubscribe posts exactly this body. */
export const ONE_CLICK_FIELD = "List-Unsubscribe";
export const ONE_CLICK_VALUE = "One-Click";

/**
 * An address shown so its owner recognises it, without handing it in full to whoever else the
 * link reaches: "de***@example.com".
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  const local = email.slice(0, at);
  const shown = local.length <= 2 ? local.slice(0, 1) : local.slice(0, 2);
  return `${shown}***${email.slice(at)}`;
}
