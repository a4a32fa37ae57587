import { z } from "zod";
import { AGE_MESSAGES, isEligibleAge, readDateOfBirth } from "./age";
import { isNeverDelivered } from "./data-rights";
import { COUNTRIES } from "./field-options";
import { NHS_MESSAGES, validateNhsNumber } from "./nhs-number";
import { PASSWORD_MESSAGES, passwordProblem } from "./password";

/**
 * The site's field library: one rule per kind of answer (names, e-mail, phone, postcode, NHS
 * number, date of birth, passwords), shared by every form that asks for it.
 *
 * Text is of two kinds, and every text field is built from one of them: a line (`singleLine`,
 * `requiredLine`, `optionalLine`: names, addresses, e-mail, phone, labels), which refuses line
 * breaks, and text over several lines (`requiredMultilineText`, `optionalMultilineText`: messages,
 * descriptions, comments), which keeps them.
 */

export const FIELD_MESSAGES = {
  unusualCharacters:
    "This answer contains a character we cannot accept (a control code). Please retype it.",
  lineBreak: "Enter this on one line, without line breaks",
  tooLong: (max: number) => `Must be ${max} characters or fewer`,
  email: "Enter an email address in the correct format, like name@example.com",
  neverDelivered:
    "An address ending in .invalid can never receive email. Enter the email address you use",
  phone: "Enter a phone number, like 01632 960 001 or +44 1632 960 001",
  postcode: "Enter a real postcode, like CM1 0XX",
} as const;

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. Nobody types
 * them, and Postgres refuses NUL in text, so they are refused here with a message.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/**
 * Line breaks of every kind: CR, LF, NEL and Unicode's line and paragraph separators. In a name
 * they would forge header-like lines in staff mail and split a row of the lab CSV.
 */
const LINE_BREAKS = /[\r\n\u0085\u2028\u2029]/;

export function hasLineBreaks(text: string): boolean {
  return LINE_BREAKS.test(text);
}

/**
 * A string that must be one line, the base of every single-line field (and of the API's). The
 * check comes before any trimming, so that no line break is silently dropped.
 */
export function singleLine(message?: string) {
  return z
    .string(message === undefined ? undefined : { error: message })
    .refine((text) => !hasLineBreaks(text), { error: FIELD_MESSAGES.lineBreak });
}

/** A required line of text, trimmed. */
export function requiredLine(message: string, max = 100) {
  return singleLine(message)
    .trim()
    .min(1, { error: message })
    .max(max, { error: FIELD_MESSAGES.tooLong(max) });
}

/** An optional line of text, trimmed; empty becomes null. */
export function optionalLine(max = 100) {
  return singleLine()
    .trim()
    .max(max, { error: FIELD_MESSAGES.tooLong(max) })
    .optional()
    .transform((value) => value || null);
}

/** Required text over several lines (a text area), trimmed; its line breaks are kept. */
export function requiredMultilineText(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: FIELD_MESSAGES.tooLong(max) });
}

/** Optional text over several lines (a text area), trimmed; empty becomes null. */
export function optionalMultilineText(max: number) {
  return z
    .string()
    .trim()
    .max(max, { error: FIELD_MESSAGES.tooLong(max) })
    .optional()
    .transform((value) => value || null);
}

/** One of a list, as a select sends it. */
export function choice<T extends readonly [string, ...string[]]>(options: T, message: string) {
  return z.enum(options, { error: message });
}

/** One of a list, or nothing ("" from an unchosen select becomes null). */
export function optionalChoice<T extends readonly [string, ...string[]]>(
  options: T,
  message: string,
) {
  return z
    .union([z.literal(""), z.enum(options, { error: message })])
    .optional()
    .transform((value) => value || null);
}

/**
 * RFC 5321 allows 254 characters in an address; trimmed and lowercased. An address in `.invalid`
 * is refused: no mail is ever sent there (`isNeverDelivered`), so an account could not be verified.
 */
export function emailField(missing = "Enter your email address") {
  return singleLine(missing)
    .trim()
    .min(1, { error: missing })
    .max(254, { error: FIELD_MESSAGES.tooLong(254) })
    .toLowerCase()
    .pipe(z.email({ error: FIELD_MESSAGES.email }))
    .refine((address) => !isNeverDelivered(address), { error: FIELD_MESSAGES.neverDelivered });
}

