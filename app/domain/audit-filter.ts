import { z } from "zod";
import { isCalendarDate } from "./calendar-date";
import { AUDIT_ACTIONS, AUDIT_FILTER_FIELDS, type AuditAction } from "./audit";
import { FIELD_MESSAGES } from "./fields";
import { addLondonDays, londonInstant } from "./london-time";

/** The audit log reader shows this many entries per page. */
export const AUDIT_PAGE_SIZE = 50;

export const AUDIT_FILTER_MESSAGES = {
  action: "Choose an action from the list",
  date: "Enter a real date, like 2026-03-31",
  dateOrder: "The 'to' date must be the same as or after the 'from' date",
  subject: "Enter a user id, an e-mail address or a reference (100 characters or fewer)",
} as const;

export { AUDIT_FILTER_FIELDS };

const ACTION_CODES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

const optionalDate = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || null)
  .refine((value) => value === null || isCalendarDate(value), {
    error: AUDIT_FILTER_MESSAGES.date,
  });

/** The audit log reader's query string: every filter is optional. */
export const auditFilterSchema = z
  .object({
    action: z
      .union([z.literal(""), z.enum(ACTION_CODES)], { error: AUDIT_FILTER_MESSAGES.action })
      .optional()
      .transform((value) => value || null),
    actor: z
      .string()
      .trim()
      .max(254, { error: FIELD_MESSAGES.tooLong(254) })
      .toLowerCase()
      .optional()
      .transform((value) => value || null)
      .pipe(z.union([z.null(), z.email({ error: FIELD_MESSAGES.email })])),
    subject: z
      .string()
      .trim()
      .max(100, { error: AUDIT_FILTER_MESSAGES.subject })
      .optional()
      .transform((value) => value || null),
    from: optionalDate,
    to: optionalDate,
    page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  })
  .superRefine((filter, ctx) => {
    if (filter.from && filter.to && filter.to < filter.from)
      ctx.addIssue({ code: "custom", path: ["to"], message: AUDIT_FILTER_MESSAGES.dateOrder });
  });

export type AuditFilter = z.output<typeof auditFilterSchema>;

/** The instants a from/to pair of London dates covers: from midnight to the end of the `to` day. */
export function auditTimeRange(filter: Pick<AuditFilter, "from" | "to">): {
  from: Date | null;
  before: Date | null;
} {
  return {
    from: filter.from ? londonInstant(filter.from, "00:00") : null,
    before: filter.to ? londonInstant(addLondonDays(filter.to, 1), "00:00") : null,
  };
}

export function hasAnyFilter(filter: AuditFilter): boolean {
  return Boolean(filter.action || filter.actor || filter.subject || filter.from || filter.to);
}

/** The query string for another page of the same filtered list. */
export function auditPageQuery(filter: AuditFilter, page: number): string {
  const params = new URLSearchParams();
  for (const field of AUDIT_FILTER_FIELDS) {
    const value = filter[field];
    if (value) params.set(field, value);
  }
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

const londonDateTime = new Intl.DateTimeFormat("en-GB", {
  day: "2-digit",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
  timeZone: "Europe/London",
});

/** "31 Mar 2026, 14:05:09": an instant as a London wall-clock time. */
export function formatLondonDateTime(instant: Date | string): string {
  return londonDateTime.format(new Date(instant));
}

export function auditActionLabel(code: string): string {
  return Object.hasOwn(AUDIT_ACTIONS, code) ? AUDIT_ACTIONS[code as AuditAction] : "Unknown action";
}
