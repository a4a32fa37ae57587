import { and, desc, eq, inArray, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, consent, event, profile, testResult, user } from "#app/db/schema";
import { bookingStage, canTake } from "#app/domain/booking-lifecycle";
import type { AuditAction } from "#app/domain/audit";
import {
  attendeeName,
  isPlaceOnTheList,
  sharingNhsNumbers,
  cleanSearch,
  compareAttendees,
  matchesAttendeeSearch,
  withoutNeededNhsNumber,
} from "#app/domain/attendees";
import { isErasedAccount } from "#app/domain/data-rights";
import { needsNhsNumber } from "#app/domain/eligibility";
import {
  applyCheckIn,
  CHECK_IN_MESSAGES,
  checkInOpen,
  checkInState,
  closingTimeReached,
  type CheckInCommand,
  type CheckInState,
} from "#app/domain/check-in";
import { labCsv, labCsvFilename, type LabCsvRow } from "#app/domain/lab-csv";
import { londonDate, londonInstant } from "#app/domain/london-time";
import {
  assertCan,
  assertEventDay,
  can,
  mayWorkOnEventDay,
  type StaffActor,
} from "#app/domain/permissions";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { recordAudit } from "./audit.server";
import { waitlistForStaff, type StaffWaitlistRow } from "./waitlist.server";
import { isUuid } from "#app/domain/ids";

/**
 * An event's attendees for the back office: the list (every read written to the audit log, one
 * row per person shown), check-in on the day, the printable list and the laboratory's CSV.
 */

export interface AttendeeEvent {
  id: string;
  name: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  labName: string | null;
  status: "draft" | "published" | "cancelled";
  addressLine1: string;
  city: string;
  postcode: string;
}

export interface AttendeeRow {
  bookingId: string;
  reference: string;
  userId: string;
  slotTime: string;
  status: "held" | "awaiting_payment" | "confirmed" | "expired" | "cancelled";
  paymentStatus: "not_required" | "unpaid" | "pending" | "paid" | "refunded";
  /** A cancelled booking's refund is still to be made (the worker retries it). */
  refundOwed: boolean;
  firstName: string;
  lastName: string;
  /** "First Last"; the account's name for someone without a profile (a staff account). */
  name: string;
  /** "yyyy-MM-dd" */
  dateOfBirth: string | null;
  nhsNumber: string | null;
  /** The newest consent given for this booking, with the version of the wording agreed to. */
  consent: { wordingVersion: string; agreedAt: string } | null;
  checkIn: CheckInState;
  arrivedAt: string | null;
  noShowAt: string | null;
  sampleId: string | null;
  sampleTakenAt: string | null;
  /** Only confirmed bookings are checked in. */
  canCheckIn: boolean;
  /** A staff account booked without a profile has no date of birth or NHS number to correct. */
  hasProfile: boolean;
}

export interface AttendeeTotals {
  booked: number;
  arrived: number;
  samples: number;
  noShows: number;
  /** Confirmed, and not yet arrived or marked a no-show. */
  waiting: number;
}

/**
 * The event whose attendees `actor` is about to see or mark, or null when there is none: checks
 * `attendee:read` and, for staff who work only on the day (event staff), that it is the event's
 * day. Every way to an event's list starts here, a form that cannot be read included, so another
 * day's event is refused alike whatever is sent.
 */
export async function openAttendeeEvent(
  db: Db,
  actor: StaffActor,
  eventId: string,
  now = new Date(),
): Promise<AttendeeEvent | null> {
  assertCan(actor, "attendee:read");
  const found = await findAttendeeEvent(db, eventId);
  if (found) assertEventDay(actor, found.eventDate, londonDate(now));
  return found;
}

/**
 * One booking of this event with its man's name, for a coordinator's page that acts on it (cancel
 * or move); null when the event or the booking is not there. The read is audited.
 */
