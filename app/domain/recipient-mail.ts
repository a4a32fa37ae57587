/**
 * Mail that anyone can make the site send to an address by typing it into a public form. Without a
 * limit per recipient, a stranger could use the site to flood someone's inbox from many addresses.
 */
export type UnaskedMailKind =
  | "email-verification"
  | "password-reset"
  | "already-registered"
  | "newsletter-confirmation"
  /** sent by a coordinator, but limited the same way so a slip (or a script) cannot flood him */
  | "consent-link";

/**
 * Per recipient address, across every client address: one mail of each kind per 10 minutes (the
 * link in the last one still works: reset links for an hour, the others for a day or more), and at
 * most 4 of any kind an hour. Fixed windows, as the rest of the site's limits.
 */
export const RECIPIENT_MAIL_LIMITS = {
  sameKind: 1,
  sameKindWindowMs: 10 * 60_000,
  anyKind: 4,
  anyKindWindowMs: 60 * 60_000,
} as const;

export type RecipientMailDecision = "send" | "repeat" | "over-limit";

/** Whether to send one more mail, given how many this address has had in the current windows. */
export function recipientMailDecision(
  alreadySent: { sameKind: number; anyKind: number },
  limits: { sameKind: number; anyKind: number } = RECIPIENT_MAIL_LIMITS,
): RecipientMailDecision {
  // The hour's limit first: it lasts longer, so it is the one to tell someone who asks again.
  if (alreadySent.anyKind >= limits.anyKind) return "over-limit";
  if (alreadySent.sameKind >= limits.sameKind) return "repeat";
  return "send";
}

const DOTLESS_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * One mailbox, however its address is written: case, a "+tag" (which most providers deliver to
 * the same inbox) and, at Gmail, dots in the local part. Used only to count mail per mailbox,
 * never to send.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (domain === "googlemail.com") domain = "gmail.com";
  if (DOTLESS_DOMAINS.has(domain)) local = local.replaceAll(".", "");
  return `${local}@${domain}`;
}
