import crypto from "node:crypto";
import { and, asc, desc, eq, gt, inArray, isNotNull, notInArray, or, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import {
  booking,
  event,
  eventAccessCode,
  paymentTransaction,
  profile,
  screeningProduct,
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
import { eventEnd } from "#app/domain/events";
import { addLondonDays, londonDate, londonInstant } from "#app/domain/london-time";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { formatPounds } from "#app/domain/pricing";
import { refundRetryDue } from "#app/domain/refund-retries";
import { createAccessCode, hashAccessCode } from "./access-codes.server";
import { recordAudit, type AuditActor } from "./audit.server";
import { enqueueEmail } from "./email.server";
import { eventsChanged, isEventId, placesTaken } from "./events.server";
import { log } from "./log.server";
import { createSimulatedProvider, paymentProvider, type PaymentProvider } from "./payments.server";
import { PayPalError, PayPalNetworkError, type PayPalRefund } from "./paypal.server";

/**
 * The back office's events: list, create, edit, publish, unpublish and cancel them (with refunds),
 * their access codes, and the screening products with their prices. Changes that touch capacity
 * run under the event's row lock (`SELECT … FOR UPDATE`), as the booking service's do, so a
 * capacity check here and a hold there cannot both pass on the same count.
 */

type EventRow = typeof event.$inferSelect;
type BookingRow = typeof booking.$inferSelect;

async function lockEvent(tx: Db, eventId: string): Promise<EventRow | undefined> {
  const [row] = await tx.select().from(event).where(eq(event.id, eventId)).for("update");
  return row;
}

/** Changes to events are audited too (they hold no one's personal data), in the change's transaction. */
function recordEventChange(
  tx: Db,
  actor: StaffActor,
  action: AuditAction,
  eventId: string,
  details?: Record<string, string>,
) {
  return recordAudit(tx, actor, { action, entityType: "event", entityId: eventId, details });
}

/** Holds that still take a place at `now` (a hold counts until it expires). */
function liveHoldsOf(now: Date) {
  return sql<number>`(
    select count(*)::int from ${booking}
    where ${booking.eventId} = ${event.id}
      and ${booking.status} in ('held', 'awaiting_payment')
      and ${booking.holdExpiresAt} > ${now}
  )`.mapWith(Number);
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
      booked: event.bookedSpaces,
      held: liveHoldsOf(now),
      total: event.totalSpaces,
    })
    .from(event)
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
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
  const [row] = await db
    .insert(screeningProduct)
    .values({ name: data.name, description: data.description, pricePence: data.price })
    .returning({ id: screeningProduct.id });
  eventsChanged();
  return row!;
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
  const changed = await db
    .update(screeningProduct)
    .set({ name: data.name, description: data.description, pricePence: data.price })
    .where(eq(screeningProduct.id, id))
    .returning({ id: screeningProduct.id });
  eventsChanged();
  return changed.length > 0;
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
 * What an event has booked at `now`: confirmed places (the stored count) and unexpired holds,
 * the most taken at one time, and the booked times. Call it with the event's row locked when the
 * answer decides a change.
 */
async function bookingsSoFar(db: Db, row: EventRow, now: Date): Promise<BookingsSoFar> {
  const taken = await placesTaken(db, row.id, now);
  return {
    taken: row.bookedSpaces + taken.held,
    mostAtOneTime: Math.max(0, ...taken.perSlot.values()),
    bookedTimes: [...taken.perSlot.keys()],
    eventDate: row.eventDate,
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
        inArray(booking.status, ["held", "awaiting_payment"]),
        or(
          gt(booking.holdExpiresAt, now),
          isNotNull(booking.paymentOrderId),
          eq(booking.paymentStatus, "pending"),
        ),
      ),
    );
  return row.bookedSpaces + (counted?.count ?? 0);
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
  bookings: BookingsSoFar;
  activeBookings: number;
  /** active bookings that have paid (or whose payment PayPal is still reviewing): refunded on cancelling */
  paidBookings: number;
  ended: boolean;
  codes: AccessCodeRow[];
  refunds: RefundSummary;
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
  const [bookings, activeBookings, [paid], codes, refunds] = await Promise.all([
    bookingsSoFar(db, found.event, now),
    activeBookingCount(db, found.event, now),
    db
      .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
      .from(booking)
      .where(
        and(
          eq(booking.eventId, eventId),
          inArray(booking.status, [...ACTIVE]),
          inArray(booking.paymentStatus, ["paid", "pending"]),
        ),
      ),
    listAccessCodes(db, eventId, now),
    refundSummary(db, eventId),
  ]);
  return {
    ...found,
    booked: found.event.bookedSpaces,
    held: bookings.taken - found.event.bookedSpaces,
    bookings,
    activeBookings,
    paidBookings: paid?.count ?? 0,
    ended: eventEnd(found.event).getTime() <= now.getTime(),
    codes,
    refunds,
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
  | { ok: true; id: string }
  | { ok: false; fieldErrors: FieldErrors; values: Record<string, string>; formError?: string }
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
 * lock, so no hold can slip in between the check and the change.
 */
export async function updateEvent(
  db: Db,
  actor: StaffActor,
  eventId: string | undefined,
  values: Record<string, string>,
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
    const checked = validateEventForm(values, {
      productIds: choices.products.map((product) => product.id),
      labs: choices.labs,
      today: londonDate(now),
      currentDate: row.eventDate,
      bookings: await bookingsSoFar(tx, row, now),
    });
    if (!checked.ok) return checked;
    await tx
      .update(event)
      .set({ ...eventColumns(checked.data), updatedAt: now })
      .where(eq(event.id, row.id));
    await recordEventChange(tx, actor, "event.update", row.id);
    return { ok: true, id: row.id };
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
            eq(eventAccessCode.codeHash, hashAccessCode(code)),
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

const ACTIVE = ["held", "awaiting_payment", "confirmed"] as const;

/** The booking was someone's place at the moment of cancelling, so they are told. */
function wasBooked(row: BookingRow, now: Date): boolean {
  return (
    row.status === "confirmed" ||
    (row.holdExpiresAt !== null && row.holdExpiresAt.getTime() > now.getTime()) ||
    row.paymentOrderId !== null ||
    row.paymentStatus === "pending" ||
    row.paymentStatus === "paid"
  );
}

/** The cancellation e-mail: which event, which booking, and the refund. No health data. */
function cancellationEmail(details: {
  to: string;
  firstName: string;
  ev: EventRow;
  row: BookingRow;
}) {
  const { ev, row } = details;
  const site = config().publicBaseUrl;
  const { booking: helpline } = organisation.phones;
  const paid = row.paymentStatus === "paid" || row.paymentStatus === "pending";
  const lines = [
    `Hello ${details.firstName},`,
    "",
    `We are sorry: ${ev.name} on ${formatLongDate(ev.eventDate)} has been cancelled, and your booking ${row.reference} (${row.slotTime}) is cancelled with it.`,
    "",
    paid
      ? `We are refunding your payment of ${formatPounds(row.pricePence)} in full, to the account or card you paid with. You do not need to do anything; refunds usually arrive within 5 working days.`
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
  };
}

export interface RefundFailure {
  reference: string;
  /** PayPal's issue (e.g. PENDING_CAPTURE), or what went wrong here */
  reason: string;
}

export interface RefundRun {
  /** refunds made by this run */
  refunded: number;
  /** bookings already refunded before this run (nothing sent to PayPal again) */
  alreadyRefunded: number;
  failed: number;
  failures: RefundFailure[];
}

export type CancelResult =
  | {
      ok: true;
      /** false when the event was cancelled before (this run only tidied up and retried refunds) */
      newlyCancelled: boolean;
      bookingsCancelled: number;
      emailsQueued: number;
      refunds: RefundRun;
    }
  | { ok: false; message: string }
  | null;

/**
 * Cancels an event. In one transaction, under the event's row lock: the event becomes cancelled,
 * every active booking (held, awaiting payment, confirmed) is cancelled and its place given back,
 * everyone who was booked gets an e-mail through the outbox, and the audit log gets its row. Then
 * every paid booking is refunded in full (`refundCancelledEvent`). Calling it again is safe: it
 * cancels any booking that became active since (a payment that was already on its way), and
 * retries the refunds that failed, each of which is made once however often it is retried.
 */
export async function cancelEvent(
  db: Db,
  actor: AuditActor,
  eventId: string | undefined,
  now = new Date(),
): Promise<CancelResult> {
  if (!isEventId(eventId)) return null;
  type Done =
    | { refused: string }
    | { newlyCancelled: boolean; bookingsCancelled: number; emailsQueued: number };
  const cancelled = await db.transaction(async (tx): Promise<Done | null> => {
    const ev = await lockEvent(tx, eventId);
    if (!ev) return null;
    const newlyCancelled = ev.status !== "cancelled";
    const problem = newlyCancelled ? cancelProblem(eventEnd(ev).getTime() <= now.getTime()) : null;
    if (problem) return { refused: problem };
    // Locks are taken event first, then bookings, as the booking service takes them.
    const active = await tx
      .select()
      .from(booking)
      .where(and(eq(booking.eventId, ev.id), inArray(booking.status, [...ACTIVE])))
      .for("update");
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
        // Every confirmed booking is cancelled, so no place is booked any more.
        bookedSpaces: 0,
        updatedAt: now,
      })
      .where(eq(event.id, ev.id));

    const toTell = active.filter((row) => wasBooked(row, now));
    const people =
      toTell.length === 0
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
                toTell.map((row) => row.userId),
              ),
            );
    let emailsQueued = 0;
    for (const row of toTell) {
      const person = people.find((candidate) => candidate.id === row.userId);
      if (!person) continue;
      await enqueueEmail(
        tx,
        cancellationEmail({
          to: person.email,
          firstName: person.firstName ?? person.name,
          ev,
          row,
        }),
      );
      emailsQueued++;
    }
    if (newlyCancelled || active.length > 0) {
      await recordAudit(tx, actor, {
        action: "event.cancel",
        entityType: "event",
        entityId: ev.id,
        details: {
          bookingsCancelled: active.length,
          emailsQueued,
          alreadyCancelled: !newlyCancelled,
        },
      });
    }
    return { newlyCancelled, bookingsCancelled: active.length, emailsQueued };
  });
  if (!cancelled) return null;
  if ("refused" in cancelled) return { ok: false, message: cancelled.refused };
  eventsChanged();
  const refunds = await refundCancelledEvent(db, eventId, now);
  return { ok: true, ...cancelled, refunds };
}