export async function openAttendeeBooking(
  db: Db,
  actor: StaffActor,
  { eventId, bookingId, now }: { eventId: string; bookingId: string; now: Date },
) {
  const ev = await openAttendeeEvent(db, actor, eventId, now);
  if (!ev || !isUuid(bookingId)) return null;
  const [found] = await db
    .select({
      row: booking,
      event,
      firstName: profile.firstName,
      lastName: profile.lastName,
      accountName: user.name,
      email: user.email,
      hasResult: sql<boolean>`exists (select 1 from ${testResult} where ${testResult.bookingId} = ${booking.id})`,
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .innerJoin(user, eq(user.id, booking.userId))
    .leftJoin(profile, eq(profile.userId, booking.userId))
    .where(and(eq(booking.id, bookingId), eq(booking.eventId, ev.id)));
  if (!found) return null;
  await recordAudit(db, actor, {
    action: "booking.view",
    subjectUserId: found.row.userId,
    entityType: "booking",
    entityId: found.row.id,
    details: { eventId: ev.id },
  });
  return { ...found, attendeeEvent: ev, name: attendeeName(found) };
}

/**
 * The event whose attendee list shows this booking reference, for "Find a booking" (a man who
 * phones or writes quoting it): null when no booking on a list has it, or when its event is one
 * this person may not open today (event staff work on the day's events only). Names no one.
 */
export async function eventOfBookingReference(
  db: Db,
  actor: StaffActor,
  typed: string,
  now = new Date(),
): Promise<{ eventId: string; reference: string } | null> {
  assertCan(actor, "attendee:read");
  const reference = normaliseBookingReference(typed);
  if (!reference) return null;
  const [found] = await db
    .select({
      eventId: booking.eventId,
      eventDate: event.eventDate,
      status: booking.status,
      paymentStatus: booking.paymentStatus,
      holdExpiresAt: booking.holdExpiresAt,
      captureRequestId: booking.captureRequestId,
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .where(eq(booking.reference, reference));
  if (!found || !(found.status === "cancelled" || isPlaceOnTheList(found, now))) return null;
  if (!mayWorkOnEventDay(actor, found.eventDate, londonDate(now))) return null;
  return { eventId: found.eventId, reference };
}

/** A booking that is at another event than the page asked for: where it is now. */
export interface BookingElsewhere {
  reference: string;
  slotTime: string;
  event: AttendeeEvent;
}

/**
 * Where a booking is, when it is not at `eventId`: he moved it to another event himself, or another
 * coordinator did, while a page for it was open. Null when there is no such booking. Names no one.
 */
export async function bookingElsewhere(
  db: Db,
  actor: StaffActor,
  { eventId, bookingId }: { eventId: string; bookingId: string },
): Promise<BookingElsewhere | null> {
  assertCan(actor, "attendee:read");
  if (!isUuid(bookingId)) return null;
  const [found] = await db
    .select({ eventId: booking.eventId, reference: booking.reference, slotTime: booking.slotTime })
    .from(booking)
    .where(eq(booking.id, bookingId));
  if (!found || found.eventId === eventId) return null;
  const ev = await findAttendeeEvent(db, found.eventId);
  return ev && { reference: found.reference, slotTime: found.slotTime, event: ev };
}

/**
 * The event's day ("yyyy-MM-dd"), or null when there is no such event; refuses (PermissionDenied)
 * staff who work only on an event's own day when today is another. For a change to one booking.
 */
export async function eventDayFor(
  db: Db,
  actor: StaffActor,
  eventId: string,
  now: Date,
): Promise<string | null> {
  if (!isUuid(eventId)) return null;
  const [found] = await db
    .select({ date: event.eventDate })
    .from(event)
    .where(eq(event.id, eventId));
  if (!found) return null;
  assertEventDay(actor, found.date, londonDate(now));
  return found.date;
}

/** The event, or null when there is none with this id (or the id cannot be one). */
async function findAttendeeEvent(db: Db, eventId: string): Promise<AttendeeEvent | null> {
  if (!isUuid(eventId)) return null;
  const [row] = await db
    .select({
      id: event.id,
      name: event.name,
      eventDate: event.eventDate,
      startTime: event.startTime,
      endTime: event.endTime,
      labName: event.labName,
      status: event.status,
      addressLine1: event.addressLine1,
      city: event.city,
      postcode: event.postcode,
    })
    .from(event)
    .where(eq(event.id, eventId));
  if (!row) return null;
  return { ...row, startTime: row.startTime.slice(0, 5), endTime: row.endTime.slice(0, 5) };
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/**
 * Every booking of the event that a coordinator needs to see, in slot order: `active` holds the
 * confirmed ones and those still being made (a live hold, or a payment PayPal is reviewing);
 * `cancelled` the cancelled ones. Lapsed holds and expired bookings never became places: left out.
 */
async function loadAttendees(
  db: Db,
  { id: eventId, eventDate }: Pick<AttendeeEvent, "id" | "eventDate">,
  now: Date,
): Promise<{ active: AttendeeRow[]; cancelled: AttendeeRow[] }> {
  const rows = await db
    .select({
      bookingId: booking.id,
      reference: booking.reference,
      userId: booking.userId,
      slotTime: booking.slotTime,
      status: booking.status,
      holdExpiresAt: booking.holdExpiresAt,
      captureRequestId: booking.captureRequestId,
      paymentStatus: booking.paymentStatus,
      refundOwed: booking.refundOwed,
      arrivedAt: booking.arrivedAt,
      noShowAt: booking.noShowAt,
      sampleId: booking.sampleId,
      sampleTakenAt: booking.sampleTakenAt,
      firstName: profile.firstName,
      lastName: profile.lastName,
      dateOfBirth: profile.dateOfBirth,
      nhsNumber: profile.nhsNumber,
      accountName: user.name,
    })
    .from(booking)
    .innerJoin(user, eq(user.id, booking.userId))
    .leftJoin(profile, eq(profile.userId, booking.userId))
    .where(and(eq(booking.eventId, eventId), ne(booking.status, "expired")));

  const shown = rows.filter((row) => row.status === "cancelled" || isPlaceOnTheList(row, now));
  // A booking's consent: given while booking (it names the booking), or on the stand-alone form
  // for his test's day (it names him and the day, as the e-mailed consent link asks).
  const consents =
    shown.length === 0
      ? []
      : await db
          .select({
            bookingId: consent.bookingId,
            userId: consent.userId,
            wordingVersion: consent.wordingVersion,
            agreedAt: consent.agreedAt,
          })
          .from(consent)
          .where(
            or(
              inArray(
                consent.bookingId,
                shown.map((row) => row.bookingId),
              ),
              and(
                isNull(consent.bookingId),
                eq(consent.testDate, eventDate),
                inArray(
                  consent.userId,
                  shown.map((row) => row.userId),
                ),
              ),
            ),
          )
          .orderBy(desc(consent.agreedAt));
  // A consent for the day belongs to his booking that is going ahead: confirmed, else one being
  // made, and only failing those a cancelled one.
  const preference = (status: string) =>
    status === "confirmed" ? 0 : status === "cancelled" ? 2 : 1;
  const bookingOf = new Map<string, { bookingId: string; rank: number }>();
  for (const row of shown) {
    const rank = preference(row.status);
    const kept = bookingOf.get(row.userId);
    if (!kept || rank < kept.rank) bookingOf.set(row.userId, { bookingId: row.bookingId, rank });
  }
  const newestConsent = new Map<string, { wordingVersion: string; agreedAt: string }>();
  for (const row of consents) {
    const bookingId = row.bookingId ?? bookingOf.get(row.userId)?.bookingId;
    if (bookingId && !newestConsent.has(bookingId))
      newestConsent.set(bookingId, {
        wordingVersion: row.wordingVersion,
        agreedAt: row.agreedAt.toISOString(),
      });
  }

  const attendees = shown
    .map((row): AttendeeRow => {
      const lastName = row.lastName ?? "";
      return {
        bookingId: row.bookingId,
        reference: row.reference,
        userId: row.userId,
        slotTime: row.slotTime,
        status: row.status,
        paymentStatus: row.paymentStatus,
        refundOwed: row.refundOwed,
        firstName: row.firstName ?? row.accountName,
        lastName,
        name: attendeeName(row),
        hasProfile: row.firstName !== null,
        dateOfBirth: row.dateOfBirth,
        nhsNumber: row.nhsNumber,
        consent: newestConsent.get(row.bookingId) ?? null,
        checkIn: checkInState(row),
        arrivedAt: iso(row.arrivedAt),
        noShowAt: iso(row.noShowAt),
        sampleId: row.sampleId,
        sampleTakenAt: iso(row.sampleTakenAt),
        canCheckIn: row.status === "confirmed",
      };
    })
    .sort(compareAttendees);
  return {
    active: attendees.filter((row) => row.status !== "cancelled"),
    cancelled: attendees.filter((row) => row.status === "cancelled"),
  };
}

export function attendeeTotals(rows: readonly AttendeeRow[]): AttendeeTotals {
  const confirmed = rows.filter((row) => row.status === "confirmed");
  return {
    booked: confirmed.length,
    arrived: confirmed.filter((row) => row.checkIn === "arrived" || row.checkIn === "sample_taken")
      .length,
    samples: confirmed.filter((row) => row.checkIn === "sample_taken").length,
    noShows: confirmed.filter((row) => row.checkIn === "no_show").length,
    waiting: confirmed.filter((row) => row.checkIn === "waiting").length,
  };
}

/**
 * Writes one audit row for the list as a whole (the event, and how many people it showed) and one
 * per person shown, so that "who has seen this man's details" is a query on `subject_user_id`.
 */
async function auditShown(
  db: Db,
  actor: StaffActor,
  action: AuditAction,
  eventId: string,
  rows: readonly AttendeeRow[],
  details: Record<string, string | number | boolean | null> = {},
) {
  await recordAudit(db, actor, [
    { action, entityType: "event", entityId: eventId, details: { shown: rows.length, ...details } },
    ...rows.map((row) => ({
      action,
      subjectUserId: row.userId,
      entityType: "booking",
      entityId: row.bookingId,
      details: { eventId },
    })),
  ]);
}

/** A cancelled booking as the list shows it: no date of birth, NHS number, consent or check-in. */
export type CancelledAttendee = Pick<
  AttendeeRow,
  "bookingId" | "reference" | "slotTime" | "name" | "paymentStatus" | "refundOwed"
>;

export interface AttendeeView {
  event: AttendeeEvent;
  active: AttendeeRow[];
  cancelled: CancelledAttendee[];
  /** The event's waiting list: live offers first, then those waiting, in queue order. */
  waitlist: StaffWaitlistRow[];
  /** Counted over the whole list, whatever the search. */
  totals: AttendeeTotals;
  search: string;
  /** The event's day while it is still ahead (no check-in until then); null from that day on. */
  checkInOpensOn: string | null;
  /** The event has ended: everyone still waiting may be marked a no-show in one go. */
  closingTimeReached: boolean;
  /**
   * Confirmed and still waiting, whatever the search: whom "mark as no-shows" would mark. Named
   * (and audited) only once the event has ended; before then the page counts them (`totals`).
   */
  stillWaiting: Pick<AttendeeRow, "bookingId" | "name" | "slotTime">[];
  /**
   * Confirmed, arrived, and no sample recorded, whatever the search: a tap on "Record sample"
   * missed, or a man who left untested. Closing time lists them, since no result can come: named
   * only once the event has ended, as above.
   */
  arrivedWithoutSample: Pick<AttendeeRow, "bookingId" | "name" | "slotTime" | "reference">[];
  /**
   * Still to give a sample, with no NHS number recorded, at a laboratory that needs one, whatever
   * the search: no sample can be recorded for them until it is (D-186).
   */
  withoutNhsNumber: Pick<AttendeeRow, "bookingId" | "name" | "slotTime" | "reference">[];
  /** Booked men sharing an NHS number with another booked here, whatever the search. */
  sharingNhsNumber: Pick<AttendeeRow, "bookingId" | "name" | "slotTime" | "reference">[];
}

/** A man named in one of the list's notices, linked to his card. */
function listed({ bookingId, name, slotTime, reference }: AttendeeRow) {
  return { bookingId, name, slotTime, reference };
}

/**
 * How many booked men still to give a sample have no NHS number recorded, at a laboratory that
 * needs one (`withoutNeededNhsNumber`): a count for the event's own page, naming no one.
 */
export async function countWithoutNeededNhsNumber(
  db: Db,
  ev: { id: string; labName: string | null },
): Promise<number> {
  if (!needsNhsNumber(ev.labName)) return 0;
  const rows = await db
    .select({
      status: booking.status,
      arrivedAt: booking.arrivedAt,
      noShowAt: booking.noShowAt,
      sampleId: booking.sampleId,
      sampleTakenAt: booking.sampleTakenAt,
      firstName: profile.firstName,
      nhsNumber: profile.nhsNumber,
    })
    .from(booking)
    .leftJoin(profile, eq(profile.userId, booking.userId))
    .where(and(eq(booking.eventId, ev.id), eq(booking.status, "confirmed")));
  const men = rows.map((row) => ({
    status: row.status,
    checkIn: checkInState(row),
    hasProfile: row.firstName !== null,
    nhsNumber: row.nhsNumber,
  }));
  return withoutNeededNhsNumber(men, true).length;
}

/** The attendee list page: the event's attendees matching the search, each read audited. */
export async function viewAttendees(
  db: Db,
  actor: StaffActor,
  { eventId, search, now = new Date() }: { eventId: string; search?: string | null; now?: Date },
): Promise<AttendeeView | null> {
  const found = await openAttendeeEvent(db, actor, eventId, now);
  if (!found) return null;
  const query = cleanSearch(search);
  const all = await loadAttendees(db, found, now);
  const active = all.active.filter((row) => matchesAttendeeSearch(row, query));
  const cancelled = all.cancelled.filter((row) => matchesAttendeeSearch(row, query));
  // The waiting list is for whoever runs the event; check-in at the door does not need it.
  const waiting = can(actor, "event:edit") ? await waitlistForStaff(db, found.id, now) : [];
  const waitlist = waiting.filter((row) =>
    matchesAttendeeSearch({ name: row.name, reference: "" }, query),
  );
  const day = { today: londonDate(now), appointmentDate: found.eventDate };
  const closed = checkInOpen(day) && closingTimeReached(found, now);
  const stillWaiting = all.active.filter(
    (row) => row.status === "confirmed" && row.checkIn === "waiting",
  );
  const arrivedWithoutSample = all.active.filter(
    (row) => row.status === "confirmed" && row.checkIn === "arrived",
  );
  const withoutNhsNumber = withoutNeededNhsNumber(all.active, needsNhsNumber(found.labName));
  const sharingNhsNumber = sharingNhsNumbers(all.active);
  // Everyone the page names is a read: the search's matches, and the men the lists above them
  // name whom the search left out (those still waiting or arrived, once the event has ended).
  // Nobody is sent that is not named: the page's data can be fetched without the page.
  const closingLists = closed
    ? { stillWaiting, arrivedWithoutSample }
    : { stillWaiting: [], arrivedWithoutSample: [] };
  const named = [
    ...withoutNhsNumber,
    ...sharingNhsNumber,
    ...closingLists.stillWaiting,
    ...closingLists.arrivedWithoutSample,
  ];
  const shown = new Map([...active, ...cancelled, ...named].map((row) => [row.bookingId, row]));
  await auditShown(db, actor, "attendees.view", found.id, [...shown.values()], {
    searched: query !== "",
    // People on the waiting list shown, each audited below.
    ...(waitlist.length > 0 ? { waiting: waitlist.length } : {}),
  });
  // Each person on the waiting list shown is a read of their details too.
  await recordAudit(
    db,
    actor,
    waitlist.map((row) => ({
      action: "attendees.view" as const,
      subjectUserId: row.userId,
      entityType: "waitlist_entry",
      entityId: row.entryId,
      details: { eventId: found.id },
    })),
  );
  return {
    event: found,
    active,
    // Only what the page shows: its data can be fetched without the page.
    cancelled: cancelled.map(
      ({ bookingId, reference, slotTime, name, paymentStatus, refundOwed }) => ({
        bookingId,
        reference,
        slotTime,
        name,
        paymentStatus,
        refundOwed,
      }),
    ),
    waitlist,
    totals: attendeeTotals(all.active),
    search: query,
    checkInOpensOn: checkInOpen(day) ? null : found.eventDate,
    closingTimeReached: closingTimeReached(found, now),
    stillWaiting: closingLists.stillWaiting.map(({ bookingId, name, slotTime }) => ({
      bookingId,
      name,
      slotTime,
    })),
    arrivedWithoutSample: closingLists.arrivedWithoutSample.map(listed),
    withoutNhsNumber: withoutNhsNumber.map(listed),
    sharingNhsNumber: sharingNhsNumber.map(listed),
  };
}

/** The printable list: everyone with a place (not the cancelled), each read audited. */
export async function printAttendees(
  db: Db,
  actor: StaffActor,
  { eventId, now = new Date() }: { eventId: string; now?: Date },
): Promise<{ event: AttendeeEvent; rows: AttendeeRow[] } | null> {
  const found = await openAttendeeEvent(db, actor, eventId, now);
  if (!found) return null;
  const { active } = await loadAttendees(db, found, now);
  await auditShown(db, actor, "attendees.print", found.id, active);
  return { event: found, rows: active };
}

/**
 * The laboratory's CSV: one row per confirmed booking whose sample was taken, since those are
 * the tubes that go to the lab. Every person in it is audited.
 */
export async function exportLabCsv(
  db: Db,
  actor: StaffActor,
  { eventId, now = new Date() }: { eventId: string; now?: Date },
): Promise<{ filename: string; csv: string; count: number } | "no-lab" | null> {
  assertCan(actor, "lab-csv:export");
  const found = await findAttendeeEvent(db, eventId);
  if (!found) return null;
  // A file whose lab column is empty goes to no laboratory: the event must say which first.
  if (!found.labName?.trim()) return "no-lab";
  const { active } = await loadAttendees(db, found, now);
  const sampled = active.filter((row) => row.status === "confirmed" && row.sampleId !== null);
  const rows: LabCsvRow[] = sampled.map((row) => ({
    reference: row.reference,
    name: row.name,
    dateOfBirth: row.dateOfBirth,
    nhsNumber: row.nhsNumber,
    sampleId: row.sampleId!,
    eventDate: found.eventDate,
    lab: found.labName,
  }));
  await auditShown(db, actor, "attendees.export", found.id, sampled);
  return { filename: labCsvFilename(found), csv: labCsv(rows), count: rows.length };
}

export type CheckInResult =
  | { outcome: "not-found" }
  | { outcome: "refused"; reference: string; field: "sampleId" | "checkIn"; message: string }
  | { outcome: "done"; reference: string; changed: boolean; to: CheckInState };

/**
 * Whether he has consented to this booking's test: on the booking itself, or on the stand-alone
 * form for its day (the rule the list's Consent column follows, in `loadAttendees`).
 */
async function hasConsentOnRecord(
  db: Db,
  row: { id: string; userId: string },
  appointmentDate: string,
): Promise<boolean> {
  const [found] = await db
    .select({ id: consent.id })
    .from(consent)
    .where(
      or(
        eq(consent.bookingId, row.id),
        and(
          isNull(consent.bookingId),
          eq(consent.userId, row.userId),
          eq(consent.testDate, appointmentDate),
        ),
      ),
    )
    .limit(1);
  return found !== undefined;
}

/** Sample ids are checked for duplicates one at a time, whoever records them. */
const SAMPLE_ID_LOCK = 0x4d484154_5341; // "MHATSA"

async function hasNhsNumberIfLabNeedsOne(tx: Db, eventId: string, userId: string) {
  const [found] = await tx
    .select({ labName: event.labName, nhsNumber: profile.nhsNumber })
    .from(event)
    .leftJoin(profile, eq(profile.userId, userId))
    .where(eq(event.id, eventId));
  return !needsNhsNumber(found?.labName) || Boolean(found?.nhsNumber);
}

/**
 * Records an arrival, a no-show, a sample or an undo for a booking of this event, under the
 * booking's row lock; nothing but an undo before the appointment's day (London). A sample id already on another booking is refused (checked across events,
 * since the lab's results are matched by sample id). Audited when something changed.
 */
export async function recordCheckIn(
  db: Db,
  actor: StaffActor,
  { eventId, command, now = new Date() }: { eventId: string; command: CheckInCommand; now?: Date },
): Promise<CheckInResult> {
  return db.transaction(async (tx): Promise<CheckInResult> => {
    assertCan(actor, "attendee:check-in");
    if (!isUuid(eventId) || !isUuid(command.bookingId)) return { outcome: "not-found" };
    const appointmentDate = await eventDayFor(tx, actor, eventId, now);
    if (!appointmentDate) return { outcome: "not-found" };
    const [row] = await tx
      .select()
      .from(booking)
      .where(and(eq(booking.id, command.bookingId), eq(booking.eventId, eventId)))
      .for("update");
    if (!row) return { outcome: "not-found" };
    const refuse = (field: "sampleId" | "checkIn", message: string): CheckInResult => ({
      outcome: "refused",
      reference: row.reference,
      field,
      message,
    });
    if (!canTake(bookingStage(row), "check-in"))
      return refuse("checkIn", CHECK_IN_MESSAGES.notConfirmed);

    const outcome = applyCheckIn(row, command, now, {
      today: londonDate(now),
      appointmentDate,
      appointmentStart: londonInstant(appointmentDate, row.slotTime),
    });
    if (!outcome.ok) return refuse(outcome.field, outcome.error);
    if (!outcome.changed)
      return { outcome: "done", reference: row.reference, changed: false, to: outcome.to };

    if (command.intent === "sample") {
      // His result could reach no one, and no kept copy of it would say whose it was.
      const [owner] = await tx
        .select({ id: user.id, email: user.email })
        .from(user)
        .where(eq(user.id, row.userId));
      if (!owner || isErasedAccount(owner))
        return refuse("sampleId", CHECK_IN_MESSAGES.accountDeleted);
      if (!(await hasConsentOnRecord(tx, row, appointmentDate)))
        return refuse("sampleId", CHECK_IN_MESSAGES.noConsent);
      // The lab would refuse the tube, and no result would ever come (the event's lab can change
      // after he booked, and booking asks for the number only of the lab chosen then).
      if (!(await hasNhsNumberIfLabNeedsOne(tx, eventId, row.userId)))
        return refuse("sampleId", CHECK_IN_MESSAGES.noNhsNumber);
      await tx.execute(sql`select pg_advisory_xact_lock(${SAMPLE_ID_LOCK})`);
      const [taken] = await tx
        .select({ reference: booking.reference, eventId: booking.eventId })
        .from(booking)
        .where(
          and(
            isNotNull(booking.sampleId),
            sql`upper(${booking.sampleId}) = upper(${command.sampleId})`,
            ne(booking.id, row.id),
          ),
        )
        .limit(1);
      if (taken)
        return refuse(
          "sampleId",
          taken.eventId === eventId
            ? CHECK_IN_MESSAGES.sampleIdInUse(taken.reference)
            : CHECK_IN_MESSAGES.sampleIdInUseElsewhere,
        );
    }
    if (command.intent === "undo" && outcome.from === "sample_taken") {
      const [result] = await tx
        .select({ id: testResult.id })
        .from(testResult)
        .where(eq(testResult.bookingId, row.id));
      if (result) return refuse("checkIn", CHECK_IN_MESSAGES.resultImported);
    }

    await tx
      .update(booking)
      .set({ ...outcome.changes, updatedAt: now })
      .where(eq(booking.id, row.id));
    await recordAudit(tx, actor, {
      action: "checkin.update",
      subjectUserId: row.userId,
      entityType: "booking",
      entityId: row.id,
      details: { eventId, intent: command.intent, from: outcome.from, to: outcome.to },
    });
    return { outcome: "done", reference: row.reference, changed: true, to: outcome.to };
  });
}

export type NoShowsResult =
  | { outcome: "not-found" }
  | { outcome: "refused"; message: string }
  | { outcome: "done"; marked: number };

/**
 * At closing time: the bookings the page listed as still waiting (confirmed, not arrived, no
 * sample, not a no-show) become no-shows, under each booking's row lock, as one tap on each
 * would; one marked meanwhile, or not this event's, is left as it is. Refused before the event
 * has ended. Each booking marked is audited. His results page then says that no test was taken,
 * where it would have told him his result was on its way.
 */
export async function markRemainingNoShows(
  db: Db,
  actor: StaffActor,
  {
    eventId,
    bookingIds,
    now = new Date(),
  }: { eventId: string; bookingIds: readonly string[]; now?: Date },
): Promise<NoShowsResult> {
  assertCan(actor, "attendee:check-in");
  const found = await findAttendeeEvent(db, eventId);
  if (!found) return { outcome: "not-found" };
  assertEventDay(actor, found.eventDate, londonDate(now));
  if (!closingTimeReached(found, now))
    return { outcome: "refused", message: CHECK_IN_MESSAGES.notEndedYet(found.endTime) };
  const ids = bookingIds.filter(isUuid);
  if (ids.length === 0) return { outcome: "done", marked: 0 };
  const day = { today: londonDate(now), appointmentDate: found.eventDate };
  const marked = await db.transaction(async (tx) => {
    // Locked, then checked again by `applyCheckIn`: a man marked meanwhile keeps his mark.
    const rows = await tx
      .select()
      .from(booking)
      .where(
        and(
          eq(booking.eventId, found.id),
          inArray(booking.id, ids),
          eq(booking.status, "confirmed"),
          isNull(booking.arrivedAt),
          isNull(booking.noShowAt),
          isNull(booking.sampleTakenAt),
          isNull(booking.sampleId),
        ),
      )
      .for("update");
    const changed = rows.flatMap((row) => {
      if (!canTake(bookingStage(row), "check-in")) return [];
      const command = { intent: "no-show", bookingId: row.id, from: "waiting" } as const;
      const outcome = applyCheckIn(row, command, now, day);
      return outcome.ok && outcome.changed ? [{ row, outcome }] : [];
    });
    if (changed.length === 0) return 0;
    for (const { row, outcome } of changed)
      await tx
        .update(booking)
        .set({ ...outcome.changes, updatedAt: now })
        .where(eq(booking.id, row.id));
    await recordAudit(
      tx,
      actor,
      changed.map(({ row, outcome }) => ({
        action: "checkin.update" as const,
        subjectUserId: row.userId,
        entityType: "booking",
        entityId: row.id,
        details: {
          eventId: found.id,
          intent: "no-show",
          from: outcome.from,
          to: outcome.to,
          all: true,
        },
      })),
    );
    return changed.length;
  });
  return { outcome: "done", marked };
}
