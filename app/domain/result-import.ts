import { parse } from "csv-parse/sync";
import { ageOn } from "./age";
import { normaliseBookingReference } from "./booking-reference";
import { formatLongDate } from "./date-labels";
import { hasControlCharacters } from "./fields";
import {
  normalisePsaUnit,
  psaValueProblem,
  suggestFlag,
  type SuggestedFlag,
  type ThresholdBand,
} from "./psa-flag";

/**
 * The laboratory's results file: reading the CSV, and checking each row against the bookings
 * before anything is stored. Pure: the caller looks the bookings up and passes them in.
 */

/** The columns the page documents. Headers are matched in any case, ignoring spaces, "_" and "-". */
export const IMPORT_COLUMNS = [
  {
    key: "reference",
    header: "reference",
    aliases: ["reference", "booking reference", "booking ref", "ref"],
    description: "The booking reference, like MHAT-7KQ3-9XZ2. Give this, the sample id, or both.",
  },
  {
    key: "sampleId",
    header: "sample id",
    aliases: ["sample id", "sample", "sample number", "specimen id"],
    description:
      "The sample id recorded at check-in. If both are given they must be the same booking.",
  },
  {
    key: "psa",
    header: "psa",
    aliases: ["psa", "psa value", "psa result", "value", "result"],
    description:
      "The PSA value as a number, like 1.23 (up to 3 decimal places), or <0.01 for a value below what the laboratory can measure.",
  },
  {
    key: "unit",
    header: "unit",
    aliases: ["unit", "units", "psa unit"],
    description: "ng/ml (any capitals). µg/l or ug/l is accepted as the same unit.",
  },
  {
    key: "sampleDate",
    header: "sample date",
    aliases: ["sample date", "date", "collection date", "collected"],
    description:
      "Optional: the day the sample was taken, as YYYY-MM-DD. Without it, the event's date is used.",
  },
] as const;

export type ImportColumnKey = (typeof IMPORT_COLUMNS)[number]["key"];

/** A results file has at most this many rows (an event has far fewer places). */
export const MAX_IMPORT_ROWS = 2000;
/** Longest text kept from one cell. */
const MAX_CELL = 100;

export const IMPORT_MESSAGES = {
  noFile: "Choose the laboratory's CSV file",
  notCsv: "The file must be a CSV file (.csv)",
  empty: "The file has no rows of results",
  unreadable: (line: number | null) =>
    `The file could not be read as CSV${line ? ` (near line ${line})` : ""}. Save it from the spreadsheet as "CSV (comma delimited)" and try again.`,
  missingColumns: (names: string[]) =>
    `The file has no ${names.join(" or ")} column. The first row must name the columns.`,
  controlCharacters:
    "The file contains characters that are not text (it may be a spreadsheet, not a CSV file). Save it as CSV and try again.",
  noIdentifier: 'The file needs a "reference" or a "sample id" column',
  tooManyRows: `The file has more than ${MAX_IMPORT_ROWS} rows. Split it into smaller files.`,
  // Per row:
  noMatchKey: "No booking reference or sample id",
  unknownReference: "No booking has this reference",
  unknownSampleId: "No booking has this sample id",
  ambiguousSampleId: "More than one booking has this sample id; use the booking reference",
  disagree: "The reference and the sample id belong to different bookings",
  badUnit: "The unit must be ng/ml (or µg/l)",
  missingUnit: "No unit; it must be ng/ml",
  badDate: "The sample date must be a real date written YYYY-MM-DD",
  futureDate: "The sample date is in the future",
  beforeAppointment: (eventDate: string) =>
    `The sample date is before his appointment (${formatLongDate(eventDate)}), when the sample was taken. Correct it, or leave it empty to use the appointment's day.`,
  notConfirmed: "The booking is not confirmed",
  duplicateInFile: (lines: number[]) =>
    `The same booking appears more than once in the file (lines ${lines.join(", ")}); none of them is imported`,
  alreadyReleased:
    "This booking already has a released result. To change it, correct the result on its page.",
  noSample:
    "No sample is recorded for this booking at check-in, so it cannot have a result yet. If a sample was taken, record it on the attendee list first.",
  // Notes (the row is still imported):
  replaces: "Replaces a result imported earlier that has not been released",
  noDateOfBirth: "No date of birth on file, so no flag is suggested: set the flag yourself",
  noThreshold: "No threshold for this age: set the flag yourself",
} as const;

/** Longest uploaded file name kept (result_import.filename). */
export const MAX_FILENAME = 200;

/**
 * Control characters (C0, DEL, C1) and the invisible marks that reorder text on screen, which a
 * file name could use to look like something else.
 */
const FILENAME_UNSAFE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The uploaded file's name as it is stored and shown: without control characters, trimmed, at
 * most MAX_FILENAME characters (never cutting a character in half). Nothing left: null.
 */
