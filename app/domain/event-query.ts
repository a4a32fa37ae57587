import { z } from "zod";
import { hasControlCharacters, hasLineBreaks, singleLine } from "./fields";
import { DATE_WINDOWS, EVENT_CATEGORIES, type DateWindow, type EventCategory } from "./events";

/**
 * The `GET /events` query: `for` (a comma list, or the parameter repeated, of community,
 * freemasons, corporate), `location` (text) and `date` (today, next-week, next-month, future-events).
 */
export const eventQuerySchema = z.object({
  for: z
    .array(z.string())
    .transform((values) =>
      values
        .flatMap((value) => value.split(","))
        .map((value) => value.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(EVENT_CATEGORIES as [EventCategory, ...EventCategory[]], {
          error: (issue) =>
            `Unknown category "${String(issue.input)}": use ${EVENT_CATEGORIES.join(", ")}`,
        }),
      ),
    ),
  location: singleLine()
    .trim()
    .max(100, { error: "location must be 100 characters or fewer" })
    .refine((text) => !hasControlCharacters(text), {
      error: "location contains characters we cannot accept",
    })
    .optional(),
  date: z
    .enum(DATE_WINDOWS as [DateWindow, ...DateWindow[]], {
      error: (issue) => `Unknown date "${String(issue.input)}": use ${DATE_WINDOWS.join(", ")}`,
    })
    .optional(),
});

export type EventQuery = z.output<typeof eventQuerySchema>;

function rawQuery(params: URLSearchParams) {
  const date = params.get("date") ?? undefined;
  const location = params.get("location") ?? undefined;
  return { for: params.getAll("for"), location: location || undefined, date: date || undefined };
}

/** Strict reading, for the API: any unknown value is an error. */
export function parseEventQuery(params: URLSearchParams) {
  return eventQuerySchema.safeParse(rawQuery(params));
}

/** Lenient reading, for the page: a bad value in a shared link is dropped, not an error page. */
export function readEventQueryLeniently(params: URLSearchParams): EventQuery {
  const raw = rawQuery(params);
  const categories = raw.for
    .flatMap((value) => value.split(","))
    .filter((value): value is EventCategory =>
      (EVENT_CATEGORIES as readonly string[]).includes(value),
    );
  const date = (DATE_WINDOWS as readonly string[]).includes(raw.date ?? "")
    ? (raw.date as DateWindow)
    : undefined;
  const location = raw.location?.trim().slice(0, 100);
  return {
    for: categories,
    location:
      location && !hasControlCharacters(location) && !hasLineBreaks(location)
        ? location
        : undefined,
    date,
  };
}
