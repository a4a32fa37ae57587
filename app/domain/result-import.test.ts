import { describe, expect, it } from "vitest";
import type { ThresholdBand } from "./psa-flag";
import {
  checkImportRows,
  cleanUploadFilename,
  decodeCsvBytes,
  IMPORT_MESSAGES,
  importCounts,
  MAX_FILENAME,
  MAX_IMPORT_ROWS,
  readResultsCsv,
  sampleIdKey,
  type BookingCandidate,
  type ImportLookup,
  type RawImportRow,
} from "./result-import";

const BANDS: ThresholdBand[] = [
  { minAge: 40, maxAge: 49, thresholdNgMl: "1.00" },
  { minAge: 50, maxAge: 59, thresholdNgMl: "2.00" },
  { minAge: 60, maxAge: 69, thresholdNgMl: null },
];
const TODAY = "2026-06-20";

function candidate(overrides: Partial<BookingCandidate> = {}): BookingCandidate {
  return {
    bookingId: "b-1",
    reference: "MHAT-7KQ3-9XZ2",
    status: "confirmed",
    dateOfBirth: "1981-06-10",
    eventDate: "2026-06-10",
    result: null,
    sampleTaken: true,
    ...overrides,
  };
}

function lookupOf(
  list: BookingCandidate[],
  sampleIds: Record<string, string[]> = {},
): ImportLookup {
  const byReference = new Map(list.map((item) => [item.reference, item]));
  const bySampleId = new Map<string, BookingCandidate[]>();
  for (const [sample, ids] of Object.entries(sampleIds)) {
    bySampleId.set(
      sampleIdKey(sample),
      ids.map((id) => list.find((item) => item.bookingId === id)!),
    );
  }
  return { byReference, bySampleId };
}

function row(overrides: Partial<RawImportRow> = {}): RawImportRow {
  return {
    line: 2,
    reference: "MHAT-7KQ3-9XZ2",
    sampleId: "",
    psa: "1.23",
    unit: "ng/ml",
    sampleDate: "",
    ...overrides,
  };
}

describe("readResultsCsv", () => {
  it("reads headers in any case, with a BOM and CRLF line ends", () => {
    const text =
      "\ufeffReference,Sample ID,PSA,Unit,Sample_Date\r\nMHAT-7KQ3-9XZ2,S-001,1.23,ng/mL,2026-06-10\r\n\r\n,S-002,0.5,ng/ml,\r\n";
    const read = readResultsCsv(text);
    expect(read).toEqual({
      ok: true,
      rows: [
        {
          line: 2,
          reference: "MHAT-7KQ3-9XZ2",
          sampleId: "S-001",
          psa: "1.23",
          unit: "ng/mL",
          sampleDate: "2026-06-10",
        },
        { line: 4, reference: "", sampleId: "S-002", psa: "0.5", unit: "ng/ml", sampleDate: "" },
      ],
    });
  });

  it("accepts columns in any order, and only one of reference or sample id", () => {
    const read = readResultsCsv('unit,psa,sample id\n"ng/ml",2.00,LAB 9\n');
    expect(read.ok && read.rows[0]).toMatchObject({
      sampleId: "LAB 9",
      psa: "2.00",
      reference: "",
    });
  });

  it("says which columns are missing", () => {
    expect(readResultsCsv("reference,value\nMHAT-7KQ3-9XZ2,1\n")).toEqual({
      ok: false,
      error: IMPORT_MESSAGES.missingColumns(['"unit"']),
    });
    expect(readResultsCsv("psa,unit\n1,ng/ml\n")).toEqual({
      ok: false,
      error: IMPORT_MESSAGES.noIdentifier,
    });
  });

  it("refuses an empty file, a header alone, broken quoting and too many rows", () => {
    expect(readResultsCsv("")).toEqual({ ok: false, error: IMPORT_MESSAGES.empty });
    expect(readResultsCsv("reference,psa,unit\r\n")).toEqual({
      ok: false,
      error: IMPORT_MESSAGES.empty,
    });
    const broken = readResultsCsv('reference,psa,unit\n"MHAT-7KQ3-9XZ2,1.2,ng/ml\n');
    expect(broken.ok).toBe(false);
    const many = ["reference,psa,unit"];
    for (let i = 0; i <= MAX_IMPORT_ROWS; i++) many.push(`MHAT-7KQ3-9XZ2,1.0,ng/ml`);
    expect(readResultsCsv(many.join("\n"))).toEqual({
      ok: false,
      error: IMPORT_MESSAGES.tooManyRows,
    });
  });

  it("treats a short row's missing cells as blank", () => {
    const read = readResultsCsv("reference,psa,unit\nMHAT-7KQ3-9XZ2,1.2\n");
    expect(read.ok && read.rows[0]).toMatchObject({ psa: "1.2", unit: "" });
  });
});

