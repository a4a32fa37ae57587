import type { z } from "zod";
import { FIELD_MESSAGES, hasControlCharacters } from "./fields";

import type { FieldErrors } from "./form-basics";
import { HONEYPOT_FIELD } from "./form-basics";

export { HONEYPOT_FIELD, type FieldErrors } from "./form-basics";

export type FormResult<T> =
  { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors; values: Record<string, string> };

/** Reads every text field of a form, so that a failed submission can show what was typed. */
export function formValues(formData: FormData, omit: string[] = []): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value === "string" && !omit.includes(key) && key !== HONEYPOT_FIELD)
      values[key] = value;
  }
  return values;
}

export function isHoneypotFilled(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return typeof value === "string" && value.trim() !== "";
}

/** "dateOfBirth-day" is reported on "dateOfBirth", the field the error summary links to. */
function fieldOf(key: string) {
  return key.replace(/-(day|month|year)$/, "");
}

/**
 * Validates a form's values with its schema and keeps the first message per field. Any text with
 * a control character (which nobody types, and which Postgres refuses) gets its own message,
 * whatever the schema says.
 */
export function parseForm<S extends z.ZodType>(
  schema: S,
  input: Record<string, unknown>,
): FormResult<z.output<S>> {
  const values = Object.fromEntries(
    Object.entries(input).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
  const fieldErrors: FieldErrors = {};
  for (const [key, value] of Object.entries(values)) {
    if (hasControlCharacters(value)) fieldErrors[fieldOf(key)] = FIELD_MESSAGES.unusualCharacters;
  }
  const result = schema.safeParse(input);
  if (result.success && Object.keys(fieldErrors).length === 0)
    return { ok: true, data: result.data };
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? "form");
      fieldErrors[field] ??= issue.message;
    }
  }
  return { ok: false, fieldErrors, values };
}
