import { and, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, profile, user } from "#app/db/schema";
import { attendeeName, isPlaceOnTheList } from "#app/domain/attendees";
import {
  ATTENDEE_DETAILS_MESSAGES,
  ageOutsideScreeningProblem,
  missingNhsNumberProblem,
  type AttendeeDetails,
} from "#app/domain/attendee-details";
import { PLACE_STATUSES } from "#app/domain/booking-lifecycle";
import { needsNhsNumber } from "#app/domain/eligibility";
import { isUuid } from "#app/domain/ids";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { openAttendeeEvent, type AttendeeEvent } from "./attendees.server";
import { recordAudit } from "./audit.server";
import { lockPerson } from "./booking/places.server";
import { suggestFlagsAgainForBirthDate } from "./results-admin.server";

/**
 * Staff correcting a booked man's date of birth and NHS number (`attendee:correct-details`: the
 * coordinator, and event staff on the event's own day). Only for a booking of this event that the
 * attendee list shows as a place. Each read and each change is audited, without the values.
 */

export interface AttendeeDetailsView {
  event: AttendeeEvent;
  bookingId: string;
  reference: string;
  name: string;
  dateOfBirth: string | null;
  nhsNumber: string | null;
  labNeedsNhsNumber: boolean;
}

/** His booking of this event, while the attendee list shows it as a place; null otherwise. */
async function findPerson(db: Db, eventId: string, bookingId: string, now: Date) {
  if (!isUuid(bookingId)) return null;
  const [row] = await db
    .select({
      bookingId: booking.id,
      reference: booking.reference,
      userId: booking.userId,
      status: booking.status,
      paymentStatus: booking.paymentStatus,
      holdExpiresAt: booking.holdExpiresAt,
      captureRequestId: booking.captureRequestId,
      firstName: profile.firstName,
      lastName: profile.lastName,
      accountName: user.name,
      dateOfBirth: profile.dateOfBirth,
      nhsNumber: profile.nhsNumber,
      profileId: profile.id,
    })
    .from(booking)
    .innerJoin(user, eq(user.id, booking.userId))
    .leftJoin(profile, eq(profile.userId, booking.userId))
    .where(and(eq(booking.id, bookingId), eq(booking.eventId, eventId)));
  return row && isPlaceOnTheList(row, now) ? row : null;
}

/** The form's page: the person's details as recorded, the read audited; null when there is none. */
export async function readAttendeeDetails(
  db: Db,
  actor: StaffActor,
  { eventId, bookingId, now = new Date() }: { eventId: string; bookingId: string; now?: Date },
): Promise<AttendeeDetailsView | null> {
  assertCan(actor, "attendee:correct-details");
  const found = await openAttendeeEvent(db, actor, eventId, now);
  if (!found) return null;
  const row = await findPerson(db, found.id, bookingId, now);
  if (!row?.profileId) return null;
  await recordAudit(db, actor, {
    action: "attendee.details.view",
    subjectUserId: row.userId,
    entityType: "booking",
    entityId: row.bookingId,
    details: { eventId: found.id },
  });
  return {
    event: found,
    bookingId: row.bookingId,
    reference: row.reference,
    name: attendeeName(row),
    dateOfBirth: row.dateOfBirth,
    nhsNumber: row.nhsNumber,
    labNeedsNhsNumber: needsNhsNumber(found.labName),
  };
}

export type AttendeeDetailsResult =
  | { outcome: "not-found" }
  | { outcome: "refused"; field: "nhsNumber" | "dateOfBirth"; message: string }
  | { outcome: "saved"; reference: string; changed: boolean };

/**
 * Saves a corrected date of birth and NHS number under the person's lock (a booking reads his date
 * of birth under it). A new date of birth gets his results' flags suggested again. An NHS number
 * is never removed here, nor left empty for a laboratory that needs one. A new date of birth
 * outside the screening's ages on the event's day is saved only once staff say they checked it.
 * Audited when something changed, naming which fields.
 */
export async function correctAttendeeDetails(
  db: Db,
  actor: StaffActor,
  {
    eventId,
    bookingId,
    details,
    now = new Date(),
  }: { eventId: string; bookingId: string; details: AttendeeDetails; now?: Date },
): Promise<AttendeeDetailsResult> {
  assertCan(actor, "attendee:correct-details");
  const found = await openAttendeeEvent(db, actor, eventId, now);
  if (!found) return { outcome: "not-found" };
  return db.transaction(async (tx): Promise<AttendeeDetailsResult> => {
    const first = await findPerson(tx, found.id, bookingId, now);
    if (!first?.profileId) return { outcome: "not-found" };
    await lockPerson(tx, first.userId);
    // Read again under the lock: another correction may have landed meanwhile.
    const row = await findPerson(tx, found.id, bookingId, now);
    if (!row?.profileId) return { outcome: "not-found" };
    if (details.nhsNumber === null) {
      const problem = missingNhsNumberProblem({
        recorded: row.nhsNumber || null,
        labNeedsOne: needsNhsNumber(found.labName),
      });
      if (problem) return { outcome: "refused", field: "nhsNumber", message: problem };
    }
    const dateOfBirthChanged = row.dateOfBirth !== details.dateOfBirth;
    const nhsNumberChanged = (row.nhsNumber || null) !== details.nhsNumber;
    const ageProblem =
      dateOfBirthChanged &&
      ageOutsideScreeningProblem(
        details.dateOfBirth,
        found.eventDate,
        details.ageConfirmed ?? false,
      );
    if (ageProblem) return { outcome: "refused", field: "dateOfBirth", message: ageProblem };
    // One number, one man: a number copied from another man's card (or an example) would send
    // the laboratory two men under one NHS number. Asked of this event's list only, whose
    // numbers this person already sees, so that it tells no one who else is a patient (D-196).
    if (
      nhsNumberChanged &&
      details.nhsNumber &&
      (await nhsNumberOfAnotherHere(tx, found.id, row.userId, details.nhsNumber))
    )
      return {
        outcome: "refused",
        field: "nhsNumber",
        message: ATTENDEE_DETAILS_MESSAGES.nhsNumberSomeoneElses,
      };
    if (!dateOfBirthChanged && !nhsNumberChanged)
      return { outcome: "saved", reference: row.reference, changed: false };
    await tx
      .update(profile)
      .set({ dateOfBirth: details.dateOfBirth, nhsNumber: details.nhsNumber, updatedAt: now })
      .where(eq(profile.id, row.profileId));
    if (dateOfBirthChanged)
      await suggestFlagsAgainForBirthDate(
        tx,
        row.userId,
        { from: row.dateOfBirth, to: details.dateOfBirth },
        now,
      );
    await recordAudit(tx, actor, {
      action: "attendee.details.correct",
      subjectUserId: row.userId,
      entityType: "booking",
      entityId: row.bookingId,
      details: { eventId: found.id, dateOfBirth: dateOfBirthChanged, nhsNumber: nhsNumberChanged },
    });
    return { outcome: "saved", reference: row.reference, changed: true };
  });
}

/** Whether another man booked at this event has this NHS number recorded. */
async function nhsNumberOfAnotherHere(
  tx: Db,
  eventId: string,
  userId: string,
  nhsNumber: string,
): Promise<boolean> {
  const [other] = await tx
    .select({ id: booking.id })
    .from(booking)
    .innerJoin(profile, eq(profile.userId, booking.userId))
    .where(
      and(
        eq(booking.eventId, eventId),
        inArray(booking.status, [...PLACE_STATUSES]),
        eq(profile.nhsNumber, nhsNumber),
        ne(booking.userId, userId),
      ),
    )
    .limit(1);
  return other !== undefined;
}
