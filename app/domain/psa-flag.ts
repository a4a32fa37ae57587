/**
 * PSA values and the flag they suggest. The laboratory's value is kept as the text it sent
 * ("1.23") and compared with the age band's threshold exactly, digit by digit, never as a float:
 * 0.99 is below 1.00 and 1.00 is not. A value below what the laboratory can measure is kept as
 * it reports it, "<0.01".
 */

export const RESULT_FLAGS = ["green", "amber", "red"] as const;
export type ResultFlag = (typeof RESULT_FLAGS)[number];

/** What a threshold can suggest: at or above it amber, below it green. Red is the clinician's call. */
export type SuggestedFlag = Extract<ResultFlag, "green" | "amber">;

export const FLAG_LABELS: Record<ResultFlag, string> = {
  green: "Green",
  amber: "Amber",
  red: "Red",
};

/** What each flag tells the patient to do, as the clinician chooses it. */
export const FLAG_ACTIONS: Record<ResultFlag, string> = {
  green: "normal for his age: test again in 1, 2 or 3 years",
  amber: "a little raised: repeat the test in 3 months",
  red: "raised: see his GP",
};

/** The one unit results are stored in. µg/l is the same quantity (1 µg/l = 1 ng/ml). */
export const PSA_UNIT = "ng/ml";

/** A PSA above this is not a real reading: a typing or file error. */
export const MAX_PSA = 10000;
export const MAX_PSA_DECIMALS = 3;
export const MAX_THRESHOLD_DECIMALS = 2;

