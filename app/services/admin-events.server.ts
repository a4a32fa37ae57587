import crypto from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import {
  booking,
  event,
  eventAccessCode,
  profile,
  screeningProduct,
  testResult,
  user,
} from "#app/db/schema";
import type { AuditAction } from "#app/domain/audit";
import { formatLongDate } from "#app/domain/date-labels";
import {
  LABS,
  accessCodeState,
  cancelProblem,
  formatAccessCode,
  publishProblem,
  STATUS_MESSAGES,
  unpublishProblem,
  validateEventForm,
  type AccessCodeState,
  type BookingsSoFar,
  type EventFormData,
  type EventStatus,
  type ProductFormData,
} from "#app/domain/event-form";
import type { FieldErrors } from "#app/domain/forms";
import { eventAddress, eventEnd } from "#app/domain/events";
import { addLondonDays, londonDate, londonInstant } from "#app/domain/london-time";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { formatPounds } from "#app/domain/pricing";
import {
  bookingStage,
  canTake,
  HOLD_STATUSES,
  PLACE_STATUSES,
  takesPlace,
} from "#app/domain/booking-lifecycle";
import { accessCodeHashes, createAccessCode } from "./access-codes.server";
import { countWithoutNeededNhsNumber } from "./attendees.server";
import { recordAudit } from "./audit.server";
import {
  lockEvent,
  placesTaken,
  placesTakenByEvent,
  takesPlaceWhere,
} from "./booking/places.server";
import { calendarEntryFor, calendarFileName } from "./booking/calendar.server";
import { tellBookedOfNewPlace } from "./booking/place-change.server";
import { enqueueEmail } from "./email.server";
import { eventsChanged, isEventId } from "./events.server";
import {
  refundCancelledEventWithin,
  refundSummary,
  type RefundRun,
  type RefundSummary,
} from "./payments/refunds.server";
import { closeWaitingList } from "./waitlist.server";
import { REFUND_WITHIN_BUSINESS_DAYS } from "#app/domain/policy-notice";

/**
 * The back office's events: list, create, edit, publish, unpublish and cancel them (with refunds),
 * their access codes, and the screening products with their prices. Changes that touch capacity
 * run under the event's row lock (`SELECT … FOR UPDATE`), as the booking service's do, so a
 * capacity check here and a hold there cannot both pass on the same count.
 */

type EventRow = typeof event.$inferSelect;
type BookingRow = typeof booking.$inferSelect;

/** Changes to events are audited too (they hold no one's personal data), in the change's transaction. */
function recordEventChange(
  tx: Db,
  actor: StaffActor,
  action: AuditAction,
  eventId: string,
  details?: Record<string, string | number | boolean | null>,
) {
  return recordAudit(tx, actor, { action, entityType: "event", entityId: eventId, details });
}

/* ---------------------------------------------------------------------------------------------- */
/* Lists                                                                                          */

export interface AdminEventListRow {
  id: string;
  name: string;
  eventDate: string;
  startTime: string;
  endTime: string;
  status: EventStatus;
  isPublic: boolean;
  city: string;
  productName: string;
  booked: number;
  held: number;
  total: number;
}

/**
 * Every event, upcoming ones first (soonest first), then past ones (most recent first), with the
 * places booked (confirmed), held (unexpired holds) and in total. At most `limit` rows.
 */
