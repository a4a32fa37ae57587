// No imports: the form components use these in the browser, where Zod and the password
// dictionaries (app/domain/fields.ts) must never be shipped.

/** Field name → first message, in the order the fields appear on the form. */
export type FieldErrors = Record<string, string>;

/** OWASP ASVS 6.2: at least 8 characters, at least 64 allowed, no composition rules. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Name of the hidden field that people never see and simple bots fill in. */
export const HONEYPOT_FIELD = "company_website";
