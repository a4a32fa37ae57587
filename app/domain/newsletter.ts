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