export async function listEventsForAdmin(
  db: Db,
  filter: { status?: EventStatus | null },
  now = new Date(),
  limit = 500,
): Promise<AdminEventListRow[]> {
  const today = londonDate(now);
  const upcoming = sql`${event.eventDate} >= ${today}::date`;
  const places = placesTakenByEvent(db, now);
  const rows = await db
    .select({
      id: event.id,
      name: event.name,
      eventDate: event.eventDate,
      startTime: event.startTime,
      endTime: event.endTime,
      status: event.status,
      isPublic: event.isPublic,
      city: event.city,
      productName: screeningProduct.name,
      booked: sql<number>`coalesce(${places.taken} - ${places.held}, 0)`.mapWith(Number),
      held: sql<number>`coalesce(${places.held}, 0)`.mapWith(Number),
      total: event.totalSpaces,
    })
    .from(event)
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .leftJoin(places, eq(places.eventId, event.id))
    .where(filter.status ? eq(event.status, filter.status) : undefined)
    .orderBy(
      sql`case when ${upcoming} then 0 else 1 end`,
      sql`case when ${upcoming} then ${event.eventDate} end asc`,
      desc(event.eventDate),
      asc(event.startTime),
    )
    .limit(limit);
  return rows.map((row) => ({
    ...row,
    startTime: row.startTime.slice(0, 5),
    endTime: row.endTime.slice(0, 5),
  }));
}

export interface ProductRow {
  id: string;
  name: string;
  description: string | null;
  pricePence: number;
  /** events that use the product */
  events: number;
}

export async function listProducts(db: Db): Promise<ProductRow[]> {
  return db
    .select({
      id: screeningProduct.id,
      name: screeningProduct.name,
      description: screeningProduct.description,
      pricePence: screeningProduct.pricePence,
      // Qualified by hand: in a one-table select Drizzle leaves column names bare, and a bare "id"
      // inside the subquery would mean the event's.
      events:
        sql<number>`(select count(*)::int from ${event} where ${event.productId} = ${screeningProduct}.${sql.identifier("id")})`.mapWith(
          Number,
        ),
    })
    .from(screeningProduct)
    .orderBy(asc(screeningProduct.name), asc(screeningProduct.createdAt));
}

export async function createProduct(
  db: Db,
  actor: StaffActor,
  data: ProductFormData,
): Promise<{ id: string }> {
  assertCan(actor, "product:edit");
  const row = await db.transaction(async (tx) => {
    const [made] = await tx
      .insert(screeningProduct)
      .values({ name: data.name, description: data.description, pricePence: data.price })
      .returning({ id: screeningProduct.id });
    await recordAudit(tx, actor, {
      action: "product.create",
      entityType: "product",
      entityId: made!.id,
      details: { pricePence: data.price },
    });
    return made!;
  });
  eventsChanged();
  return row;
}

/** False when there is no such product. */
export async function updateProduct(
  db: Db,
  actor: StaffActor,
  id: string,
  data: ProductFormData,
): Promise<boolean> {
  assertCan(actor, "product:edit");
  if (!isEventId(id)) return false;
  // A new price applies at once to every event that takes the product's price, published ones
  // too: the audit keeps the price before and after.
  const changed = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ pricePence: screeningProduct.pricePence })
      .from(screeningProduct)
      .where(eq(screeningProduct.id, id))
      .for("update");
    if (!before) return false;
    await tx
      .update(screeningProduct)
      .set({ name: data.name, description: data.description, pricePence: data.price })
      .where(eq(screeningProduct.id, id));
    await recordAudit(tx, actor, {
      action: "product.update",
      entityType: "product",
      entityId: id,
      details: { pricePenceBefore: before.pricePence, pricePence: data.price },
    });
    return true;
  });
  eventsChanged();
  return changed;
}

/** What the event form offers: the products (with prices) and the labs. */
export async function eventFormChoices(db: Db) {
  const [products, usedLabs] = await Promise.all([
    db
      .select({
        id: screeningProduct.id,
        name: screeningProduct.name,
        pricePence: screeningProduct.pricePence,
      })
      .from(screeningProduct)
      .orderBy(asc(screeningProduct.name)),
    db
      .selectDistinct({ labName: event.labName })
      .from(event)
      .where(isNotNull(event.labName))
      .orderBy(asc(event.labName)),
  ]);
  const labs: string[] = [...LABS];
  for (const { labName } of usedLabs) {
    const name = labName?.trim();
    if (name && !labs.some((known) => known.toUpperCase() === name.toUpperCase())) labs.push(name);
  }
  return { products, labs };
}