/** Bookings of a cancelled event whose money is still with us: paid, or a capture PayPal holds. */
function stillToRefund(eventId: string) {
  return and(
    eq(booking.eventId, eventId),
    eq(booking.status, "cancelled"),
    inArray(booking.paymentStatus, ["paid", "pending"]),
  );
}

/**
 * Refunds, in full, every paid booking of a cancelled event that is not refunded yet, one at a
 * time. Each refund is made once however often this runs (or runs at once twice): the
 * PayPal-Request-Id is the booking's own (`refund-<booking id>`), so PayPal answers a repeat with
 * the first refund instead of making another, and the database keeps one completed refund per
 * booking (a unique index). A refund whose answer was lost is asked again with the same id.
 */
export async function refundCancelledEvent(
  db: Db,
  eventId: string,
  now = new Date(),
): Promise<RefundRun> {
  const run: RefundRun = { refunded: 0, alreadyRefunded: 0, failed: 0, failures: [] };
  if (!isEventId(eventId)) return run;
  const [ev] = await db.select({ status: event.status }).from(event).where(eq(event.id, eventId));
  if (ev?.status !== "cancelled") return run;
  const targets = await db
    .select()
    .from(booking)
    .where(stillToRefund(eventId))
    .orderBy(asc(booking.createdAt));
  for (const row of targets) addToRun(run, row.reference, await refundBooking(db, row, now));
  return run;
}

