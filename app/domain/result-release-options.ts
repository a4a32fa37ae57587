/**
 * The choices, limits and words of the clinician's release and correction forms, with no imports:
 * the result page's browser code needs them, and must not pull in Zod or the field library.
 */

export const RETEST_YEARS = ["1", "2", "3"] as const;
export const MAX_COMMENTS = 1000;

/** Why a released result was changed: a fixed list, so the audit log can keep it (nothing typed). */
export const CORRECTION_REASONS = {
  "lab-corrected": "The laboratory corrected the value",
  "entry-error": "The value was entered or imported wrongly",
  "flag-reviewed": "The flag or retest interval was reviewed",
  "comments-changed": "The comments needed changing",
  other: "Another reason (record it in the clinical notes)",
} as const;
export type CorrectionReason = keyof typeof CORRECTION_REASONS;

export const RELEASE_MESSAGES = {
  flag: "Choose Green, Amber or Red",
  retest: "Choose when he should be tested again: in 1, 2 or 3 years",
  reason: "Choose why the result is being corrected",
  unchanged: "Nothing has changed: change the value, flag, retest interval or comments",
  alreadyReleased: "This result has already been released. Reload the page to see it.",
  notReleased: "This result has not been released yet, so there is nothing to correct.",
  noValue: "This result has no value yet, so it cannot be released.",
  noSample:
    "No sample is recorded for this booking at check-in, so this result cannot be released. Check it is the right person, and ask the coordinator to record the sample.",
  withdrawReleased:
    "This result has been released, so it cannot be withdrawn. If it is wrong, correct it instead.",
  withdrawn:
    "Result withdrawn, and the sample recorded for him undone: he shows as arrived with no sample. The patient was told nothing. Ask the event's coordinator to record the tube for the right man; then import the laboratory's row again with its sample id only (its booking reference is the wrong man's).",
} as const;

/** The check asked for when his date of birth changed after release (confirmReleasedFlag). */
export const FLAG_CHECK_MESSAGES = {
  changed:
    "This result changed after you opened it. It is shown below as it is now: look at the flag again before you confirm it.",
  notAsked:
    "This flag is no longer waiting to be checked: another clinician has confirmed or corrected it.",
} as const;

export const RELEASE_FIELD_ORDER = ["flag", "retestYears", "comments"] as const;
export const CORRECTION_FIELD_ORDER = [
  "psaValue",
  "flag",
  "retestYears",
  "comments",
  "reason",
] as const;