/* ---------------------------------------------------------------------------------------------- */
/* One event                                                                                      */

/**
 * What an event has booked at `now`: confirmed places and unexpired holds,
 * the most taken at one time, and the booked times. Call it with the event's row locked when the
 * answer decides a change.
 */
async function bookingsSoFar(
  db: Db,
  row: EventRow,
  now: Date,
): Promise<BookingsSoFar & { held: number }> {
  const taken = await placesTaken(db, row.id, now);
  const [samples] = await db
    .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
    .from(booking)
    .where(and(eq(booking.eventId, row.id), isNotNull(booking.sampleTakenAt)));
  return {
    taken: taken.taken,
    held: taken.held,
    mostAtOneTime: Math.max(0, ...taken.perSlot.values()),
    bookedTimes: [...taken.perSlot.keys()],
    eventDate: row.eventDate,
    labName: row.labName,
    samplesTaken: samples?.count ?? 0,
  };
}

/** Bookings that would be hurt by hiding the event: confirmed, holding a place, or paying. */
async function activeBookingCount(db: Db, row: EventRow, now: Date): Promise<number> {
  const [counted] = await db
    .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
    .from(booking)
    .where(
      and(
        eq(booking.eventId, row.id),
        or(
          takesPlaceWhere(now),
          // Past its hold, but a payment is on its way: hiding the event would strand it.
          and(
            inArray(booking.status, [...HOLD_STATUSES]),
            or(isNotNull(booking.paymentOrderId), eq(booking.paymentStatus, "pending")),
          ),
        ),
      ),
    );
  return counted?.count ?? 0;
}

export interface AccessCodeRow {
  id: string;
  label: string | null;
  uses: number;
  maxUses: number | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
  state: AccessCodeState;
}

export async function listAccessCodes(
  db: Db,
  eventId: string,
  now = new Date(),
): Promise<AccessCodeRow[]> {
  const rows = await db
    .select({
      id: eventAccessCode.id,
      label: eventAccessCode.label,
      uses: eventAccessCode.uses,
      maxUses: eventAccessCode.maxUses,
      expiresAt: eventAccessCode.expiresAt,
      revokedAt: eventAccessCode.revokedAt,
      createdAt: eventAccessCode.createdAt,
    })
    .from(eventAccessCode)
    .where(eq(eventAccessCode.eventId, eventId))
    .orderBy(desc(eventAccessCode.createdAt));
  return rows.map((row) => ({ ...row, state: accessCodeState(row, now) }));
}

export interface AdminEventDetail {
  event: EventRow;
  productName: string;
  productPricePence: number;
  booked: number;
  held: number;
  bookings: BookingsSoFar & { held: number };
  activeBookings: number;
  /** active bookings that have paid (or whose payment PayPal is still reviewing): refunded on cancelling */
  paidBookings: number;
  /** of those, the ones cancelling the event keeps (a sample taken, or a result): all, and paid */
  keptOnCancel: { bookings: number; paid: number };
  ended: boolean;
  codes: AccessCodeRow[];
  refunds: RefundSummary;
  /** booked men still to give a sample without the NHS number the event's laboratory needs */
  withoutNhsNumber: number;
}

