import { format, parse } from "date-fns";

export const NEWS_PAGE_SIZE = 4;

/** The archive months the spec lists, newest first, as "yyyy-MM" values with their labels. */
export const ARCHIVE_MONTHS = [
  "2023-08",
  "2023-06",
  "2022-12",
  "2021-09",
  "2021-05",
  "2021-03",
  "2020-09",
  "2020-08",
  "2020-07",
  "2020-04",
  "2020-02",
  "2020-01",
] as const;

export type ArchiveMonth = (typeof ARCHIVE_MONTHS)[number];

export function archiveMonthLabel(month: string): string {
  return format(parse(month, "yyyy-MM", new Date(2000, 0, 1)), "MMMM yyyy");
}

export function isArchiveMonth(value: string): value is ArchiveMonth {
  return (ARCHIVE_MONTHS as readonly string[]).includes(value);
}

/** News dates are written "DD Month YYYY", as in the spec. */
export function parseNewsDate(date: string): Date {
  const parsed = parse(date, "dd MMMM yyyy", new Date(2000, 0, 1));
  if (Number.isNaN(parsed.getTime())) throw new Error(`Bad news date: ${date}`);
  return parsed;
}

export interface NewsQuery {
  month?: string | null;
  page?: string | null;
}

export interface NewsPage<T> {
  items: T[];
  /** The month filter actually applied (unknown values fall back to all news). */
  month: ArchiveMonth | null;
  page: number;
  totalPages: number;
  totalItems: number;
}

/** Newest first, filtered by archive month, then cut into pages of four. */
export function pageOfNews<T extends { date: string }>(
  all: readonly T[],
  query: NewsQuery,
): NewsPage<T> {
  const month = query.month && isArchiveMonth(query.month) ? query.month : null;
  const sorted = [...all].sort(
    (a, b) => parseNewsDate(b.date).getTime() - parseNewsDate(a.date).getTime(),
  );
  const filtered = month
    ? sorted.filter((item) => format(parseNewsDate(item.date), "yyyy-MM") === month)
    : sorted;
  const totalPages = Math.max(1, Math.ceil(filtered.length / NEWS_PAGE_SIZE));
  const requested = Number.parseInt(query.page ?? "1", 10);
  const page = Number.isFinite(requested) ? Math.min(Math.max(1, requested), totalPages) : 1;
  return {
    items: filtered.slice((page - 1) * NEWS_PAGE_SIZE, page * NEWS_PAGE_SIZE),
    month,
    page,
    totalPages,
    totalItems: filtered.length,
  };
}
