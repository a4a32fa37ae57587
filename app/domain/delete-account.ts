import { z } from "zod";
// Not from ./password: this module reaches the page, and that one brings its dictionaries.
import { PASSWORD_MAX } from "./form-basics";

/** The "Delete my account" form: the password again, and a box ticked to say he means it. */
export const DELETE_ACCOUNT_MESSAGES = {
  password: "Enter your password",
  wrongPassword:
    "The password is not right. Check it and try again. If you have forgotten it, sign out, then on the sign-in page type your email address and choose “Forgot password?”.",
  confirm: "Tick the box to confirm that you want to delete your account",
  tooManyAttempts: (minutes: string) =>
    `Too many wrong passwords. Please wait ${minutes} and try again.`,
  staff:
    "Staff accounts cannot be deleted here. Please ask an administrator to remove your account.",
  failed:
    "We could not delete your account just now. Nothing has been deleted. Please try again in a few minutes.",
} as const;

const isTicked = (value: unknown) =>
  typeof value === "string" && ["on", "yes", "true", "1"].includes(value.trim().toLowerCase());

export const deleteAccountSchema = z.object({
  password: z
    .string({ error: DELETE_ACCOUNT_MESSAGES.password })
    .min(1, { error: DELETE_ACCOUNT_MESSAGES.password })
    .max(PASSWORD_MAX, { error: DELETE_ACCOUNT_MESSAGES.wrongPassword }),
  confirm: z
    .unknown()
    .refine(isTicked, { error: DELETE_ACCOUNT_MESSAGES.confirm })
    .transform(() => true as const),
});

export type DeleteAccountForm = z.output<typeof deleteAccountSchema>;