export async function findEventForAdmin(
  db: Db,
  eventId: string | undefined,
  now = new Date(),
): Promise<AdminEventDetail | null> {
  if (!isEventId(eventId)) return null;
  const [found] = await db
    .select({
      event,
      productName: screeningProduct.name,
      productPricePence: screeningProduct.pricePence,
    })
    .from(event)
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .where(eq(event.id, eventId));
  if (!found) return null;
  // As cancelEvent decides: a booking with a sample taken or a result stays.
  const kept = sql`(${booking.sampleId} is not null or ${booking.sampleTakenAt} is not null or exists (select 1 from ${testResult} where ${testResult.bookingId} = ${booking.id}))`;
  const [bookings, activeBookings, [paid], codes, refunds, withoutNhsNumber] = await Promise.all([
    bookingsSoFar(db, found.event, now),
    activeBookingCount(db, found.event, now),
    db
      .select({
        count:
          sql<number>`count(*) filter (where ${inArray(booking.paymentStatus, ["paid", "pending"])})::int`.mapWith(
            Number,
          ),
        kept: sql<number>`count(*) filter (where ${kept})::int`.mapWith(Number),
        keptPaid:
          sql<number>`count(*) filter (where ${kept} and ${inArray(booking.paymentStatus, ["paid", "pending"])})::int`.mapWith(
            Number,
          ),
      })
      .from(booking)
      .where(and(eq(booking.eventId, eventId), inArray(booking.status, [...PLACE_STATUSES]))),
    listAccessCodes(db, eventId, now),
    refundSummary(db, eventId),
    countWithoutNeededNhsNumber(db, found.event),
  ]);
  return {
    ...found,
    booked: bookings.taken - bookings.held,
    held: bookings.held,
    bookings,
    activeBookings,
    paidBookings: paid?.count ?? 0,
    keptOnCancel: { bookings: paid?.kept ?? 0, paid: paid?.keptPaid ?? 0 },
    ended: eventEnd(found.event).getTime() <= now.getTime(),
    codes,
    // The page lists failed refunds only for a cancelled event: a patient's own cancellation of
    // one going ahead is under Refunds, and what the page does not show is not sent.
    refunds: found.event.status === "cancelled" ? refunds : { ...refunds, failures: [] },
    withoutNhsNumber,
  };
}

/* ---------------------------------------------------------------------------------------------- */
/* Create and edit                                                                                */

function eventColumns(data: EventFormData) {
  return {
    name: data.name,
    description: data.description,
    productId: data.productId,
    pricePence: data.price,
    paymentRequired: data.paymentRequired,
    eventDate: data.eventDate,
    startTime: data.startTime,
    endTime: data.endTime,
    sessionDuration: data.sessionDuration,
    totalSpaces: data.totalSpaces,
    placesPerSlot: data.placesPerSlot,
    category: data.category,
    exclusiveFor: data.exclusiveFor,
    isPublic: data.visibility,
    contactEmail: data.contactEmail,
    labName: data.labName,
    addressLine1: data.addressLine1,
    addressLine2: data.addressLine2,
    city: data.city,
    state: data.state,
    postcode: data.postcode,
    country: data.country,
    latitude: data.latitude,
    longitude: data.longitude,
  };
}

export type SaveEventResult =
  | {
      ok: true;
      id: string;
      /** men booked who were e-mailed the event's new address (an edit that moved it) */
      toldOfNewPlace?: number;
    }
  | {
      ok: false;
      fieldErrors: FieldErrors;
      values: Record<string, string>;
      formError?: string;
      /** the version saved meanwhile by someone else: saving again with it replaces that one */
      seen?: string;
    }
  | { ok: false; notFound: true };

/** A new event from the form, saved as a draft (staff publish it when it is ready). */
export async function createEvent(
  db: Db,
  actor: StaffActor,
  values: Record<string, string>,
  now = new Date(),
): Promise<SaveEventResult> {
  assertCan(actor, "event:edit");
  const choices = await eventFormChoices(db);
  const result = validateEventForm(values, {
    productIds: choices.products.map((product) => product.id),
    labs: choices.labs,
    today: londonDate(now),
  });
  if (!result.ok) return result;
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(event)
      .values({ ...eventColumns(result.data), status: "draft", createdAt: now, updatedAt: now })
      .returning({ id: event.id });
    await recordEventChange(tx, actor, "event.create", row!.id);
    return row!.id;
  });
  eventsChanged();
  return { ok: true, id };
}

/**
 * Saves an edited event. The rules against the bookings (total places at least those taken, no
 * booked time removed, the date kept while people are booked) are checked under the event's row
 * lock, so no hold can slip in between the check and the change. `seen` in the values is the
 * version the form was opened at (its `updatedAt`): when someone has saved the event since, nothing
 * is saved, so that an older page cannot quietly undo their change.
 */