export function cleanUploadFilename(name: string | null | undefined): string | null {
  if (!name) return null;
  const clean = Array.from(name.replace(FILENAME_UNSAFE, "").trim())
    .slice(0, MAX_FILENAME)
    .join("")
    .trim();
  return clean || null;
}

/** One data row as read from the file (cells trimmed; missing cells are ""). */
export interface RawImportRow {
  /** The line of the file the row ends on (the header is line 1). */
  line: number;
  reference: string;
  sampleId: string;
  psa: string;
  unit: string;
  sampleDate: string;
}

export type CsvReadResult = { ok: true; rows: RawImportRow[] } | { ok: false; error: string };

function headerKey(text: string) {
  return text
    .replace(/^\ufeff/, "")
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ")
    .replace(/\s*\(.*\)$/, "");
}

/**
 * The file's bytes as text: UTF-8 (with or without a BOM), or else Windows-1252, as older
 * spreadsheet programs save CSV (where "µ" is one byte).
 */
export function decodeCsvBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/** Reads the laboratory's CSV: a header row, then one row per result. BOM and CRLF are fine. */
export function readResultsCsv(text: string): CsvReadResult {
  if (hasControlCharacters(text)) return { ok: false, error: IMPORT_MESSAGES.controlCharacters };
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const line =
      error && typeof error === "object" && "lines" in error && typeof error.lines === "number"
        ? error.lines
        : null;
    return { ok: false, error: IMPORT_MESSAGES.unreadable(line) };
  }
  const [header, ...body] = records;
  if (!header) return { ok: false, error: IMPORT_MESSAGES.empty };

  const positions = new Map<ImportColumnKey, number>();
  header.record.forEach((cell, index) => {
    const key = headerKey(cell);
    const column = IMPORT_COLUMNS.find((candidate) =>
      (candidate.aliases as readonly string[]).includes(key),
    );
    if (column && !positions.has(column.key)) positions.set(column.key, index);
  });
  const missing = (["psa", "unit"] as const).filter((key) => !positions.has(key));
  if (missing.length > 0)
    return {
      ok: false,
      error: IMPORT_MESSAGES.missingColumns(missing.map((key) => `"${key}"`)),
    };
  if (!positions.has("reference") && !positions.has("sampleId"))
    return { ok: false, error: IMPORT_MESSAGES.noIdentifier };
  if (body.length === 0) return { ok: false, error: IMPORT_MESSAGES.empty };
  if (body.length > MAX_IMPORT_ROWS) return { ok: false, error: IMPORT_MESSAGES.tooManyRows };

  const cell = (record: string[], key: ImportColumnKey) => {
    const index = positions.get(key);
    return index === undefined ? "" : (record[index] ?? "").trim().slice(0, MAX_CELL);
  };
  return {
    ok: true,
    rows: body.map(({ record, info }) => ({
      line: info.lines,
      reference: cell(record, "reference"),
      sampleId: cell(record, "sampleId"),
      psa: cell(record, "psa"),
      unit: cell(record, "unit"),
      sampleDate: cell(record, "sampleDate"),
    })),
  };
}

/** Sample ids are matched ignoring case and surrounding spaces. */
export function sampleIdKey(text: string): string {
  return text.trim().replace(/\s+/g, " ").toUpperCase();
}

/** A booking a row may point to, as the caller found it. */
export interface BookingCandidate {
  bookingId: string;
  reference: string;
  status: string;
  dateOfBirth: string | null;
  /** "yyyy-MM-dd" */
  eventDate: string;
  /** The booking's result, if it already has one. */
  result: { id: string; released: boolean } | null;
  /** Whether a sample was recorded at check-in (booking.sampleTakenAt is set). */
  sampleTaken: boolean;
}

export interface ImportLookup {
  /** By the stored reference ("MHAT-7KQ3-9XZ2"). */
  byReference: ReadonlyMap<string, BookingCandidate>;
  /** By sampleIdKey(); more than one booking can share a typed sample id. */
  bySampleId: ReadonlyMap<string, readonly BookingCandidate[]>;
}