export const PSA_MESSAGES = {
  missing: "Enter the PSA value, like 1.23",
  notDecimal:
    "The PSA value must be a number of 0 or more, like 1.23, or below what the laboratory can measure, like <0.01",
  commaDecimal: "Write the PSA value with a full stop before its decimals, like 1.23, not a comma",
  zeroLimit: "A value below what the laboratory can measure needs a limit above 0, like <0.01",
  tooManyDecimals: `The PSA value can have at most ${MAX_PSA_DECIMALS} decimal places`,
  tooLarge: `The PSA value must be ${MAX_PSA.toLocaleString("en-GB")} or less`,
  thresholdFormat:
    "Enter a threshold of 0 or more with up to 2 decimal places, like 1.50, or leave it blank",
  thresholdTooLarge: `A threshold must be ${MAX_PSA.toLocaleString("en-GB")} or less`,
  thresholdMissing: "This threshold was not sent. Reload the page, then enter it again.",
} as const;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal as an integer and a scale: "1.23" is 123 hundredths. Null when it is not one. */
export function parseDecimal(text: string): { units: bigint; scale: number } | null {
  const match = DECIMAL.exec(text.trim());
  if (!match) return null;
  const whole = match[1]!;
  const fraction = match[2] ?? "";
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/** Compares two non-negative decimals exactly: -1, 0 or 1. Throws on text that is not one. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const left = parseDecimal(a);
  const right = parseDecimal(b);
  if (!left || !right) throw new Error("compareDecimals: not a decimal");
  const scale = Math.max(left.scale, right.scale);
  const l = left.units * 10n ** BigInt(scale - left.scale);
  const r = right.units * 10n ** BigInt(scale - right.scale);
  return l < r ? -1 : l > r ? 1 : 0;
}

/** "<0.01": below the laboratory's limit of measurement, which is the number after the sign. */
const BELOW_LIMIT = /^<\s*(\d+(?:\.\d+)?)$/;
/** "1,23": a decimal comma, as a spreadsheet set to another country writes it. */
const DECIMAL_COMMA = /^\d+,\d+$/;

/**
 * A PSA value read: the number (a measured value, or the limit below which it lies), whether it
 * lies below that limit, and the text to keep ("<0.01", without spaces).
 */
export type PsaReading = { number: string; belowLimit: boolean; text: string };

/** Reads a PSA value as the laboratory or a clinician wrote it; a message when it cannot be one. */
export function readPsaValue(
  text: string,
): { ok: true; reading: PsaReading } | { ok: false; message: string } {
  const value = text.trim();
  if (value === "") return { ok: false, message: PSA_MESSAGES.missing };
  const below = BELOW_LIMIT.exec(value);
  const number = below ? below[1]! : value;
  const parsed = parseDecimal(number);
  if (!parsed)
    return {
      ok: false,
      message: DECIMAL_COMMA.test(value) ? PSA_MESSAGES.commaDecimal : PSA_MESSAGES.notDecimal,
    };
  if (parsed.scale > MAX_PSA_DECIMALS) return { ok: false, message: PSA_MESSAGES.tooManyDecimals };
  if (below && parsed.units === 0n) return { ok: false, message: PSA_MESSAGES.zeroLimit };
  if (compareDecimals(number, String(MAX_PSA)) > 0)
    return { ok: false, message: PSA_MESSAGES.tooLarge };
  return {
    ok: true,
    reading: { number, belowLimit: below !== null, text: below ? `<${number}` : number },
  };
}

/** What is wrong with a PSA value as the laboratory or a clinician wrote it, or null when nothing is. */
export function psaValueProblem(text: string): string | null {
  const read = readPsaValue(text);
  return read.ok ? null : read.message;
}

/** The value as it is kept: "<0.01" for "< 0.01"; the text trimmed when it cannot be read. */
export function keptPsaValue(text: string): string {
  const read = readPsaValue(text);
  return read.ok ? read.reading.text : text.trim();
}

/** A result's value in words, for anyone to read: "1.23 ng/ml", "less than 0.01 ng/ml". */
export function psaInWords(value: string, unit: string): string {
  const below = BELOW_LIMIT.exec(value.trim());
  return below ? `less than ${below[1]} ${unit}` : `${value} ${unit}`;
}

/**
 * Reads a unit as laboratories write it: "ng/ml" in any case and spacing, or µg/l (also "ug/l"
 * and "mcg/l"), which is the same quantity. Anything else is null.
 */
export function normalisePsaUnit(text: string): typeof PSA_UNIT | null {
  const compact = text
    .normalize("NFKC")
    .replace(/\s+/g, "")
    .toLowerCase()
    .replace(/[\u00b5\u03bc]/g, "u");
  if (compact === "ng/ml" || compact === "ug/l" || compact === "mcg/l") return PSA_UNIT;
  return null;
}

/**
 * Reads a threshold as typed on the thresholds page: blank is none (null); otherwise a
 * non-negative decimal with up to two places, kept with exactly two ("1.5" → "1.50").
 */
export function readThreshold(
  text: string,
): { ok: true; value: string | null } | { ok: false; message: string } {
  const value = text.trim();
  if (value === "") return { ok: true, value: null };
  const parsed = parseDecimal(value);
  if (!parsed || parsed.scale > MAX_THRESHOLD_DECIMALS)
    return { ok: false, message: PSA_MESSAGES.thresholdFormat };
  if (compareDecimals(value, String(MAX_PSA)) > 0)
    return { ok: false, message: PSA_MESSAGES.thresholdTooLarge };
  const hundredths = parsed.units * 10n ** BigInt(MAX_THRESHOLD_DECIMALS - parsed.scale);
  const whole = hundredths / 100n;
  const cents = (hundredths % 100n).toString().padStart(2, "0");
  return { ok: true, value: `${whole}.${cents}` };
}

/** An age band and its threshold in ng/ml ("1.00"), or null: no suggestion for that age. */
export interface ThresholdBand {
  minAge: number;
  maxAge: number;
  thresholdNgMl: string | null;
}

export function bandForAge<B extends ThresholdBand>(age: number, bands: readonly B[]): B | null {
  return bands.find((band) => age >= band.minAge && age <= band.maxAge) ?? null;
}

/**
 * The flag a value suggests for a man of this age: amber at or above his band's threshold, green
 * below it, and null (the clinician sets the flag) when his age is unknown, falls in no band, or his
 * band has no threshold, or the value cannot be read. A value below a limit is green when the
 * limit is at or below the threshold; above it, it could be either, so nothing is suggested.
 */
export function suggestFlag(
  value: string,
  age: number | null,
  bands: readonly ThresholdBand[],
): SuggestedFlag | null {
  const read = readPsaValue(value);
  if (age === null || !read.ok) return null;
  const band = bandForAge(age, bands);
  if (!band || band.thresholdNgMl === null || parseDecimal(band.thresholdNgMl) === null)
    return null;
  const { number, belowLimit } = read.reading;
  const comparison = compareDecimals(number, band.thresholdNgMl);
  if (belowLimit) return comparison <= 0 ? "green" : null;
  return comparison >= 0 ? "amber" : "green";
}

/**
 * Whether a released result goes on the clinicians' list to check again after his date of birth
 * changed: the flag he was given was last decided for a man in another age band than he now is
 * (or when his age was not known). Checked against the age it was decided for, not the date just
 * replaced: a date removed and put back as it was asks nothing. Not when his date of birth is now
 * unknown: there is nothing to check it against. Once asked, only a clinician's answer takes it
 * off the list, whatever the date does next.
 */
export function releasedFlagNeedsCheck({
  decidedAge,
  ageNow,
  bands,
  alreadyAsked,
}: {
  decidedAge: number | null;
  ageNow: number | null;
  bands: readonly ThresholdBand[];
  alreadyAsked: boolean;
}): boolean {
  if (alreadyAsked) return true;
  if (ageNow === null) return false;
  // Decided with no age known: any age he now has is one the clinician never saw.
  if (decidedAge === null) return true;
  return bandForAge(decidedAge, bands) !== bandForAge(ageNow, bands);
}

/** The thresholds page's field for a band. */
export function thresholdFieldName(bandId: string) {
  return `threshold-${bandId}`;
}

/**
 * Reads the thresholds page: one field per band (blank: none). Gives every band's new threshold,
 * or the message for each bad field. A field not sent at all is refused, not read as blank: a
 * post that is not the page's form must not clear every threshold.
 */
export function readThresholdForm(
  bandIds: readonly string[],
  values: Record<string, string>,
):
  | { ok: true; thresholds: Map<string, string | null> }
  | { ok: false; fieldErrors: Record<string, string> } {
  const thresholds = new Map<string, string | null>();
  const fieldErrors: Record<string, string> = {};
  for (const id of bandIds) {
    const name = thresholdFieldName(id);
    const typed = values[name];
    if (typed === undefined) {
      fieldErrors[name] = PSA_MESSAGES.thresholdMissing;
      continue;
    }
    const read = readThreshold(typed);
    if (read.ok) thresholds.set(id, read.value);
    else fieldErrors[name] = read.message;
  }
  return Object.keys(fieldErrors).length > 0
    ? { ok: false, fieldErrors }
    : { ok: true, thresholds };
}
