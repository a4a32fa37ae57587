import { stringify } from "csv-stringify/sync";
import { csvSafeRow } from "./csv-cell";
import { londonDate } from "./london-time";

/** The newsletter subscribers export, in the column order staff see in their spreadsheet. */
export const SUBSCRIBERS_CSV_HEADERS = ["name", "email", "hear about events", "subscribed date"];

export interface SubscriberRow {
  name: string;
  email: string;
  hearAboutEvents: boolean;
  subscribedAt: Date;
}

/**
 * The CSV file: a UTF-8 byte-order mark first (so that Excel reads names such as "Zoë" right),
 * then a header row and one row per subscriber. Every cell is made safe from formula injection.
 */
export function subscribersCsv(rows: readonly SubscriberRow[]): string {
  const records = rows.map((row) =>
    csvSafeRow([
      row.name,
      row.email,
      row.hearAboutEvents ? "yes" : "no",
      londonDate(row.subscribedAt),
    ]),
  );
  return stringify([SUBSCRIBERS_CSV_HEADERS, ...records], { bom: true });
}

/** "newsletter-subscribers-2026-03-31.csv", dated in London. */
export function subscribersCsvFilename(now: Date): string {
  return `newsletter-subscribers-${londonDate(now)}.csv`;
}
