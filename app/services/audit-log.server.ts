import { and, count, desc, eq, gte, inArray, lt, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "#app/db/client.server";
import { auditLog, booking, profile, user } from "#app/db/schema";
import {
  AUDIT_PAGE_SIZE,
  auditTimeRange,
  hasAnyFilter,
  type AuditFilter,
} from "#app/domain/audit-filter";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { recordAudit } from "./audit.server";

export interface AuditRow {
  id: number;
  at: Date;
  actorEmail: string | null;
  action: string;
  subjectUserId: string | null;
  subjectName: string | null;
  subjectEmail: string | null;
  entityType: string | null;
  entityId: string | null;
  ipAddress: string | null;
  details: Record<string, string | number | boolean | null> | null;
}

export interface AuditPage {
  rows: AuditRow[];
  total: number;
  page: number;
  pageCount: number;
  /** The people the subject filter matched (none: nothing is shown). */
  subjectUserIds: string[] | null;
}

/**
 * Whom a typed subject means: a user id, an account's e-mail address, a portal reference
 * ("ID: MHAT…") or a booking reference. Several can match (say, an id that is also nobody's
 * e-mail); all of them are used.
 */
export async function resolveSubjectUserIds(db: Db, typed: string): Promise<string[]> {
  const text = typed.trim();
  if (!text) return [];
  const ids = new Set<string>();
  const people = await db
    .select({ id: user.id })
    .from(user)
    .where(or(eq(user.id, text), eq(user.email, text.toLowerCase())));
  for (const person of people) ids.add(person.id);
  const reference = text.replace(/^ID:\s*/i, "").toUpperCase();
  const profiles = await db
    .select({ userId: profile.userId })
    .from(profile)
    .where(eq(profile.reference, reference));
  for (const row of profiles) ids.add(row.userId);
  const bookingReference = normaliseBookingReference(text);
  if (bookingReference) {
    const bookings = await db
      .select({ userId: booking.userId })
      .from(booking)
      .where(eq(booking.reference, bookingReference));
    for (const row of bookings) ids.add(row.userId);
  }
  return [...ids];
}

/** One page of the audit log, newest first, with the filters applied. Reading it is not recorded here. */
export async function readAuditLog(db: Db, filter: AuditFilter): Promise<AuditPage> {
  const conditions: SQL[] = [];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.actor) conditions.push(eq(auditLog.actorEmail, filter.actor));
  let subjectUserIds: string[] | null = null;
  if (filter.subject) {
    subjectUserIds = await resolveSubjectUserIds(db, filter.subject);
    if (subjectUserIds.length === 0)
      return { rows: [], total: 0, page: 1, pageCount: 1, subjectUserIds };
    conditions.push(inArray(auditLog.subjectUserId, subjectUserIds));
  }
  const range = auditTimeRange(filter);
  if (range.from) conditions.push(gte(auditLog.at, range.from));
  if (range.before) conditions.push(lt(auditLog.at, range.before));
  const where = conditions.length ? and(...conditions) : undefined;

  const [counted] = await db.select({ n: count() }).from(auditLog).where(where);
  const total = counted?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(filter.page, pageCount);
  const subject = alias(user, "subject");
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorEmail: auditLog.actorEmail,
      action: auditLog.action,
      subjectUserId: auditLog.subjectUserId,
      subjectName: subject.name,
      subjectEmail: subject.email,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      ipAddress: auditLog.ipAddress,
      details: auditLog.details,
    })
    .from(auditLog)
    .leftJoin(subject, eq(subject.id, auditLog.subjectUserId))
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  return { rows, total, page, pageCount, subjectUserIds };
}

/**
 * The audit log page: one page of entries, and a record that a staff member read it (ids and
 * counts only; with the person when the page was one person's trail).
 */
export async function readAuditLogAsStaff(
  db: Db,
  actor: StaffActor,
  filter: AuditFilter,
): Promise<AuditPage> {
  assertCan(actor, "audit:read");
  const result = await readAuditLog(db, filter);
  await recordAudit(db, actor, {
    action: "audit.view",
    subjectUserId: result.subjectUserIds?.length === 1 ? result.subjectUserIds[0] : null,
    entityType: "audit_log",
    details: { page: result.page, shown: result.rows.length, filtered: hasAnyFilter(filter) },
  });
  return result;
}
