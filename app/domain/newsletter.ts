import { z } from "zod";

export const NEWSLETTER_MESSAGES = {
  missing: "Please provide both name and email.",
  success: "Successfully subscribed to the newsletter!",
  unexpected: "An error occurred. Please try again.",
  /** The spec shows server errors as "Error: {server error}". */
  serverError: (reason: string) => `Error: ${reason}`,
} as const;

const missing = NEWSLETTER_MESSAGES.missing;

export const newsletterSchema = z.object({
  name: z.string({ error: missing }).trim().min(1, { error: missing }).max(100, { error: "Name must be 100 characters or fewer" }),
  email: z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing })
    .toLowerCase()
    .pipe(z.email({ error: "Enter an email address in the correct format, like name@example.com" })),
  // The old site always sent true; a form may leave it out.
  hear_about_event: z
    .union([z.boolean(), z.enum(["true", "false", "on"])])
    .optional()
    .transform((value) => value === undefined || value === true || value === "true" || value === "on"),
});

export type NewsletterSubscription = z.output<typeof newsletterSchema>;
