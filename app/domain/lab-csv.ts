import { stringify } from "csv-stringify/sync";
import { csvSafeRow } from "./csv-cell";

/**
 * The CSV the laboratory receives with an event's samples: one row per booking whose sample was
 * taken, in the column order the lab expects.
 */

export const LAB_CSV_MESSAGES = {
  noLab:
    "No laboratory is set for this event, so there is no lab CSV yet. Set the laboratory on the event's page first.",
} as const;

export const LAB_CSV_HEADERS = [
  "reference",
  "name",
  "date of birth",
  "NHS number",
  "sample id",
  "event date",
  "lab",
] as const;

export interface LabCsvRow {
  reference: string;
  name: string;
  /** "yyyy-MM-dd" */
  dateOfBirth: string | null;
  nhsNumber: string | null;
  sampleId: string;
  /** "yyyy-MM-dd" */
  eventDate: string;
  lab: string | null;
}

/** The file: the header line, then one line per row (csv-stringify quotes cells as needed). */
export function labCsv(rows: readonly LabCsvRow[]): string {
  // Every cell is made safe to open in a spreadsheet: a name such as "=HYPERLINK(…)" is text.
  const records = rows.map((row) =>
    csvSafeRow([
      row.reference,
      row.name,
      row.dateOfBirth,
      row.nhsNumber,
      row.sampleId,
      row.eventDate,
      row.lab,
    ]),
  );
  return stringify([[...LAB_CSV_HEADERS], ...records]);
}

/** "Stratford Community PSA Morning" → "stratford-community-psa-morning" (at most 50 characters). */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return slug || "event";
}

/** "lab-2026-06-10-stratford-community-psa-morning.csv": the event only, never a person. */
export function labCsvFilename(event: { eventDate: string; name: string }): string {
  return `lab-${event.eventDate}-${slugify(event.name)}.csv`;
}