/** A row after checking, as kept between the preview and the commit. */
export interface CheckedImportRow extends RawImportRow {
  bookingId: string | null;
  errors: string[];
  notes: string[];
  /** The man's age on the sample date (or the event's date), when known. */
  age: number | null;
  suggestedFlag: SuggestedFlag | null;
  /** The normalised unit, "ng/ml", when the unit is good. */
  normalisedUnit: string | null;
  /** The sample date to store: the row's, or the event's. */
  effectiveSampleDate: string | null;
  /** An unreleased result of this booking is replaced. */
  replaces: boolean;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(text: string) {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return (
    y >= 1900 &&
    probe.getUTCFullYear() === y &&
    probe.getUTCMonth() === m - 1 &&
    probe.getUTCDate() === d
  );
}

function findBooking(
  row: RawImportRow,
  lookup: ImportLookup,
): { booking: BookingCandidate | null; errors: string[] } {
  const errors: string[] = [];
  let byReference: BookingCandidate | null = null;
  let bySample: BookingCandidate | null = null;
  if (!row.reference && !row.sampleId)
    return { booking: null, errors: [IMPORT_MESSAGES.noMatchKey] };
  if (row.reference) {
    const normalised = normaliseBookingReference(row.reference);
    byReference = (normalised && lookup.byReference.get(normalised)) || null;
    if (!byReference) errors.push(IMPORT_MESSAGES.unknownReference);
  }
  if (row.sampleId) {
    const found = lookup.bySampleId.get(sampleIdKey(row.sampleId)) ?? [];
    if (found.length === 0) errors.push(IMPORT_MESSAGES.unknownSampleId);
    else if (found.length === 1) bySample = found[0]!;
    else if (!byReference) errors.push(IMPORT_MESSAGES.ambiguousSampleId);
    else if (!found.some((candidate) => candidate.bookingId === byReference!.bookingId))
      errors.push(IMPORT_MESSAGES.disagree);
    else bySample = byReference;
  }
  if (byReference && bySample && byReference.bookingId !== bySample.bookingId)
    errors.push(IMPORT_MESSAGES.disagree);
  return { booking: errors.length === 0 ? (byReference ?? bySample) : null, errors };
}

/**
 * Checks every row: that it points to one confirmed booking (by reference, sample id or both,
 * agreeing) whose sample was taken, that the value and unit are good, that the booking appears
 * once in the file and has no released result. Good rows get the man's age and the flag the thresholds suggest.
 * `today` is "yyyy-MM-dd" in London.
 */
export function checkImportRows(
  rows: readonly RawImportRow[],
  lookup: ImportLookup,
  bands: readonly ThresholdBand[],
  today: string,
): CheckedImportRow[] {
  const checked = rows.map((row): CheckedImportRow => {
    const errors: string[] = [];
    const notes: string[] = [];
    const found = findBooking(row, lookup);
    errors.push(...found.errors);
    /** Only a booking both keys agree on; a row with a matching problem points to nobody. */
    const booking = found.booking;

    const valueProblem = psaValueProblem(row.psa);
    if (valueProblem) errors.push(valueProblem);
    const normalisedUnit = row.unit ? normalisePsaUnit(row.unit) : null;
    if (!row.unit) errors.push(IMPORT_MESSAGES.missingUnit);
    else if (!normalisedUnit) errors.push(IMPORT_MESSAGES.badUnit);
    if (row.sampleDate) {
      if (!isRealDate(row.sampleDate)) errors.push(IMPORT_MESSAGES.badDate);
      else if (row.sampleDate > today) errors.push(IMPORT_MESSAGES.futureDate);
    }

    let replaces = false;
    if (booking) {
      if (booking.status !== "confirmed") errors.push(IMPORT_MESSAGES.notConfirmed);
      if (booking.result?.released) errors.push(IMPORT_MESSAGES.alreadyReleased);
      else if (booking.result) {
        replaces = true;
        notes.push(IMPORT_MESSAGES.replaces);
      }
      // No sample, no result: the appointment may not even have happened yet, or a typing slip in
      // the laboratory points at someone else.
      if (!booking.sampleTaken) errors.push(IMPORT_MESSAGES.noSample);
      // His age, and so the suggested flag, is reckoned on the sample date.
      if (row.sampleDate && isRealDate(row.sampleDate) && row.sampleDate < booking.eventDate)
        errors.push(IMPORT_MESSAGES.beforeAppointment(booking.eventDate));
    }

    const effectiveSampleDate =
      row.sampleDate && isRealDate(row.sampleDate) ? row.sampleDate : (booking?.eventDate ?? null);
    const age =
      booking?.dateOfBirth && effectiveSampleDate
        ? ageOn(booking.dateOfBirth, effectiveSampleDate)
        : null;
    const suggestedFlag = valueProblem ? null : suggestFlag(row.psa, age, bands);
    if (booking && errors.length === 0 && suggestedFlag === null) {
      notes.push(age === null ? IMPORT_MESSAGES.noDateOfBirth : IMPORT_MESSAGES.noThreshold);
    }
    return {
      ...row,
      bookingId: booking?.bookingId ?? null,
      errors,
      notes,
      age,
      suggestedFlag,
      normalisedUnit,
      effectiveSampleDate,
      replaces,
    };
  });

  // The same booking twice: none of its rows is imported, since the file cannot say which is right.
  const linesByBooking = new Map<string, number[]>();
  for (const row of checked) {
    if (!row.bookingId) continue;
    linesByBooking.set(row.bookingId, [...(linesByBooking.get(row.bookingId) ?? []), row.line]);
  }
  for (const row of checked) {
    const lines = row.bookingId ? linesByBooking.get(row.bookingId)! : [];
    if (lines.length > 1) row.errors.push(IMPORT_MESSAGES.duplicateInFile(lines));
  }
  return checked;
}

export function importCounts(rows: readonly CheckedImportRow[]) {
  const good = rows.filter((row) => row.errors.length === 0).length;
  return { rows: rows.length, good, errors: rows.length - good };
}
