import type { Db } from "#app/db/client.server";
import { auditLog } from "#app/db/schema";
import type { AuditAction } from "#app/domain/audit";

/** Who did it and from where: a signed-in staff member, or the command line. */
export interface AuditActor {
  id: string | null;
  email: string | null;
  clientAddress: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  /** The person whose data it was, when it was one person's. */
  subjectUserId?: string | null;
  entityType?: string;
  entityId?: string;
  /** Ids and counts only: never a health value or anything a person typed. */
  details?: Record<string, string | number | boolean | null>;
}

/**
 * Appends to the audit log. Pass the transaction that makes the change, so that the change and
 * its record commit together; reads are recorded before their data is returned.
 */
export async function recordAudit(
  db: Db,
  actor: AuditActor,
  entries: AuditEntry | readonly AuditEntry[],
): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries as AuditEntry];
  if (list.length === 0) return;
  await db.insert(auditLog).values(
    list.map((entry) => ({
      actorUserId: actor.id,
      actorEmail: actor.email,
      action: entry.action,
      subjectUserId: entry.subjectUserId ?? null,
      entityType: entry.entityType ?? null,
      entityId: entry.entityId ?? null,
      ipAddress: actor.clientAddress,
      details: entry.details ?? null,
    })),
  );
}
