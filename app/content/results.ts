import { organisation } from "./organisation";

/** What each traffic light means to the patient, in words (his results page and "My data"). */
export const FLAG_MEANINGS = {
  green: (years: number | null) =>
    `Green: your PSA level is in the normal range for your age. Have another test in ${years ?? "1, 2 or 3"} year${years === 1 ? "" : "s"}.`,
  amber: () => "Amber: your PSA level is a little raised. Please repeat the test in 3 months.",
  red: () =>
    "Red: your PSA level is raised. Please make an appointment to see your GP and show them this result.",
} as const;

const medical = organisation.phones.medical;

/**
 * Beside an Amber or Red result: what a raised level does and does not mean, when not to wait for
 * the next test, and whom to ask. The causes are those the NHS gives for a raised PSA.
 */
export const RAISED_RESULT_ADVICE = {
  notADiagnosis:
    "A raised PSA level does not mean you have cancer. An enlarged prostate, an infection, hard exercise or ejaculation in the last two days can all raise it.",
  symptoms:
    "If you have symptoms, such as needing to pee more often or urgently, difficulty peeing, or blood in your pee or semen, see your GP without waiting for another test.",
  questions: `If you have questions about your result, call our ${medical.label.toLowerCase()} line on`,
} as const;