describe("checkImportRows", () => {
  it("matches by reference, typed any way, and suggests a flag from the age", () => {
    // Born 10 June 1981: 45 on the event's day.
    const [checked] = checkImportRows(
      [row({ reference: "mhat 7kq3 9xz2", psa: "1.00" })],
      lookupOf([candidate()]),
      BANDS,
      TODAY,
    );
    expect(checked).toMatchObject({
      bookingId: "b-1",
      errors: [],
      age: 45,
      suggestedFlag: "amber",
      normalisedUnit: "ng/ml",
      effectiveSampleDate: "2026-06-10",
    });
  });

  it("takes the age on the sample date when one is given", () => {
    // 44 until 10 June 2026: on 9 June he is 44 (band 40-49), on the 10th 45; a 49/50 edge:
    const person = candidate({ dateOfBirth: "1976-06-12" });
    const [before, after] = checkImportRows(
      [
        row({ psa: "1.50", sampleDate: "2026-06-11" }),
        row({ line: 3, reference: "MHAT-2222-3333", psa: "1.50", sampleDate: "2026-06-12" }),
      ],
      lookupOf([person, { ...person, bookingId: "b-2", reference: "MHAT-2222-3333" }]),
      BANDS,
      TODAY,
    );
    expect(before).toMatchObject({ age: 49, suggestedFlag: "amber" });
    expect(after).toMatchObject({ age: 50, suggestedFlag: "green" });
  });

  it("matches by sample id, ignoring case and spaces", () => {
    const [checked] = checkImportRows(
      [row({ reference: "", sampleId: " s-001 " })],
      lookupOf([candidate()], { "S-001": ["b-1"] }),
      BANDS,
      TODAY,
    );
    expect(checked).toMatchObject({ bookingId: "b-1", errors: [] });
  });

  it("reports unknown references and sample ids, and a reference and sample id that disagree", () => {
    const other = candidate({ bookingId: "b-2", reference: "MHAT-2222-3333" });
    const rows = checkImportRows(
      [
        row({ reference: "MHAT-ZZZZ-ZZZZ" }),
        row({ reference: "not a reference" }),
        row({ reference: "", sampleId: "NOPE" }),
        row({ sampleId: "S-002" }),
        row({ reference: "", sampleId: "" }),
      ],
      lookupOf([candidate(), other], { "S-002": ["b-2"] }),
      BANDS,
      TODAY,
    );
    expect(rows.map((item) => item.errors)).toEqual([
      [IMPORT_MESSAGES.unknownReference],
      [IMPORT_MESSAGES.unknownReference],
      [IMPORT_MESSAGES.unknownSampleId],
      [IMPORT_MESSAGES.disagree],
      [IMPORT_MESSAGES.noMatchKey],
    ]);
    expect(rows.every((item) => item.bookingId === null && item.suggestedFlag === null)).toBe(true);
  });

  it("needs the reference when a sample id is shared", () => {
    const other = candidate({ bookingId: "b-2", reference: "MHAT-2222-3333" });
    const lookup = lookupOf([candidate(), other], { S1: ["b-1", "b-2"] });
    const [alone, withReference] = checkImportRows(
      [
        row({ reference: "", sampleId: "S1" }),
        row({ line: 3, reference: "MHAT-2222-3333", sampleId: "S1" }),
      ],
      lookup,
      BANDS,
      TODAY,
    );
    expect(alone!.errors).toEqual([IMPORT_MESSAGES.ambiguousSampleId]);
    expect(withReference).toMatchObject({ bookingId: "b-2", errors: [] });
  });

  it("takes a value below what the laboratory can measure, green below his threshold (found by an event-day review)", () => {
    const [checked] = checkImportRows(
      [row({ psa: "< 0.01" })],
      lookupOf([candidate()]),
      BANDS,
      TODAY,
    );
    expect(checked).toMatchObject({ errors: [], age: 45, suggestedFlag: "green" });
  });

  it("reports bad values, units and dates", () => {
    const lookup = lookupOf([candidate()]);
    const errorsOf = (overrides: Partial<RawImportRow>) =>
      checkImportRows([row(overrides)], lookup, BANDS, TODAY)[0]!.errors;
    expect(errorsOf({ psa: "abc" })).toHaveLength(1);
    expect(errorsOf({ psa: "-2" })).toHaveLength(1);
    expect(errorsOf({ psa: "20000" })).toHaveLength(1);
    expect(errorsOf({ psa: "" })).toHaveLength(1);
    expect(errorsOf({ psa: "1,23" })).toEqual([
      "Write the PSA value with a full stop before its decimals, like 1.23, not a comma",
    ]);
    expect(errorsOf({ unit: "mmol/l" })).toEqual([IMPORT_MESSAGES.badUnit]);
    expect(errorsOf({ unit: "" })).toEqual([IMPORT_MESSAGES.missingUnit]);
    expect(errorsOf({ unit: "µg/L" })).toEqual([]);
    expect(errorsOf({ sampleDate: "10/06/2026" })).toEqual([IMPORT_MESSAGES.badDate]);
    expect(errorsOf({ sampleDate: "2026-02-30" })).toEqual([IMPORT_MESSAGES.badDate]);
    expect(errorsOf({ sampleDate: "2026-06-21" })).toEqual([IMPORT_MESSAGES.futureDate]);
    // His appointment was on 10 June: a sample cannot be older (found by an event-day review).
    expect(errorsOf({ sampleDate: "2026-06-09" })).toEqual([
      "The sample date is before his appointment (Wednesday, 10 June 2026), when the sample was taken. Correct it, or leave it empty to use the appointment's day.",
    ]);
    expect(errorsOf({ sampleDate: "2026-06-10" })).toEqual([]);
    expect(errorsOf({ sampleDate: "2026-06-11" })).toEqual([]);
  });

  it("refuses a booking that is not confirmed or already has a released result", () => {
    const [cancelled] = checkImportRows(
      [row()],
      lookupOf([candidate({ status: "cancelled" })]),
      BANDS,
      TODAY,
    );
    expect(cancelled!.errors).toEqual([IMPORT_MESSAGES.notConfirmed]);
    const [released] = checkImportRows(
      [row()],
      lookupOf([candidate({ result: { id: "r", released: true } })]),
      BANDS,
      TODAY,
    );
    expect(released!.errors).toEqual([IMPORT_MESSAGES.alreadyReleased]);
  });

  it("replaces an unreleased result, with a note", () => {
    const [checked] = checkImportRows(
      [row()],
      lookupOf([candidate({ result: { id: "r", released: false } })]),
      BANDS,
      TODAY,
    );
    expect(checked).toMatchObject({ errors: [], replaces: true });
    expect(checked!.notes).toContain(IMPORT_MESSAGES.replaces);
  });

  it("refuses every row of a booking that appears twice, by reference or sample id", () => {
    const rows = checkImportRows(
      [
        row({ line: 2 }),
        row({ line: 3, reference: "", sampleId: "S-001", psa: "1.5" }),
        row({ line: 4, reference: "MHAT-2222-3333" }),
      ],
      lookupOf([candidate(), candidate({ bookingId: "b-2", reference: "MHAT-2222-3333" })], {
        "S-001": ["b-1"],
      }),
      BANDS,
      TODAY,
    );
    expect(rows[0]!.errors).toEqual([IMPORT_MESSAGES.duplicateInFile([2, 3])]);
    expect(rows[1]!.errors).toEqual([IMPORT_MESSAGES.duplicateInFile([2, 3])]);
    expect(rows[2]!.errors).toEqual([]);
    expect(importCounts(rows)).toEqual({ rows: 3, good: 1, errors: 2 });
  });

  it("says when no flag can be suggested", () => {
    const [noDob, sixtyFive] = checkImportRows(
      [row(), row({ line: 3, reference: "MHAT-2222-3333" })],
      lookupOf([
        candidate({ dateOfBirth: null }),
        candidate({ bookingId: "b-2", reference: "MHAT-2222-3333", dateOfBirth: "1961-01-01" }),
      ]),
      BANDS,
      TODAY,
    );
    expect(noDob).toMatchObject({ suggestedFlag: null, age: null, errors: [] });
    expect(noDob!.notes).toEqual([IMPORT_MESSAGES.noDateOfBirth]);
    expect(sixtyFive).toMatchObject({ suggestedFlag: null, age: 65, errors: [] });
    expect(sixtyFive!.notes).toEqual([IMPORT_MESSAGES.noThreshold]);
  });

  // Issue 14, item 10: a result was imported (and released) for an appointment 10 days away.
  it("refuses a results row for a booking without a sample taken, with its reason", () => {
    const [unsampled, sampled] = checkImportRows(
      [row(), row({ line: 3, reference: "MHAT-2222-3333" })],
      lookupOf([
        candidate({ sampleTaken: false }),
        candidate({ bookingId: "b-2", reference: "MHAT-2222-3333" }),
      ]),
      BANDS,
      TODAY,
    );
    expect(unsampled).toMatchObject({ bookingId: "b-1", notes: [] });
    expect(unsampled!.errors).toEqual([
      "No sample is recorded for this booking at check-in, so it cannot have a result yet. If a sample was taken, record it on the attendee list first.",
    ]);
    expect(sampled).toMatchObject({ errors: [], notes: [] });
    expect(importCounts([unsampled!, sampled!])).toEqual({ rows: 2, good: 1, errors: 1 });
  });
});

