import { and, asc, count, eq, gte, isNull, ne, sql, type SQL } from "drizzle-orm";
import { can, type StaffActor } from "#app/domain/permissions";
import type { Db } from "#app/db/client.server";
import { enquiry, event, testResult } from "#app/db/schema";
import { londonDate } from "#app/domain/london-time";
import { placesTakenByEvent } from "./booking/places.server";
import { RESULTS_LISTED } from "./results-admin.server";

export interface DashboardEvent {
  id: string;
  name: string;
  eventDate: string;
  startTime: string;
  status: "draft" | "published" | "cancelled";
  booked: number;
  held: number;
  total: number;
}

/**
 * The first screen of the back office: what is coming up and what is waiting for someone (counts
 * only). Whoever may not read the coming events (`event:read`: event staff, on a tablet left in a
 * hall) gets today's alone, so other days' names are never sent to them. Each count goes only to
 * whoever may act on it (0 for the others).
 */
function countResults(db: Db, where: SQL | undefined) {
  return db.select({ count: count() }).from(testResult).where(where);
}

export async function dashboardSummary(db: Db, actor: Pick<StaffActor, "roles">, now = new Date()) {
  const today = londonDate(now);
  const fromToday = can(actor, "event:read")
    ? gte(event.eventDate, today)
    : eq(event.eventDate, today);
  const places = placesTakenByEvent(db, now);
  const readsResults = can(actor, "result:read");
  const [events, [awaiting], [toCheck], [enquiries]] = await Promise.all([
    db
      .select({
        id: event.id,
        name: event.name,
        eventDate: event.eventDate,
        startTime: event.startTime,
        status: event.status,
        booked: sql<number>`coalesce(${places.taken} - ${places.held}, 0)`.mapWith(Number),
        held: sql<number>`coalesce(${places.held}, 0)`.mapWith(Number),
        total: event.totalSpaces,
      })
      .from(event)
      .leftJoin(places, eq(places.eventId, event.id))
      .where(and(fromToday, ne(event.status, "cancelled")))
      .orderBy(asc(event.eventDate), asc(event.startTime))
      .limit(20),
    readsResults ? countResults(db, RESULTS_LISTED.awaiting) : [],
    readsResults ? countResults(db, RESULTS_LISTED["to-check"]) : [],
    can(actor, "enquiry:handle")
      ? db.select({ count: count() }).from(enquiry).where(isNull(enquiry.handledAt))
      : [],
  ]);
  const upcoming = events.map((row) => ({ ...row, startTime: row.startTime.slice(0, 5) }));
  return {
    /** From today on; for `event:read` only, else empty. */
    events: can(actor, "event:read") ? upcoming : [],
    /** Today's events (London), for check-in at the door. */
    today: upcoming.filter((row) => row.eventDate === today),
    resultsAwaitingRelease: awaiting?.count ?? 0,
    /** Released flags to check again: his date of birth changed after release. */
    flagsToCheck: toCheck?.count ?? 0,
    unhandledEnquiries: enquiries?.count ?? 0,
  };
}
