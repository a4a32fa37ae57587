import { z } from "zod";

/** Which enquiries the inbox shows: those still waiting for an answer (the default), or all. */
export const ENQUIRY_FILTERS = ["unhandled", "all"] as const;
export type EnquiryFilter = (typeof ENQUIRY_FILTERS)[number];

export function readEnquiryFilter(value: string | null): EnquiryFilter {
  return value === "all" ? "all" : "unhandled";
}

export const ENQUIRY_MESSAGES = {
  missing: "That enquiry could not be found. It may have been removed.",
  handled: "Marked as handled.",
  reopened: "Marked as not handled.",
} as const;

/** The inbox's two buttons: mark an enquiry handled, or undo that. */
export const enquiryActionSchema = z.object({
  intent: z.enum(["handle", "reopen"], { error: ENQUIRY_MESSAGES.missing }),
  enquiryId: z.uuid({ error: ENQUIRY_MESSAGES.missing }),
});

/**
 * A "Reply by e-mail" link: opens the staff member's own mail program addressed to the enquirer.
 * The address is percent-encoded apart from its "@" (RFC 6068), so a "?" or "&" in it cannot
 * add headers of its own.
 */
export function replyMailto(email: string, organisationShortName: string): string {
  const to = encodeURIComponent(email).replace(/%40/g, "@");
  const subject = encodeURIComponent(`Re: your enquiry to ${organisationShortName}`);
  return `mailto:${to}?subject=${subject}`;
}