export async function updateEvent(
  db: Db,
  actor: StaffActor,
  eventId: string | undefined,
  { seen, ...values }: Record<string, string>,
  now = new Date(),
): Promise<SaveEventResult> {
  assertCan(actor, "event:edit");
  if (!isEventId(eventId)) return { ok: false, notFound: true };
  const choices = await eventFormChoices(db);
  const result = await db.transaction(async (tx): Promise<SaveEventResult> => {
    const row = await lockEvent(tx, eventId);
    if (!row) return { ok: false, notFound: true };
    if (row.status === "cancelled")
      return { ok: false, fieldErrors: {}, values, formError: STATUS_MESSAGES.editCancelled };
    const saved = row.updatedAt.toISOString();
    if (seen !== undefined && seen !== saved)
      return {
        ok: false,
        fieldErrors: {},
        values,
        formError: STATUS_MESSAGES.savedMeanwhile,
        seen: saved,
      };
    const checked = validateEventForm(values, {
      productIds: choices.products.map((product) => product.id),
      labs: choices.labs,
      today: londonDate(now),
      currentDate: row.eventDate,
      bookings: await bookingsSoFar(tx, row, now),
    });
    if (!checked.ok) return checked;
    const [updated] = await tx
      .update(event)
      .set({ ...eventColumns(checked.data), updatedAt: now })
      .where(eq(event.id, row.id))
      .returning();
    // A new address reaches everyone booked, before the day (their reminder may have gone).
    const toldOfNewPlace = await tellBookedOfNewPlace(tx, row, updated!, now);
    await recordEventChange(
      tx,
      actor,
      "event.update",
      row.id,
      toldOfNewPlace > 0 ? { toldOfNewPlace } : undefined,
    );
    return { ok: true, id: row.id, ...(toldOfNewPlace > 0 ? { toldOfNewPlace } : {}) };
  });
  if (result.ok) eventsChanged();
  return result;
}

/* ---------------------------------------------------------------------------------------------- */
/* Publish and unpublish                                                                          */

export type StatusChange = { ok: true; status: EventStatus } | { ok: false; message: string };

/** Shows a draft on the site (/book-event-main and its page). A cancelled event stays cancelled. */
export async function publishEvent(
  db: Db,
  actor: StaffActor,
  eventId: string | undefined,
  now = new Date(),
): Promise<StatusChange | null> {
  const result = await db.transaction(async (tx): Promise<StatusChange | null> => {
    assertCan(actor, "event:edit");
    if (!isEventId(eventId)) return null;
    const row = await lockEvent(tx, eventId);
    if (!row) return null;
    if (row.status === "published") return { ok: true, status: "published" };
    const problem = publishProblem(row, eventEnd(row).getTime() <= now.getTime());
    if (problem) return { ok: false, message: problem };
    await tx.update(event).set({ status: "published", updatedAt: now }).where(eq(event.id, row.id));
    await recordEventChange(tx, actor, "event.publish", row.id);
    return { ok: true, status: "published" };
  });
  eventsChanged();
  return result;
}

/**
 * Takes a published event back to draft, hidden from the site, but only while nobody is booked
 * on it: a draft is hidden from the people booked, so an event with bookings is cancelled instead.
 */
export async function unpublishEvent(
  db: Db,
  actor: StaffActor,
  eventId: string | undefined,
  now = new Date(),
): Promise<StatusChange | null> {
  const result = await db.transaction(async (tx): Promise<StatusChange | null> => {
    assertCan(actor, "event:edit");
    if (!isEventId(eventId)) return null;
    const row = await lockEvent(tx, eventId);
    if (!row) return null;
    if (row.status === "draft") return { ok: true, status: "draft" };
    if (row.status === "cancelled") return { ok: false, message: STATUS_MESSAGES.editCancelled };
    const problem = unpublishProblem(await activeBookingCount(tx, row, now));
    if (problem) return { ok: false, message: problem };
    await tx.update(event).set({ status: "draft", updatedAt: now }).where(eq(event.id, row.id));
    await recordEventChange(tx, actor, "event.unpublish", row.id);
    return { ok: true, status: "draft" };
  });
  eventsChanged();
  return result;
}

