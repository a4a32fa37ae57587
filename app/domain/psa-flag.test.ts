import { describe, expect, it } from "vitest";
import {
  compareDecimals,
  keptPsaValue,
  normalisePsaUnit,
  parseDecimal,
  PSA_MESSAGES,
  psaInWords,
  psaValueProblem,
  readThreshold,
  readThresholdForm,
  releasedFlagNeedsCheck,
  suggestFlag,
  type ThresholdBand,
} from "./psa-flag";

/** The seeded bands (migration 0006). */
const BANDS: ThresholdBand[] = [
  { minAge: 40, maxAge: 49, thresholdNgMl: "1.00" },
  { minAge: 50, maxAge: 59, thresholdNgMl: "2.00" },
  { minAge: 60, maxAge: 69, thresholdNgMl: null },
  { minAge: 70, maxAge: 79, thresholdNgMl: null },
  { minAge: 80, maxAge: 120, thresholdNgMl: null },
];

describe("suggestFlag", () => {
  it("at 45: 0.99 is green, 1.00 and above amber", () => {
    expect(suggestFlag("0.99", 45, BANDS)).toBe("green");
    expect(suggestFlag("1.00", 45, BANDS)).toBe("amber");
    expect(suggestFlag("1", 45, BANDS)).toBe("amber");
    expect(suggestFlag("1.000", 45, BANDS)).toBe("amber");
    expect(suggestFlag("0.999", 45, BANDS)).toBe("green");
    expect(suggestFlag("12.5", 45, BANDS)).toBe("amber");
  });

  it("at 55: 1.99 is green, 2.00 amber", () => {
    expect(suggestFlag("1.99", 55, BANDS)).toBe("green");
    expect(suggestFlag("2.00", 55, BANDS)).toBe("amber");
    expect(suggestFlag("2.01", 55, BANDS)).toBe("amber");
  });

  it("uses the band edges inclusively", () => {
    expect(suggestFlag("1.50", 49, BANDS)).toBe("amber");
    expect(suggestFlag("1.50", 50, BANDS)).toBe("green");
    expect(suggestFlag("0.10", 40, BANDS)).toBe("green");
  });

  it("suggests nothing where the band has no threshold, or no band or age applies", () => {
    for (const value of ["0.00", "0.5", "3.99", "40", "9999"]) {
      expect(suggestFlag(value, 65, BANDS)).toBeNull();
      expect(suggestFlag(value, 80, BANDS)).toBeNull();
    }
    expect(suggestFlag("5.00", 39, BANDS)).toBeNull();
    expect(suggestFlag("5.00", null, BANDS)).toBeNull();
    expect(suggestFlag("5.00", 45, [])).toBeNull();
  });

  it("suggests nothing for a value it cannot read", () => {
    expect(suggestFlag("abc", 45, BANDS)).toBeNull();
    expect(suggestFlag("-1", 45, BANDS)).toBeNull();
  });

  it("follows an edited threshold", () => {
    const edited = BANDS.map((band) =>
      band.minAge === 60 ? { ...band, thresholdNgMl: "3.00" } : band,
    );
    expect(suggestFlag("2.99", 65, edited)).toBe("green");
    expect(suggestFlag("3.00", 65, edited)).toBe("amber");
  });
});

describe("decimals", () => {
  it("parses as integers and a scale", () => {
    expect(parseDecimal("1.23")).toEqual({ units: 123n, scale: 2 });
    expect(parseDecimal(" 7 ")).toEqual({ units: 7n, scale: 0 });
    expect(parseDecimal("1e3")).toBeNull();
    expect(parseDecimal(".5")).toBeNull();
    expect(parseDecimal("1,5")).toBeNull();
    expect(parseDecimal("-0.1")).toBeNull();
  });

  it("compares exactly across scales", () => {
    expect(compareDecimals("1.00", "1")).toBe(0);
    expect(compareDecimals("0.30", "0.3")).toBe(0);
    expect(compareDecimals("0.1", "0.09")).toBe(1);
    expect(compareDecimals("1.999", "2.00")).toBe(-1);
    // Where floating point would say 0.1 + 0.2 > 0.3, decimals do not take that path at all.
    expect(compareDecimals("0.30000000000000004", "0.3")).toBe(1);
  });
});

describe("psaValueProblem", () => {
  it("accepts non-negative decimals up to 10,000 with up to 3 places", () => {
    for (const value of ["0", "0.00", "1.23", "10000", "10000.000", "0.003"]) {
      expect(psaValueProblem(value)).toBeNull();
    }
  });
  it("refuses anything else with a message", () => {
    expect(psaValueProblem("")).toBe(PSA_MESSAGES.missing);
    expect(psaValueProblem("abc")).toBe(PSA_MESSAGES.notDecimal);
    expect(psaValueProblem("<-0.01")).toBe(PSA_MESSAGES.notDecimal);
    expect(psaValueProblem("<")).toBe(PSA_MESSAGES.notDecimal);
    expect(psaValueProblem("0.01<")).toBe(PSA_MESSAGES.notDecimal);
    expect(psaValueProblem("1,23")).toBe(
      "Write the PSA value with a full stop before its decimals, like 1.23, not a comma",
    );
    expect(psaValueProblem("<0.0001")).toBe(PSA_MESSAGES.tooManyDecimals);
    // "Less than 0 ng/ml" is no reading (found by a review).
    expect(psaValueProblem("<0")).toBe(PSA_MESSAGES.zeroLimit);
    expect(psaValueProblem("<0.000")).toBe(PSA_MESSAGES.zeroLimit);
    expect(psaValueProblem("-1")).toBe(PSA_MESSAGES.notDecimal);
    expect(psaValueProblem("1.2345")).toBe(PSA_MESSAGES.tooManyDecimals);
    expect(psaValueProblem("10000.01")).toBe(PSA_MESSAGES.tooLarge);
    expect(psaValueProblem("123456")).toBe(PSA_MESSAGES.tooLarge);
  });
});

