import { z } from "zod";
import { FIELD_MESSAGES, hasControlCharacters } from "./fields";
import {
  CONSENT_FIELDS,
  CONSENT_MESSAGES,
  MEDICATIONS,
  MOTHER_SIDE_DETAILS_MAX,
  OVARIAN_CANCER_RELATIVES,
  PROSTATE_CANCER_RELATIVES,
  PSA_TEST_NUMBERS,
  YES_NO_DONT_KNOW,
} from "./consent-options";

export * from "./consent-options";

/**
 * The consent form (spec sections 3 and 5). Every field is checked on every submission, so the
 * error summary lists all the problems at once. Zod skips object-level checks once a field
 * fails, so the rules that look at two fields (relatives or details) are worked out first, in
 * `prepareConsent`, and the fields read the result.
 */

/** The answers stored with a booking, in the spec's field names. Health data: never logged or e-mailed. */
export interface ConsentAnswers {
  numberOfPsaTest: 1 | 2 | 3 | 4 | 5;
  familyHistoryProstateCancer: (typeof YES_NO_DONT_KNOW)[number];
  familyMemberWithProstateCancer: (typeof PROSTATE_CANCER_RELATIVES)[number][];
  familyHistoryBreastOvarianCancer: (typeof YES_NO_DONT_KNOW)[number];
  familyMemberWithOvarianCancer: (typeof OVARIAN_CANCER_RELATIVES)[number][];
  motherSideDetails: string | null;
  medicationHistory: (typeof MEDICATIONS)[number];
}

/** A valid form: the answers, and the optional GP consent (terms and sample consent are necessarily given). */
export interface ConsentForm {
  answers: ConsentAnswers;
  gpConsent: boolean;
}

/** A checkbox is ticked when the browser sends its value ("on" unless the page sets another). */
function isTicked(value: unknown): boolean {
  if (value === true) return true;
  return (
    typeof value === "string" && ["on", "yes", "true", "1"].includes(value.trim().toLowerCase())
  );
}

/** Checkbox lists arrive as repeated keys: one string, an array, or nothing. */
function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.filter((item): item is string => typeof item === "string" && item.trim() !== "");
}

function prepareConsent(input: unknown) {
  const values = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
  const details = typeof values.motherSideDetails === "string" ? values.motherSideDetails : "";
  return {
    ...values,
    familyMemberWithProstateCancer: {
      history: values.familyHistoryProstateCancer,
      relatives: listOf(values.familyMemberWithProstateCancer),
      details,
    },
    familyMemberWithOvarianCancer: {
      history: values.familyHistoryBreastOvarianCancer,
      relatives: listOf(values.familyMemberWithOvarianCancer),
      details,
    },
    terms: isTicked(values.terms),
    sampleConsent: isTicked(values.sampleConsent),
    gpConsent: isTicked(values.gpConsent),
  };
}

const required = { error: CONSENT_MESSAGES.required };

/**
 * Relatives are asked for only when the answer is Yes (the question is hidden otherwise, and
 * anything still ticked in it is dropped). Yes needs a relative or some details.
 */
function relativesField<T extends readonly [string, ...string[]]>(options: T) {
  return z
    .object({ history: z.unknown(), relatives: z.array(z.string()), details: z.string() })
    .transform((value, ctx): T[number][] => {
      if (value.history !== "Yes") return [];
      const unknown = value.relatives.filter((relative) => !options.includes(relative));
      if (unknown.length > 0) {
        ctx.addIssue({ code: "custom", message: CONSENT_MESSAGES.specifyRelatives });
        return z.NEVER;
      }
      if (value.relatives.length === 0 && value.details.trim() === "") {
        ctx.addIssue({ code: "custom", message: CONSENT_MESSAGES.specifyRelatives });
        return z.NEVER;
      }
      // In the form's order, each once.
      return options.filter((option) => value.relatives.includes(option));
    });
}