/* ---------------------------------------------------------------------------------------------- */
/* Access codes                                                                                   */

export type NewAccessCode =
  { ok: true; code: string; id: string } | { ok: false; message: string } | null;

/**
 * A new random code for an event. Only its keyed hash is stored, so the code itself is returned
 * here once, for the page to show; it cannot be read again. The code works until the end of its
 * last day (London time), for at most `maxUses` unlocks.
 */
export async function createEventAccessCode(
  db: Db,
  actor: StaffActor,
  eventId: string | undefined,
  input: { label: string | null; maxUses: number | null; expiresOn: string | null },
): Promise<NewAccessCode> {
  assertCan(actor, "access-code:manage");
  if (!isEventId(eventId)) return null;
  const expiresAt = input.expiresOn
    ? londonInstant(addLondonDays(input.expiresOn, 1), "00:00")
    : null;
  return db.transaction(async (tx): Promise<NewAccessCode> => {
    const [row] = await tx
      .select({ id: event.id, status: event.status })
      .from(event)
      .where(eq(event.id, eventId));
    if (!row) return null;
    if (row.status === "cancelled") return { ok: false, message: STATUS_MESSAGES.editCancelled };
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = formatAccessCode(crypto.randomBytes(32));
      const [clash] = await tx
        .select({ id: eventAccessCode.id })
        .from(eventAccessCode)
        .where(
          and(
            eq(eventAccessCode.eventId, eventId),
            inArray(eventAccessCode.codeHash, accessCodeHashes(code)),
          ),
        );
      if (clash) continue;
      const created = await createAccessCode(tx, {
        eventId,
        code,
        ...(input.label ? { label: input.label } : {}),
        maxUses: input.maxUses,
        expiresAt,
      });
      await recordEventChange(tx, actor, "access-code.create", eventId, { codeId: created.id });
      return { ok: true, code, id: created.id };
    }
    throw new Error("Could not find an unused access code");
  });
}

export type RevokeOutcome = "revoked" | "already-revoked";

/**
 * Stops one of this event's codes working at once, audited with it. A code revoked before is left
 * as it was (a second click); null when this event has no such code, such as another event's.
 */
export async function revokeAccessCode(
  db: Db,
  actor: StaffActor,
  eventId: string | undefined,
  codeId: string,
  now = new Date(),
): Promise<RevokeOutcome | null> {
  assertCan(actor, "access-code:manage");
  if (!isEventId(eventId) || !isEventId(codeId)) return null;
  return db.transaction(async (tx): Promise<RevokeOutcome | null> => {
    const [code] = await tx
      .select({ revokedAt: eventAccessCode.revokedAt })
      .from(eventAccessCode)
      .where(and(eq(eventAccessCode.id, codeId), eq(eventAccessCode.eventId, eventId)))
      .for("update");
    if (!code) return null;
    if (code.revokedAt) return "already-revoked";
    await tx.update(eventAccessCode).set({ revokedAt: now }).where(eq(eventAccessCode.id, codeId));
    await recordEventChange(tx, actor, "access-code.revoke", eventId, { codeId });
    return "revoked";
  });
}

/* ---------------------------------------------------------------------------------------------- */
/* Cancelling, and refunds                                                                        */

/** The booking was someone's place at the moment of cancelling, so they are told. */
function wasBooked(row: BookingRow, now: Date): boolean {
  return (
    takesPlace(row, now) ||
    row.paymentOrderId !== null ||
    row.paymentStatus === "pending" ||
    row.paymentStatus === "paid"
  );
}

