/**
 * Dates as pages print them, from "yyyy-MM-dd". Built from Intl parts, without date libraries, so
 * that pages showing dates ship no extra JavaScript; a calendar date needs no time zone.
 */
const weekday = new Intl.DateTimeFormat("en-GB", { weekday: "long", timeZone: "UTC" });
const month = new Intl.DateTimeFormat("en-GB", { month: "long", timeZone: "UTC" });

function parts(date: string) {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const instant = new Date(Date.UTC(y, m - 1, d));
  return { weekday: weekday.format(instant), month: month.format(instant), day: d, year: y };
}

/** "Friday, 05 January 2024", as the event page shows dates. */
export function formatLongDate(date: string): string {
  const p = parts(date);
  return `${p.weekday}, ${String(p.day).padStart(2, "0")} ${p.month} ${p.year}`;
}

/** "Friday 5 January 2024": weekday, day, month name, year, as event cards show them. */
export function formatCardDate(date: string): string {
  const p = parts(date);
  return `${p.weekday} ${p.day} ${p.month} ${p.year}`;
}

const londonClock = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
  timeZone: "Europe/London",
});

/** "14:32": the London wall-clock time of an instant, as holds and receipts show it. */
export function formatLondonTime(instant: Date | string): string {
  return londonClock.format(new Date(instant));
}

const londonCalendar = new Intl.DateTimeFormat("en-GB", {
  year: "numeric",
  month: "numeric",
  day: "numeric",
  timeZone: "Europe/London",
});

/** The London calendar date of an instant, as "yyyy-MM-dd". */
export function londonCalendarDate(instant: Date): string {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    londonCalendar.formatToParts(instant).find((item) => item.type === type)!.value;
  return `${part("year")}-${part("month").padStart(2, "0")}-${part("day").padStart(2, "0")}`;
}

/** "Friday, 05 January 2024, 14:32": an instant as staff pages show when something happened. */
export function formatLondonDateTime(instant: Date | string, separator = ", "): string {
  const date = new Date(instant);
  return `${formatLongDate(londonCalendarDate(date))}${separator}${formatLondonTime(date)}`;
}

/** "15 minutes from now", "1 minute from now", "less than a minute from now", "now". */
export function formatMinutesFromNow(end: Date | string, now: Date | string): string {
  const ms = new Date(end).getTime() - new Date(now).getTime();
  if (ms <= 0) return "now";
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "less than a minute from now";
  return minutes === 1 ? "1 minute from now" : `${minutes} minutes from now`;
}
