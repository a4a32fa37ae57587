/** The charity's own figures, as given in the spec. */
export const statistics2023 = {
  tests: 2397,
  abnormal: 168,
  abnormalPercent: 7.15,
  cancers: 26,
  radicalTreatment: 20,
  activeSurveillance: 6,
};

export const statistics2024 = { men: 3497, events: 40 };

export const nationalFigures = {
  newCasesPerYear: 57_000,
  deathsPerYear: 13_000,
  prematureMaleDeaths: 70_000,
  eventsPlanned2025: 50,
  abnormalLeadingToCancer: "1 in 4",
};

export const psaThresholds = [
  { ages: "40 to 49", threshold: "1.00 ng/ml" },
  { ages: "50 to 59", threshold: "2.00 ng/ml" },
];