function addToRun(run: RefundRun, reference: string, outcome: RefundOutcome) {
  if (outcome.outcome === "refunded") run.refunded++;
  else if (outcome.outcome === "already") run.alreadyRefunded++;
  else {
    run.failed++;
    run.failures.push({ reference, reason: outcome.reason });
  }
}

/** Refund statuses that mean the money is on its way back; any other refund row is a failed try. */
const REFUND_MADE = ["COMPLETED", "PENDING"];

/**
 * The booking worker's pass over refunds: tries again every booking of a cancelled event still
 * to refund whose wait is over (`refundRetryDue`), so that a PayPal outage during a cancellation
 * heals by itself. Safe beside a coordinator's "Retry refunds" or another server doing the same:
 * each refund is made once (see refundCancelledEvent).
 */
export async function retryDueRefunds(db: Db, now = new Date()): Promise<RefundRun> {
  const run: RefundRun = { refunded: 0, alreadyRefunded: 0, failed: 0, failures: [] };
  const candidates = await db
    .select({
      booking,
      failedAttempts: sql<number>`count(${paymentTransaction.id})`.mapWith(Number),
      lastAttemptAt: sql<Date | null>`max(${paymentTransaction.createdAt})`.mapWith(
        (value: string | Date | null) => (value === null ? null : new Date(value)),
      ),
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .leftJoin(
      paymentTransaction,
      and(
        eq(paymentTransaction.bookingId, booking.id),
        eq(paymentTransaction.kind, "refund"),
        notInArray(paymentTransaction.status, REFUND_MADE),
      ),
    )
    .where(
      and(
        eq(event.status, "cancelled"),
        eq(booking.status, "cancelled"),
        inArray(booking.paymentStatus, ["paid", "pending"]),
      ),
    )
    .groupBy(booking.id)
    .orderBy(asc(booking.createdAt));
  for (const candidate of candidates) {
    if (!refundRetryDue(candidate.failedAttempts, candidate.lastAttemptAt, now)) continue;
    addToRun(run, candidate.booking.reference, await refundBooking(db, candidate.booking, now));
  }
  return run;
}

type RefundOutcome =
  { outcome: "refunded" } | { outcome: "already" } | { outcome: "failed"; reason: string };

const REFUND_NOTE = "The screening event you booked was cancelled: a full refund.";

/** A simulated provider kept for refunding simulated bookings while the site uses PayPal (never in production). */
let simulatedForRefunds: PaymentProvider | undefined;

/** Who refunds a payment: the provider that took it, or why nobody can. */
function refundProvider(name: string): PaymentProvider | string {
  const current = paymentProvider();
  if (current.name === name) return current;
  if (name === "simulated") {
    if (config().isProduction)
      return "Paid through the simulated provider, which took no money; nothing to refund in production";
    simulatedForRefunds ??= createSimulatedProvider();
    return simulatedForRefunds;
  }
  return "PayPal is not set up on this server (PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET)";
}

async function markRefunded(db: Db, bookingId: string, now: Date) {
  await db
    .update(booking)
    .set({ paymentStatus: "refunded", updatedAt: now })
    .where(and(eq(booking.id, bookingId), inArray(booking.paymentStatus, ["paid", "pending"])));
}

async function refundBooking(db: Db, row: BookingRow, now: Date): Promise<RefundOutcome> {
  const [done] = await db
    .select({ id: paymentTransaction.id })
    .from(paymentTransaction)
    .where(
      and(
        eq(paymentTransaction.bookingId, row.id),
        eq(paymentTransaction.kind, "refund"),
        inArray(paymentTransaction.status, REFUND_MADE),
      ),
    )
    .limit(1);
  if (done) {
    // Refunded before, but the booking was not marked (a crash between the two): mark it now.
    await markRefunded(db, row.id, now);
    return { outcome: "already" };
  }

  const [capture] = await db
    .select()
    .from(paymentTransaction)
    .where(
      and(
        eq(paymentTransaction.bookingId, row.id),
        eq(paymentTransaction.kind, "capture"),
        isNotNull(paymentTransaction.captureId),
        inArray(paymentTransaction.status, [
          "COMPLETED",
          "PENDING",
          "PARTIALLY_REFUNDED",
          "REFUNDED",
        ]),
      ),
    )
    .orderBy(desc(paymentTransaction.createdAt))
    .limit(1);
  const providerName = capture?.provider ?? row.paymentProvider ?? "paypal";
  const requestId = `refund-${row.id}`;
  const base = {
    bookingId: row.id,
    kind: "refund" as const,
    provider: providerName,
    orderId: capture?.orderId ?? row.paymentOrderId,
    requestId,
    createdAt: now,
  };
  const fail = async (
    reason: string,
    record: { status: string; issue?: string | null; debugId?: string | null; raw?: unknown },
  ): Promise<RefundOutcome> => {
    await db
      .insert(paymentTransaction)
      .values({ ...base, captureId: capture?.captureId ?? null, ...record });
    log.warn(
      { code: "refund_failed", bookingId: row.id, issue: record.issue ?? record.status },
      "refund: not made",
    );
    return { outcome: "failed", reason };
  };

  const provider = refundProvider(providerName);
  if (typeof provider === "string") return fail(provider, { status: "NOT_CONFIGURED" });
  // A simulated booking seeded as demo data has no capture: the simulated provider refunds it anyway.
  const captureId =
    capture?.captureId ??
    (providerName === "simulated" ? `SIMCAP${row.id.replaceAll("-", "").toUpperCase()}` : null);
  if (!captureId)
    return fail("No capture is recorded for this booking: refund it in PayPal by hand", {
      status: "NO_CAPTURE",
    });

  let refund: PayPalRefund;
  try {
    refund = await provider.refundCapture(captureId, {
      requestId,
      noteToPayer: REFUND_NOTE,
      // The simulated provider may not hold the capture (it keeps orders in memory): say how much.
      ...(provider.name === "simulated"
        ? { amountPence: capture?.amountPence ?? row.pricePence }
        : {}),
    });
  } catch (error) {
    if (error instanceof PayPalError) {
      const record = {
        status: error.name,
        issue: error.issue ?? null,
        debugId: error.debugId ?? null,
        raw: {
          name: error.name,
          status: error.status,
          issue: error.issue,
          description: error.description,
          debug_id: error.debugId,
        },
      };
      if (error.issue === "CAPTURE_FULLY_REFUNDED") {
        // The money is back already (refunded at PayPal by hand, say): record it and mark the booking.
        await db.insert(paymentTransaction).values({ ...base, captureId, ...record });
        await markRefunded(db, row.id, now);
        return { outcome: "already" };
      }
      return fail(error.issue ?? error.name, record);
    }
    if (error instanceof PayPalNetworkError) {
      // PayPal may have made it: the same request id next time gets that refund, not a second one.
      return fail("No response from PayPal", { status: "NO_RESPONSE" });
    }
    log.error({ err: error, code: "refund_error", bookingId: row.id }, "refund: unexpected error");
    return fail("Unexpected error", { status: "ERROR" });
  }

  await db.transaction(async (tx) => {
    // One completed refund per booking (a unique index): a concurrent run's row wins, this one is dropped.
    await tx
      .insert(paymentTransaction)
      .values({
        ...base,
        captureId,
        status: refund.status,
        amountPence: refund.amountPence,
        raw: refund,
      })
      .onConflictDoNothing();
    if (refund.status === "COMPLETED" || refund.status === "PENDING") {
      await markRefunded(tx, row.id, now);
    }
  });
  if (refund.status === "COMPLETED" || refund.status === "PENDING") return { outcome: "refunded" };
  return { outcome: "failed", reason: `Refund ${refund.status}` };
}

export interface RefundSummary {
  /** paid bookings of the cancelled event now refunded */
  refunded: number;
  /**
   * of those, refunds PayPal accepted but has not finished (PENDING, usually an eCheck that has
   * not cleared); PayPal completes them by itself, and we do not hear when (no webhooks)
   */
  pendingAtPayPal: number;
  /** when the first of those was accepted */
  pendingSince: Date | null;
  /** paid bookings still to refund, with the last failure of each (if one was tried) */
  outstanding: number;
  failures: RefundFailure[];
  /** bookings that became active after the event was cancelled (a payment already on its way) */
  activeAfterCancel: number;
}

/** Where an event's refunds stand, for its page. */
export async function refundSummary(db: Db, eventId: string): Promise<RefundSummary> {
  const [counts] = await db
    .select({
      refunded: sql<number>`count(*) filter (where ${booking.paymentStatus} = 'refunded')`.mapWith(
        Number,
      ),
      outstanding:
        sql<number>`count(*) filter (where ${booking.status} = 'cancelled' and ${booking.paymentStatus} in ('paid', 'pending'))`.mapWith(
          Number,
        ),
      active:
        sql<number>`count(*) filter (where ${booking.status} in ('held', 'awaiting_payment', 'confirmed') and ${event.status} = 'cancelled')`.mapWith(
          Number,
        ),
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .where(eq(booking.eventId, eventId));
  const failures: RefundFailure[] = [];
  if ((counts?.outstanding ?? 0) > 0) {
    const rows = await db
      .select({
        reference: booking.reference,
        status: paymentTransaction.status,
        issue: paymentTransaction.issue,
      })
      .from(booking)
      .innerJoin(
        paymentTransaction,
        and(eq(paymentTransaction.bookingId, booking.id), eq(paymentTransaction.kind, "refund")),
      )
      .where(stillToRefund(eventId))
      .orderBy(asc(booking.reference), desc(paymentTransaction.createdAt));
    for (const row of rows) {
      if (failures.some((failure) => failure.reference === row.reference)) continue;
      failures.push({ reference: row.reference, reason: row.issue ?? row.status });
    }
  }
  const [pending] = await db
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      since: sql<Date | null>`min(${paymentTransaction.createdAt})`.mapWith(
        (value: string | Date | null) => (value === null ? null : new Date(value)),
      ),
    })
    .from(paymentTransaction)
    .innerJoin(booking, eq(booking.id, paymentTransaction.bookingId))
    .where(
      and(
        eq(booking.eventId, eventId),
        eq(paymentTransaction.kind, "refund"),
        eq(paymentTransaction.status, "PENDING"),
      ),
    );
  return {
    refunded: counts?.refunded ?? 0,
    pendingAtPayPal: pending?.count ?? 0,
    pendingSince: pending?.since ?? null,
    outstanding: counts?.outstanding ?? 0,
    failures,
    activeAfterCancel: counts?.active ?? 0,
  };
}