/**
 * The cancellation e-mail: which event, which booking, and the refund; for a confirmed booking
 * (which was sent a calendar entry), a file that takes it off his calendar. No health data.
 */
function cancellationEmail(details: {
  to: string;
  firstName: string;
  ev: EventRow;
  row: BookingRow;
  now: Date;
}) {
  const { ev, row } = details;
  const site = config().publicBaseUrl;
  const { booking: helpline } = organisation.phones;
  const paid = row.paymentStatus === "paid" || row.paymentStatus === "pending";
  const hadCalendarEntry = row.status === "confirmed";
  const lines = [
    `Hello ${details.firstName},`,
    "",
    `We are sorry: ${ev.name} on ${formatLongDate(ev.eventDate)} has been cancelled, and your booking ${row.reference} (${row.slotTime}) is cancelled with it.`,
    ...(hadCalendarEntry
      ? ["The attached calendar file takes the appointment off your calendar."]
      : []),
    "",
    paid
      ? `We are refunding your payment of ${formatPounds(row.pricePence)} in full, to the account or card you paid with. You do not need to do anything: it will reach you within ${REFUND_WITHIN_BUSINESS_DAYS} working days, as our refund policy says.`
      : "You have not been charged.",
    "",
    `To find another screening event near you, visit ${site}/book-event-main.`,
    "",
    `If you have any questions, call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}, quoting your booking reference.`,
    "",
    organisation.name,
  ];
  return {
    to: details.to,
    subject: `Cancelled: ${ev.name}, ${formatLongDate(ev.eventDate)} (booking ${row.reference})`,
    text: lines.join("\n"),
    ...(hadCalendarEntry
      ? {
          attachments: [
            {
              filename: calendarFileName(`${row.reference}-cancelled`),
              contentType: "text/calendar; charset=utf-8; method=CANCEL",
              content: calendarEntryFor(row, ev, eventAddress(ev), {
                stamp: details.now,
                method: "CANCEL",
              }),
            },
          ],
        }
      : {}),
  };
}

export type CancelResult =
  | {
      ok: true;
      /** false when the event was cancelled before (this run only tidied up and retried refunds) */
      newlyCancelled: boolean;
      bookingsCancelled: number;
      /**
       * bookings left as they are because a sample was taken or a result exists: their results
       * stay with the patient, and staff deal with them by hand
       */
      bookingsKept: number;
      emailsQueued: number;
      /** people taken off the event's waiting list (and e-mailed), offers included */
      waitingListClosed: number;
      refunds: RefundRun;
    }
  | { ok: false; message: string }
  | null;

/**
 * Cancels an event. In one transaction, under the event's row lock: the event becomes cancelled,
 * every active booking (held, awaiting payment, confirmed) that the booking lifecycle lets staff
 * cancel is cancelled and its place given back (never one whose sample is taken or that has a
 * result: it stays, with its result, and the answer says how many were kept),
 * everyone who was booked gets an e-mail through the outbox, so does everyone on its waiting list
 * (which is closed: `closeWaitingList`), and the audit log gets its row. Then
 * every paid booking is refunded in full (`refundCancelledEvent`), the answer waiting for that at
 * most `refundTimeBudgetMs` while the refunds go on. Calling it again is safe: it
 * cancels any booking that became active since (a payment that was already on its way), and
 * retries the refunds that failed, each of which is made once however often it is retried.
 */