describe("cleanUploadFilename", () => {
  it("drops control characters and reordering marks, and keeps an ordinary name", () => {
    expect(cleanUploadFilename("lab results June.csv")).toBe("lab results June.csv");
    expect(cleanUploadFilename("lab\u0000\r\n\u001b[31mred\u007f\u0085.csv")).toBe(
      "lab[31mred.csv",
    );
    expect(cleanUploadFilename("invoice\u202evsc.exe")).toBe("invoicevsc.exe");
    expect(cleanUploadFilename("résultats µg.csv")).toBe("résultats µg.csv");
  });

  it("caps the name at 200 characters without splitting a character", () => {
    expect(MAX_FILENAME).toBe(200);
    expect(cleanUploadFilename(`${"a".repeat(250)}.csv`)).toBe("a".repeat(200));
    const emoji = cleanUploadFilename("\u{1F600}".repeat(250))!;
    expect(Array.from(emoji)).toHaveLength(200);
    expect(emoji).toBe("\u{1F600}".repeat(200));
  });

  it("is null when nothing is left", () => {
    expect(cleanUploadFilename(null)).toBeNull();
    expect(cleanUploadFilename("")).toBeNull();
    expect(cleanUploadFilename("\u0000\u0001 ")).toBeNull();
  });
});

describe("decodeCsvBytes", () => {
  it("reads UTF-8, and Windows-1252 as older spreadsheets save it", () => {
    expect(decodeCsvBytes(new TextEncoder().encode("unit\nµg/l\n"))).toBe("unit\nµg/l\n");
    // "µ" is the single byte 0xB5 in Windows-1252, which is not valid UTF-8 on its own.
    const legacy = Uint8Array.from([0x75, 0x0a, 0xb5, 0x67, 0x2f, 0x6c]);
    expect(decodeCsvBytes(legacy)).toBe("u\nµg/l");
  });

  it("refuses a file with control characters (a binary file, say)", () => {
    expect(readResultsCsv("reference,psa,unit\nMHAT-7KQ3-9XZ2,1\u0000,ng/ml\n")).toEqual({
      ok: false,
      error: IMPORT_MESSAGES.controlCharacters,
    });
  });
});