describe("a value below what the laboratory can measure (found by an event-day review)", () => {
  it("is taken as the laboratory writes it, and kept without spaces", () => {
    for (const value of ["<0.01", "< 0.01", " <0.1 "]) expect(psaValueProblem(value)).toBeNull();
    expect(keptPsaValue(" < 0.01 ")).toBe("<0.01");
    expect(keptPsaValue(" 1.23 ")).toBe("1.23");
  });

  it("is green when the limit is at or below his threshold, and left to the clinician above it", () => {
    // At 45 the threshold is 1.00: anything below 0.01, or below 1.00, is below it.
    expect(suggestFlag("<0.01", 45, BANDS)).toBe("green");
    expect(suggestFlag("<1.00", 45, BANDS)).toBe("green");
    // Below 1.5 could be 1.2 (amber) or 0.3 (green).
    expect(suggestFlag("<1.5", 45, BANDS)).toBeNull();
    expect(suggestFlag("<0.01", 65, BANDS)).toBeNull();
  });

  it("reads as words", () => {
    expect(psaInWords("<0.01", "ng/ml")).toBe("less than 0.01 ng/ml");
    expect(psaInWords("1.23", "ng/ml")).toBe("1.23 ng/ml");
  });
});

describe("normalisePsaUnit", () => {
  it("accepts ng/ml in any case and µg/l, which is the same", () => {
    for (const unit of ["ng/ml", "ng/mL", "NG/ML", " ng / ml ", "µg/l", "μg/L", "ug/l", "mcg/L"]) {
      expect(normalisePsaUnit(unit)).toBe("ng/ml");
    }
  });
  it("refuses other units", () => {
    for (const unit of ["", "mg/l", "ng/l", "nmol/l", "ng", "ml"]) {
      expect(normalisePsaUnit(unit)).toBeNull();
    }
  });
});

describe("readThreshold", () => {
  it("reads blank as none and keeps two decimals", () => {
    expect(readThreshold("")).toEqual({ ok: true, value: null });
    expect(readThreshold("  ")).toEqual({ ok: true, value: null });
    expect(readThreshold("1")).toEqual({ ok: true, value: "1.00" });
    expect(readThreshold("1.5")).toEqual({ ok: true, value: "1.50" });
    expect(readThreshold("2.25")).toEqual({ ok: true, value: "2.25" });
    expect(readThreshold("0")).toEqual({ ok: true, value: "0.00" });
  });
  it("refuses more than two places, negatives and words", () => {
    for (const text of ["1.234", "-1", "one", "1,5", "1."]) {
      expect(readThreshold(text)).toEqual({ ok: false, message: PSA_MESSAGES.thresholdFormat });
    }
    expect(readThreshold("10001")).toEqual({
      ok: false,
      message: PSA_MESSAGES.thresholdTooLarge,
    });
  });
});

describe("readThresholdForm", () => {
  it("reads every band, blank as none", () => {
    const read = readThresholdForm(["a", "b"], { "threshold-a": "1.5", "threshold-b": "" });
    expect(read).toEqual({
      ok: true,
      thresholds: new Map([
        ["a", "1.50"],
        ["b", null],
      ]),
    });
  });
  it("names each bad field", () => {
    expect(readThresholdForm(["a", "b"], { "threshold-a": "x", "threshold-b": "1.234" })).toEqual({
      ok: false,
      fieldErrors: {
        "threshold-a": PSA_MESSAGES.thresholdFormat,
        "threshold-b": PSA_MESSAGES.thresholdFormat,
      },
    });
  });
  // Issue 14, item 9: a post without the band fields set every threshold to NULL.
  it("a thresholds post without its band fields is refused, with a message for each", () => {
    expect(readThresholdForm(["a", "b"], { intent: "save" })).toEqual({
      ok: false,
      fieldErrors: {
        "threshold-a": "This threshold was not sent. Reload the page, then enter it again.",
        "threshold-b": "This threshold was not sent. Reload the page, then enter it again.",
      },
    });
    // One field missing: that one is named; the one sent is fine.
    expect(readThresholdForm(["a", "b"], { "threshold-a": "" })).toEqual({
      ok: false,
      fieldErrors: {
        "threshold-b": "This threshold was not sent. Reload the page, then enter it again.",
      },
    });
  });
});

describe("releasedFlagNeedsCheck (his date of birth changed after release)", () => {
  const check = (decidedAge: number | null, ageNow: number | null, alreadyAsked = false) =>
    releasedFlagNeedsCheck({ decidedAge, ageNow, bands: BANDS, alreadyAsked });

  it("asks when he is now in another age band, whatever the flags say", () => {
    expect(check(55, 45)).toBe(true);
    expect(check(49, 50)).toBe(true);
    // Both bands without a threshold: the clinician judged a man of 65, not of 75.
    expect(check(65, 75)).toBe(true);
    // Judged with no age at all, whatever his age now (even below every band).
    expect(check(null, 45)).toBe(true);
    expect(check(null, 38)).toBe(true);
  });

  it("does not ask within one band, nor when his age is now unknown", () => {
    expect(check(50, 59)).toBe(false);
    expect(check(45, 45)).toBe(false);
    expect(check(55, null)).toBe(false);
    // Below every band before and after.
    expect(check(35, 38)).toBe(false);
  });

  it("keeps a check once asked, even when the date goes back", () => {
    expect(check(45, 55, true)).toBe(true);
    expect(check(55, null, true)).toBe(true);
  });
});