export async function cancelEvent(
  db: Db,
  actor: StaffActor,
  eventId: string | undefined,
  now = new Date(),
  { refundTimeBudgetMs = CANCEL_REFUND_TIME_BUDGET_MS }: { refundTimeBudgetMs?: number } = {},
): Promise<CancelResult> {
  assertCan(actor, "event:cancel");
  if (!isEventId(eventId)) return null;
  type Done =
    | { refused: string }
    | {
        newlyCancelled: boolean;
        bookingsCancelled: number;
        bookingsKept: number;
        emailsQueued: number;
        waitingListClosed: number;
      };
  const cancelled = await db.transaction(async (tx): Promise<Done | null> => {
    const ev = await lockEvent(tx, eventId);
    if (!ev) return null;
    const newlyCancelled = ev.status !== "cancelled";
    const problem = newlyCancelled ? cancelProblem(eventEnd(ev).getTime() <= now.getTime()) : null;
    if (problem) return { refused: problem };
    // Locks are taken event first, then bookings, as the booking service takes them.
    const candidates = await tx
      .select({
        booking,
        hasResult: sql<boolean>`exists (select 1 from ${testResult} where ${testResult.bookingId} = ${booking.id})`,
      })
      .from(booking)
      .where(and(eq(booking.eventId, ev.id), inArray(booking.status, [...PLACE_STATUSES])))
      .orderBy(booking.id)
      .for("update", { of: booking });
    const cancellable = candidates
      .filter((row) => !row.hasResult && canTake(bookingStage(row.booking), "cancel"))
      .map((row) => row.booking);
    const bookingsKept = candidates.length - cancellable.length;
    // A hold that ran out and was never paid took no place: it simply expires, and is not counted
    // as a cancelled booking.
    const active = cancellable.filter((row) => wasBooked(row, now));
    const lapsed = cancellable.filter((row) => !wasBooked(row, now));
    if (lapsed.length > 0) {
      await tx
        .update(booking)
        .set({ status: "expired", updatedAt: now })
        .where(
          inArray(
            booking.id,
            lapsed.map((row) => row.id),
          ),
        );
    }
    if (active.length > 0) {
      await tx
        .update(booking)
        .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
        .where(
          inArray(
            booking.id,
            active.map((row) => row.id),
          ),
        );
    }
    await tx
      .update(event)
      .set({
        status: "cancelled",
        cancelledAt: ev.cancelledAt ?? now,
        updatedAt: now,
      })
      .where(eq(event.id, ev.id));
    const waitingListClosed = await closeWaitingList(
      tx,
      ev,
      now,
      new Set(active.map((row) => row.userId)),
    );

    const people =
      active.length === 0
        ? []
        : await tx
            .select({
              id: user.id,
              email: user.email,
              name: user.name,
              firstName: profile.firstName,
            })
            .from(user)
            .leftJoin(profile, eq(profile.userId, user.id))
            .where(
              inArray(
                user.id,
                active.map((row) => row.userId),
              ),
            );
    let emailsQueued = 0;
    for (const row of active) {
      const person = people.find((candidate) => candidate.id === row.userId);
      if (!person) continue;
      const queued = await enqueueEmail(
        tx,
        cancellationEmail({
          to: person.email,
          firstName: person.firstName ?? person.name,
          ev,
          row,
          now,
        }),
      );
      if (queued) emailsQueued++;
    }
    if (newlyCancelled || active.length > 0 || waitingListClosed > 0) {
      await recordAudit(tx, actor, {
        action: "event.cancel",
        entityType: "event",
        entityId: ev.id,
        details: {
          bookingsCancelled: active.length,
          bookingsKept,
          emailsQueued,
          waitingListClosed,
          alreadyCancelled: !newlyCancelled,
        },
      });
    }
    return {
      newlyCancelled,
      bookingsCancelled: active.length,
      bookingsKept,
      emailsQueued,
      waitingListClosed,
    };
  });
  if (!cancelled) return null;
  if ("refused" in cancelled) return { ok: false, message: cancelled.refused };
  eventsChanged();
  const refunds = await refundCancelledEventWithin(db, eventId, now, refundTimeBudgetMs);
  return { ok: true, ...cancelled, refunds };
}

/**
 * How long cancelling an event waits for its refunds before it answers: well inside the 30 to 60
 * seconds after which a proxy gives up on a request. A refund usually takes PayPal a second or
 * less, so most events are refunded before the answer.
 */
export const CANCEL_REFUND_TIME_BUDGET_MS = 15_000;
