/** What each traffic light means to the patient, in words (his results page and "My data"). */
export const FLAG_MEANINGS = {
  green: (years: number | null) =>
    `Green: your PSA level is in the normal range for your age. Have another test in ${years ?? "1, 2 or 3"} year${years === 1 ? "" : "s"}.`,
  amber: () => "Amber: your PSA level is a little raised. Please repeat the test in 3 months.",
  red: () =>
    "Red: your PSA level is raised. Please make an appointment to see your GP and show them this result.",
} as const;