const consentObject = z.object({
  numberOfPsaTest: z
    .enum(PSA_TEST_NUMBERS, required)
    .transform((value) => Number(value) as ConsentAnswers["numberOfPsaTest"]),
  familyHistoryProstateCancer: z.enum(YES_NO_DONT_KNOW, required),
  familyMemberWithProstateCancer: relativesField(PROSTATE_CANCER_RELATIVES),
  familyHistoryBreastOvarianCancer: z.enum(YES_NO_DONT_KNOW, required),
  familyMemberWithOvarianCancer: relativesField(OVARIAN_CANCER_RELATIVES),
  motherSideDetails: z
    .string()
    .trim()
    .max(MOTHER_SIDE_DETAILS_MAX, { error: FIELD_MESSAGES.tooLong(MOTHER_SIDE_DETAILS_MAX) })
    .optional()
    .transform((value) => value || null),
  medicationHistory: z.enum(MEDICATIONS, required),
  terms: z.literal(true, { error: CONSENT_MESSAGES.terms }),
  // The spec checks sample consent only once the terms are ticked, so a man who put right every
  // problem listed met a new one; both are asked for at once (D-205).
  sampleConsent: z.literal(true, { error: CONSENT_MESSAGES.sampleConsent }),
  gpConsent: z.boolean(),
});

export const consentSchema = z.preprocess(
  prepareConsent,
  consentObject.transform((value): ConsentForm => ({
    answers: {
      numberOfPsaTest: value.numberOfPsaTest,
      familyHistoryProstateCancer: value.familyHistoryProstateCancer,
      familyMemberWithProstateCancer: value.familyMemberWithProstateCancer,
      familyHistoryBreastOvarianCancer: value.familyHistoryBreastOvarianCancer,
      familyMemberWithOvarianCancer: value.familyMemberWithOvarianCancer,
      motherSideDetails: value.motherSideDetails,
      medicationHistory: value.medicationHistory,
    },
    gpConsent: value.gpConsent,
  })),
);

const LIST_FIELDS = new Set(["familyMemberWithProstateCancer", "familyMemberWithOvarianCancer"]);

/** The form's values with the checkbox lists as arrays (repeated keys), everything else as text. */
export function consentFormInput(formData: FormData): Record<string, string | string[]> {
  const input: Record<string, string | string[]> = {};
  for (const [key, value] of formData.entries()) {
    if (typeof value !== "string") continue;
    if (LIST_FIELDS.has(key)) input[key] = [...((input[key] as string[] | undefined) ?? []), value];
    else input[key] = value;
  }
  return input;
}

export type ConsentFormResult =
  | { ok: true; data: ConsentForm }
  | {
      ok: false;
      /** field → its first message, in the form's order (the error summary's order) */
      fieldErrors: Partial<Record<string, string>>;
      /** what was sent, to fill the form in again */
      values: Record<string, string | string[]>;
    };

/** Validates a submitted consent form (FormData, or the same values as an object). */
export function parseConsentForm(
  submitted: FormData | Record<string, string | string[] | undefined>,
): ConsentFormResult {
  const values: Record<string, string | string[]> =
    submitted instanceof FormData
      ? consentFormInput(submitted)
      : Object.fromEntries(
          Object.entries(submitted).filter(
            (entry): entry is [string, string | string[]] => entry[1] !== undefined,
          ),
        );
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const texts = Array.isArray(value) ? value : [value];
    if (texts.some(hasControlCharacters)) found[key] = FIELD_MESSAGES.unusualCharacters;
  }
  const result = consentSchema.safeParse(values);
  if (result.success && Object.keys(found).length === 0) return { ok: true, data: result.data };
  if (!result.success) {
    for (const issue of result.error.issues)
      found[String(issue.path[0] ?? "form")] ??= issue.message;
  }
  const fieldErrors: Record<string, string> = {};
  for (const field of [...CONSENT_FIELDS, ...Object.keys(found)]) {
    if (found[field] !== undefined) fieldErrors[field] ??= found[field];
  }
  return { ok: false, fieldErrors, values };
}