export const PHONE_PATTERN = /^\+?[0-9 ()-]{7,20}$/;

export function phoneField(missing = "Enter your phone number") {
  return requiredLine(missing, 20).regex(PHONE_PATTERN, { error: FIELD_MESSAGES.phone });
}

/** UK and Irish postcodes are letters, digits and spaces; printed in capitals. */
export function postcodeField(missing = "Enter your postcode") {
  return requiredLine(missing, 10)
    .regex(/^[A-Za-z0-9 ]{2,10}$/, { error: FIELD_MESSAGES.postcode })
    .transform((value) => value.toUpperCase().replace(/\s+/g, " "));
}

export function countryField() {
  return choice(COUNTRIES, "Select your country");
}

/**
 * Optional: empty is null; otherwise 10 digits that pass the NHS check, spaces allowed. Staff
 * typing someone else's number are told of "his" letter (`checkDigit`), not "your" letter.
 */
export function nhsNumberFieldWith({ checkDigit }: { checkDigit?: string } = {}) {
  return z
    .string()
    .default("")
    .transform((typed, ctx) => {
      const nhs = validateNhsNumber(typed);
      if (!nhs.ok) {
        const message =
          checkDigit && nhs.message === NHS_MESSAGES.checkDigit ? checkDigit : nhs.message;
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return nhs.value;
    });
}

export const nhsNumberField = nhsNumberFieldWith();

/**
 * A date of birth typed into three fields, read as one: real, past, and (when asked) age 40 to 80.
 * `missing` replaces "Enter your date of birth" for a form about someone else.
 */
export function dateOfBirthField(
  today: string,
  { checkAge = true, missing }: { checkAge?: boolean; missing?: string } = {},
) {
  return z
    .object({
      day: z.string().default(""),
      month: z.string().default(""),
      year: z.string().default(""),
    })
    .transform((parts, ctx) => {
      const dob = readDateOfBirth(parts, today);
      if (!dob.ok) {
        const empty = !parts.day.trim() && !parts.month.trim() && !parts.year.trim();
        ctx.addIssue({ code: "custom", message: (empty && missing) || dob.message });
        return z.NEVER;
      }
      if (checkAge && !isEligibleAge(dob.date, today)) {
        ctx.addIssue({ code: "custom", message: AGE_MESSAGES.outOfRange });
        return z.NEVER;
      }
      return dob.date;
    });
}

/** Gathers the three date fields into one value, so that every field is checked even when others fail. */
export function withDateParts(values: Record<string, unknown>, field: string) {
  const day = values[`${field}-day`] ?? "";
  const month = values[`${field}-month`] ?? "";
  const year = values[`${field}-year`] ?? "";
  const empty = !day && !month && !year;
  return { day, month, year, empty };
}

/**
 * A new password and its confirmation. Zod skips object-level checks once a field fails, so the
 * comparison and the strength check (which needs the person's own words) are made first, in
 * `prepareNewPassword`, and these fields read the result.
 */
export const newPasswordFields = {
  password: z
    .object({ text: z.string(), problem: z.string().nullable() })
    .transform((value, ctx) => {
      if (value.problem) {
        ctx.addIssue({ code: "custom", message: value.problem });
        return z.NEVER;
      }
      return value.text;
    }),
  confirmPassword: z.literal("matches", { error: PASSWORD_MESSAGES.doNotMatch }),
};

export function prepareNewPassword(
  values: Record<string, unknown>,
  personalWords: unknown[] = [],
  names = { password: "password", confirm: "confirmPassword" },
) {
  const text = typeof values[names.password] === "string" ? String(values[names.password]) : "";
  const confirm = typeof values[names.confirm] === "string" ? String(values[names.confirm]) : "";
  // The e-mail address and its local part ("arthur.pembridge") are both words a guesser tries.
  const words = personalWords
    .filter((word): word is string => typeof word === "string")
    .flatMap((word) => [word, ...word.split("@").slice(0, 1)])
    .map((word) => word.trim().toLowerCase());
  return {
    password: { text, problem: passwordProblem(text, words) },
    confirmPassword: text === confirm ? "matches" : "differs",
  };
}
