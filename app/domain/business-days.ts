import { createRequire } from "node:module";
import type Holidays from "date-holidays";
import { addLondonDays } from "./london-time";

/**
 * Business days in England and Wales: Monday to Friday, except bank holidays (including substitute
 * days and one-off holidays such as a coronation). The bank holidays come from the `date-holidays`
 * package's kept list for GB-ENG; upgrading the package brings in newly announced ones.
 * Days are London calendar dates, "yyyy-MM-dd".
 */

let englandAndWales: Holidays | undefined;
const holidaysByYear = new Map<number, ReadonlySet<string>>();

function bankHolidays(year: number): ReadonlySet<string> {
  let days = holidaysByYear.get(year);
  if (!days) {
    // Loaded on first use, not at start: the package holds every country's rules, about 9 MB of
    // heap (D-149 to D-152, docs/DECISIONS.md). Its CommonJS build keeps this synchronous.
    englandAndWales ??= new (createRequire(import.meta.url)("date-holidays") as typeof Holidays)(
      "GB",
      "ENG",
    );
    days = new Set(
      englandAndWales
        .getHolidays(year)
        .filter((holiday) => holiday.type === "public")
        .map((holiday) => holiday.date.slice(0, 10)),
    );
    holidaysByYear.set(year, days);
  }
  return days;
}

export function isBankHoliday(day: string): boolean {
  return bankHolidays(Number(day.slice(0, 4))).has(day);
}

export function isBusinessDay(day: string): boolean {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isBankHoliday(day);
}

/** Whole business days strictly after `from` and strictly before `to` (0 when `to` is not later). */
export function businessDaysBetween(from: string, to: string): number {
  let count = 0;
  for (let day = addLondonDays(from, 1); day < to; day = addLondonDays(day, 1)) {
    if (isBusinessDay(day)) count++;
  }
  return count;
}

/** The business day `count` business days after `day` (`day` itself does not count). */
export function addBusinessDays(day: string, count: number): string {
  let result = day;
  for (let added = 0; added < count;) {
    result = addLondonDays(result, 1);
    if (isBusinessDay(result)) added++;
  }
  return result;
}

/** The latest day from which at least `count` whole business days remain before `to`. */
export function lastDayWithBusinessDaysBefore(to: string, count: number): string {
  let day = addLondonDays(to, -1);
  let between = 0;
  // Walk back until `count` business days lie strictly between `day` and `to`.
  while (between < count) {
    if (isBusinessDay(day)) between++;
    day = addLondonDays(day, -1);
  }
  return day;
}
