// No Zod here: the consent form shows these in the browser without shipping it.
import { consentWording } from "#app/content/consent";

export { CONSENT_WORDING_VERSION } from "#app/content/consent";

/** The questions whose answers are kept (`consent.answers`), in the form's order. */
export const CONSENT_ANSWER_FIELDS = [
  "numberOfPsaTest",
  "familyHistoryProstateCancer",
  "familyMemberWithProstateCancer",
  "familyHistoryBreastOvarianCancer",
  "familyMemberWithOvarianCancer",
  "motherSideDetails",
  "medicationHistory",
] as const;

/** The consent form's questions, in the spec's field names, and the order of the error summary. */
export const CONSENT_FIELDS = [
  ...CONSENT_ANSWER_FIELDS,
  "terms",
  "sampleConsent",
  "gpConsent",
] as const;

export type ConsentField = (typeof CONSENT_FIELDS)[number];

/** "Which PSA test will this be?": 1 to 4, and 5 meaning the 5th or more. */
export const PSA_TEST_NUMBERS = ["1", "2", "3", "4", "5"] as const;
export const PSA_TEST_NUMBER_LABELS: Record<(typeof PSA_TEST_NUMBERS)[number], string> = {
  "1": "1st (my first PSA test)",
  "2": "2nd",
  "3": "3rd",
  "4": "4th",
  "5": "5th or more",
};

export const YES_NO_DONT_KNOW = ["Yes", "No", "Don't know"] as const;
export type YesNoDontKnow = (typeof YES_NO_DONT_KNOW)[number];

/** Relatives on the father's side question (prostate cancer); several may be ticked. */
export const PROSTATE_CANCER_RELATIVES = ["Father", "Brother", "Grandfather", "Uncle"] as const;
/** Relatives on the mother's side question (breast or ovarian cancer); several may be ticked. */
export const OVARIAN_CANCER_RELATIVES = ["Mother", "Sister", "Grandmother", "Aunt"] as const;

/** Medicines that lower PSA. One answer (the spec lists them as options, not as a list). */
export const MEDICATIONS = [
  "Proscar/Propecia(Finasteride)",
  "Avodart",
  "Combodart",
  "None",
] as const;

/** How a medicine is shown; the value kept is the spec's, which runs its words together. */
export function medicationLabel(value: (typeof MEDICATIONS)[number]): string {
  return value === "Proscar/Propecia(Finasteride)" ? "Proscar / Propecia (Finasteride)" : value;
}

export const MOTHER_SIDE_DETAILS_MAX = 1000;

export const CONSENT_LABELS: Record<ConsentField, string> = {
  numberOfPsaTest: "Which PSA test will this be?",
  familyHistoryProstateCancer: "Has a relative had prostate cancer?",
  familyMemberWithProstateCancer: "Which relative(s)?",
  familyHistoryBreastOvarianCancer: "Has a relative had breast or ovarian cancer?",
  familyMemberWithOvarianCancer: "Which relative(s)?",
  motherSideDetails: "Additional details (optional)",
  medicationHistory: "Do you take any of these medicines?",
  terms: consentWording.terms.label,
  sampleConsent: consentWording.sampleConsent.label,
  gpConsent: consentWording.gpConsent.label,
};

/** The spec's messages, word for word. */
export const CONSENT_MESSAGES = {
  required: "This field is required.",
  specifyRelatives: "Please specify which relative(s) or provide additional details.",
  terms: "You must agree to the terms and conditions.",
  sampleConsent: "You must consent that your samples will be taken and tested.",
} as const;

/**
 * The question a message is about, said before the spec's words so that a list of messages reads
 * "Which PSA test will this be? This field is required." rather than the same words four times.
 * The relatives' lists are named by the question that opened them; the consent boxes' messages
 * already say what they are about.
 */
const QUESTION_OF: Partial<Record<string, string>> = {
  numberOfPsaTest: CONSENT_LABELS.numberOfPsaTest,
  familyHistoryProstateCancer: CONSENT_LABELS.familyHistoryProstateCancer,
  familyMemberWithProstateCancer: CONSENT_LABELS.familyHistoryProstateCancer,
  familyHistoryBreastOvarianCancer: CONSENT_LABELS.familyHistoryBreastOvarianCancer,
  familyMemberWithOvarianCancer: CONSENT_LABELS.familyHistoryBreastOvarianCancer,
  motherSideDetails: "Additional details:",
  medicationHistory: CONSENT_LABELS.medicationHistory,
};

/** A field's message as the page shows it, beside the field and in the error summary. */
export function consentErrorMessage(field: string, message: string): string {
  const question = QUESTION_OF[field];
  return question ? `${question} ${message}` : message;
}

/** The spec's messages (section 8) when saving the consent or confirming the booking fails. */
export const CONSENT_FAILURES = {
  consent: {
    title: "Consent Creation Failed",
    message: "Failed to create consent. Please try again.",
  },
  confirm: {
    title: "Booking Failed",
    message: "Failed to confirm booking. Please try again later.",
  },
  unexpected: { title: "Error", message: "An unexpected error occurred. Please try again later." },
} as const;

export type ConsentFailure = keyof typeof CONSENT_FAILURES;
