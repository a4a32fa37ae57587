import { z } from "zod";

/** Field names as the spec gives them for the /about-us enquiry form. */
export const contactFields = [
  "first-name",
  "last-name",
  "email",
  "phone-number",
  "message",
] as const;

const required = (message: string) =>
  z.string({ error: message }).trim().min(1, { error: message });

export const PHONE_PATTERN = /^\+?[0-9 ()-]{7,20}$/;

export const contactFormSchema = z.object({
  "first-name": required("Enter your first name").max(100, {
    error: "First name must be 100 characters or fewer",
  }),
  "last-name": required("Enter your last name").max(100, {
    error: "Last name must be 100 characters or fewer",
  }),
  email: required("Enter your email address")
    .toLowerCase()
    .pipe(
      z.email({ error: "Enter an email address in the correct format, like name@example.com" }),
    ),
  "phone-number": required("Enter your phone number").regex(PHONE_PATTERN, {
    error: "Enter a telephone number, like 01632 960 001 or +44 1632 960 001",
  }),
  message: required("Enter your message").max(2000, {
    error: "Your message must be 2,000 characters or fewer",
  }),
});

export type ContactForm = z.output<typeof contactFormSchema>;

export const CONTACT_THANK_YOU = "Thank you for reaching out! We will get back to you soon.";
