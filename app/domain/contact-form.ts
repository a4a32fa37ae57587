import { z } from "zod";
import { emailField, phoneField, requiredLine, requiredMultilineText } from "./fields";

/** Field names as the spec gives them for the /about-us enquiry form. */
export const contactFields = [
  "first-name",
  "last-name",
  "email",
  "phone-number",
  "message",
] as const;

export const contactFormSchema = z.object({
  "first-name": requiredLine("Enter your first name"),
  "last-name": requiredLine("Enter your last name"),
  email: emailField(),
  "phone-number": phoneField(),
  message: requiredMultilineText("Enter your message", 2000),
});

export type ContactForm = z.output<typeof contactFormSchema>;

export const CONTACT_THANK_YOU = "Thank you for reaching out! We will get back to you soon.";
