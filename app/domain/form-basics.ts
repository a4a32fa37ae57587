// No imports: the form components use these in the browser, where Zod and the password
// dictionaries (app/domain/fields.ts) must never be shipped.

/** Field name → first message, in the order the fields appear on the form. */
export type FieldErrors = Record<string, string>;

/** Name of the hidden field that people never see and simple bots fill in. */
export const HONEYPOT_FIELD = "company_website";
