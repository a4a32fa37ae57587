import { TZDate } from "@date-fns/tz";
import { addDays, format } from "date-fns";

/** Every event time is a wall-clock time in London; rules compare real instants. */
export const LONDON = "Europe/London";

export const TIME_FORMAT_ERROR = "Invalid time format, expected at least HH:mm.";

/** Reads "HH:mm" (or longer, e.g. "HH:mm:ss"; only the first two parts count) as minutes after midnight. */
export function parseTimeOfDay(time: string): number {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(time.trim());
  if (!match) throw new Error(TIME_FORMAT_ERROR);
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) throw new Error(TIME_FORMAT_ERROR);
  return hours * 60 + minutes;
}

export function formatTimeOfDay(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * Instants already worked out. Time-zone arithmetic is the costliest part of listing events,
 * and events share dates and times, so the answers are kept (a pure function; bounded size).
 */
const instantCache = new Map<string, number>();
const INSTANT_CACHE_LIMIT = 20_000;

/** The instant at which a London wall-clock date ("yyyy-MM-dd") and time ("HH:mm") happen. */
export function londonInstant(date: string, time: string): Date {
  const key = `${date} ${time}`;
  let epoch = instantCache.get(key);
  if (epoch === undefined) {
    const [year, month, day] = date.split("-").map(Number) as [number, number, number];
    const minutes = parseTimeOfDay(time);
    epoch = new TZDate(
      year,
      month - 1,
      day,
      Math.floor(minutes / 60),
      minutes % 60,
      LONDON,
    ).getTime();
    if (instantCache.size >= INSTANT_CACHE_LIMIT) instantCache.clear();
    instantCache.set(key, epoch);
  }
  return new Date(epoch);
}

/** Today's date in London, as "yyyy-MM-dd". */
export function londonDate(now: Date): string {
  return format(new TZDate(now, LONDON), "yyyy-MM-dd");
}

/** A London date some days after another, as "yyyy-MM-dd". */
export function addLondonDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return format(addDays(new Date(Date.UTC(year, month - 1, day, 12)), days), "yyyy-MM-dd");
}
