import { and, asc, count, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { enquiry, user } from "#app/db/schema";
import type { EnquiryFilter } from "#app/domain/enquiry-inbox";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { recordAudit } from "./audit.server";

export interface InboxEnquiry {
  id: string;
  name: string;
  email: string;
  phoneNumber: string;
  message: string;
  receivedAt: Date;
  handledAt: Date | null;
  /** Who marked it handled: their name or address, when the account still exists. */
  handledByName: string | null;
}

/**
 * The enquiries inbox: unhandled first, newest first. Showing it is recorded in the audit log
 * (once per view, with how many were shown: enquirers hold no account, so there is no subject).
 */
/** The inbox shows at most this many (unhandled ones first). */
export const INBOX_LIMIT = 500;

export async function listEnquiriesForStaff(
  db: Db,
  actor: StaffActor,
  filter: EnquiryFilter,
): Promise<{ enquiries: InboxEnquiry[]; unhandledCount: number }> {
  assertCan(actor, "enquiry:handle");
  const rows = await db
    .select({
      id: enquiry.id,
      firstName: enquiry.firstName,
      lastName: enquiry.lastName,
      email: enquiry.email,
      phoneNumber: enquiry.phoneNumber,
      message: enquiry.message,
      receivedAt: enquiry.createdAt,
      handledAt: enquiry.handledAt,
      handlerName: user.name,
      handlerEmail: user.email,
    })
    .from(enquiry)
    .leftJoin(user, eq(user.id, enquiry.handledBy))
    .where(filter === "unhandled" ? isNull(enquiry.handledAt) : undefined)
    .orderBy(sql`${enquiry.handledAt} is not null`, desc(enquiry.createdAt), asc(enquiry.id))
    .limit(INBOX_LIMIT);
  const [unhandled] = await db
    .select({ n: count() })
    .from(enquiry)
    .where(isNull(enquiry.handledAt));
  await recordAudit(db, actor, {
    action: "enquiries.view",
    entityType: "enquiry",
    details: { count: rows.length, filter },
  });
  return {
    unhandledCount: unhandled?.n ?? 0,
    enquiries: rows.map((row) => ({
      id: row.id,
      name: `${row.firstName} ${row.lastName}`.trim(),
      email: row.email,
      phoneNumber: row.phoneNumber,
      message: row.message,
      receivedAt: row.receivedAt,
      handledAt: row.handledAt,
      handledByName: row.handlerName || row.handlerEmail || null,
    })),
  };
}

/**
 * Marks an enquiry handled (by whom, when) or not handled again. Marking it twice keeps the first
 * mark. Returns false when there is no such enquiry.
 */
export async function setEnquiryHandled(
  db: Db,
  actor: StaffActor,
  enquiryId: string,
  handled: boolean,
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => {
    assertCan(actor, "enquiry:handle");
    const [exists] = await tx
      .select({ id: enquiry.id })
      .from(enquiry)
      .where(eq(enquiry.id, enquiryId))
      .for("update");
    if (!exists) return false;
    const [changed] = await tx
      .update(enquiry)
      .set(handled ? { handledAt: now, handledBy: actor.id } : { handledAt: null, handledBy: null })
      .where(
        and(
          eq(enquiry.id, enquiryId),
          handled ? isNull(enquiry.handledAt) : isNotNull(enquiry.handledAt),
        ),
      )
      .returning({ id: enquiry.id });
    if (changed) {
      await recordAudit(tx, actor, {
        action: handled ? "enquiry.handled" : "enquiry.reopened",
        entityType: "enquiry",
        entityId: enquiryId,
      });
    }
    return true;
  });
}
