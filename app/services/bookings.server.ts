import crypto from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import {
  booking,
  consent,
  event,
  paymentTransaction,
  profile,
  screeningProduct,
  testResult,
  user,
} from "#app/db/schema";
import { organisation } from "#app/content/organisation";
import { generateBookingReference, normaliseBookingReference } from "#app/domain/booking-reference";
import { bookingCalendar, slotEndTime } from "#app/domain/calendar";
import { CONSENT_WORDING_VERSION, type ConsentForm } from "#app/domain/consent";
import { formatLongDate } from "#app/domain/date-labels";
import {
  bookingEligibility,
  needsNhsNumber,
  NHS_NUMBER_LAB,
  type EligibilityProblem,
} from "#app/domain/eligibility";
import { availableSlots, cardState, eventEnd, joinAddress } from "#app/domain/events";
import { londonInstant } from "#app/domain/london-time";
import { formatPounds, isPaidEvent } from "#app/domain/pricing";
import { noteDatabaseError } from "#app/db/health.server";
import { enqueueEmail, type OutgoingEmail } from "./email.server";
import { refundCancelledEvent, retryDueRefunds } from "./admin-events.server";
import { eventsChanged, isEventId, placesTaken } from "./events.server";
import { log, logError } from "./log.server";
import { paymentProvider, type PaymentProvider } from "./payments.server";
import {
  approvalUrl,
  PayPalError,
  PayPalNetworkError,
  type PayPalCapture,
  type PayPalOrder,
} from "./paypal.server";

/**
 * Booking: hold a place, consent, pay, confirm. Capacity is decided by the database inside one
 * transaction per change: each one locks the event's row (`SELECT … FOR UPDATE`) before counting,
 * so changes to one event's places happen one after another and the last place goes to exactly
 * one person. A place is taken by a confirmed booking (counted in `event.booked_spaces`) or by a
 * hold (`held`, `awaiting_payment`) until its `hold_expires_at`; an expired hold frees its place at
 * that instant, and the worker tidies its status later. Locks are always taken event first, then
 * booking, so two transactions never wait for each other in a circle.
 *
 * Every function takes the database (or a transaction) first and the clock last, so tests control time.
 */

export type Booking = typeof booking.$inferSelect;
export type BookingStatus = Booking["status"];
export type PaymentStatus = Booking["paymentStatus"];
type EventRow = typeof event.$inferSelect;

/** What to bring and how to prepare; in the confirmation e-mail and on the booking pages. */
export const WHAT_TO_BRING = [
  "Your booking reference (it is in this e-mail).",
  "Wear a shirt with sleeves that roll up easily: the nurse takes a small sample from your arm.",
  "You do not need to fast: eat and drink as usual.",
] as const;

const HOLD_STATUSES = ["held", "awaiting_payment"] as const;

function holdMs() {
  return config().HOLD_MINUTES * 60_000;
}

const hhmm = (time: string) => time.slice(0, 5);

function isHoldLive(row: Pick<Booking, "holdExpiresAt">, now: Date): boolean {
  return row.holdExpiresAt !== null && row.holdExpiresAt.getTime() > now.getTime();
}

async function lockEvent(tx: Db, eventId: string): Promise<EventRow | undefined> {
  const [row] = await tx.select().from(event).where(eq(event.id, eventId)).for("update");
  return row;
}

async function lockBooking(tx: Db, bookingId: string): Promise<Booking> {
  const [row] = await tx.select().from(booking).where(eq(booking.id, bookingId)).for("update");
  if (!row) throw new Error("booking vanished while locked");
  return row;
}

type Taken = Awaited<ReturnType<typeof placesTaken>>;

/**
 * Whether a place at this slot can be taken, given the places taken: the event must be bookable
 * (not passed, not closed by the 24-hour rule, places left once holds are counted) and the slot
 * one of the event's, still ahead, with a place left.
 */
function problemWith(
  row: EventRow,
  taken: Taken,
  slotTime: string,
  now: Date,
): "event-unavailable" | "slot-unavailable" | null {
  const timing = {
    eventDate: row.eventDate,
    startTime: hhmm(row.startTime),
    endTime: hhmm(row.endTime),
  };
  const state = cardState(
    {
      ...timing,
      totalSpaces: row.totalSpaces,
      bookedSpaces: row.bookedSpaces + taken.held,
      exclusiveFor: row.exclusiveFor,
    },
    now,
  );
  if (state !== "bookable") return "event-unavailable";
  const open = availableSlots(
    { ...timing, sessionDuration: row.sessionDuration, placesPerSlot: row.placesPerSlot },
    taken.perSlot,
    now,
  );
  return open.includes(slotTime) ? null : "slot-unavailable";
}

/** `problemWith` on a fresh count. Call it with the event's row locked. */
async function placeProblem(
  tx: Db,
  row: EventRow,
  slotTime: string,
  now: Date,
  exceptBookingId?: string,
) {
  return problemWith(row, await placesTaken(tx, row.id, now, { exceptBookingId }), slotTime, now);
}

/* ---------------------------------------------------------------------------------------------- */
/* Holding a place                                                                                */

/** The last task queued for each event in this process; tasks for one event run one at a time. */
const turns = new Map<string, Promise<unknown>>();

function takeTurn<T>(eventId: string, task: () => Promise<T>): Promise<T> {
  const previous = turns.get(eventId) ?? Promise.resolve();
  const run = previous.then(task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  turns.set(eventId, settled);
  void settled.then(() => {
    if (turns.get(eventId) === settled) turns.delete(eventId);
  });
  return run;
}

export type HoldRefusal =
  /** no such event */
  | "event-not-found"
  /** the event has passed, closed (24-hour rule) or is full */
  | "event-unavailable"
  /** that time is taken, has started, or is not a time of this event */
  | "slot-unavailable"
  /** this person already has a confirmed booking, or one awaiting payment, for this event */
  | "already-booked"
  /** outside 40 to 80 on the day, or the laboratory needs an NHS number the profile lacks */
  | "not-eligible";

export const HOLD_REFUSAL_MESSAGES: Record<HoldRefusal, string> = {
  "event-not-found": "Event not found",
  "event-unavailable": "This event is no longer taking bookings.",
  "slot-unavailable": "That time is no longer available",
  "already-booked": "You already have a booking for this event.",
  "not-eligible": "You cannot book this event.",
};

export interface HeldBooking {
  id: string;
  reference: string;
  eventId: string;
  slotTime: string;
  status: BookingStatus;
  holdExpiresAt: Date;
  pricePence: number;
  paymentRequired: boolean;
}

export type HoldResult =
  | { ok: true; booking: HeldBooking }
  | { ok: false; reason: Exclude<HoldRefusal, "not-eligible"> }
  | { ok: false; reason: "not-eligible"; problems: EligibilityProblem[] };

function heldBooking(row: Booking): HeldBooking {
  return {
    id: row.id,
    reference: row.reference,
    eventId: row.eventId,
    slotTime: row.slotTime,
    status: row.status,
    holdExpiresAt: row.holdExpiresAt!,
    pricePence: row.pricePence,
    paymentRequired: row.paymentRequired,
  };
}

/**
 * Holds a place at one time of an event for HOLD_MINUTES while the person consents (and pays).
 * A person has at most one active booking per event: a live hold of theirs is moved to the new
 * time (or kept, and its time renewed); an expired one is marked expired first.
 */
export async function holdPlace(
  db: Db,
  input: { eventId: string; userId: string; slotTime: string },
  now = new Date(),
): Promise<HoldResult> {
  if (!isEventId(input.eventId)) return { ok: false, reason: "event-not-found" };
  if (!/^\d{2}:\d{2}$/.test(input.slotTime)) return { ok: false, reason: "slot-unavailable" };
  // The event, its price and the person's age and NHS number, in one query.
  const [found] = await db
    .select({
      event,
      productPrice: screeningProduct.pricePence,
      dateOfBirth: sql<
        string | null
      >`(select ${profile.dateOfBirth}::text from ${profile} where ${profile.userId} = ${input.userId})`,
      nhsNumber: sql<
        string | null
      >`(select ${profile.nhsNumber} from ${profile} where ${profile.userId} = ${input.userId})`,
    })
    .from(event)
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .where(eq(event.id, input.eventId));
  if (!found || found.event.status !== "published") return { ok: false, reason: "event-not-found" };
  const eligibility = bookingEligibility(found, found.event);
  if (!eligibility.eligible)
    return { ok: false, reason: "not-eligible", problems: eligibility.problems };

  // A quick refusal without the lock: once the event or the slot is full, everyone else is
  // answered with one read. (A refusal read at an instant is true at that instant; every place
  // given still goes through the locked count.)
  const quickRefusal = async () => {
    const seen = await placesTaken(db, found.event.id, now, { userId: input.userId });
    return seen.mine ? null : problemWith(found.event, seen, input.slotTime, now);
  };
  const early = await quickRefusal();
  if (early) return { ok: false, reason: early };

  // Holds for one event take turns within this process, so a crowd waits here rather than on
  // the database's row lock, where each waiter would keep a pooled connection from every other
  // request. Between processes the row lock still decides.
  const result = await takeTurn(found.event.id, async (): Promise<HoldResult> => {
    // Places may have gone while this request waited its turn.
    const late = await quickRefusal();
    if (late) return { ok: false, reason: late };
    return db.transaction(async (tx): Promise<HoldResult> => {
      const row = await lockEvent(tx, input.eventId);
      // Staff may have unpublished or cancelled it while this request waited.
      if (!row || row.status !== "published") return { ok: false, reason: "event-not-found" };

      const [mine] = await tx
        .select()
        .from(booking)
        .where(
          and(
            eq(booking.eventId, row.id),
            eq(booking.userId, input.userId),
            inArray(booking.status, ["held", "awaiting_payment", "confirmed"]),
          ),
        )
        .for("update");
      let moving: Booking | undefined;
      if (mine) {
        const live = isHoldLive(mine, now);
        if (mine.status === "confirmed") return { ok: false, reason: "already-booked" };
        // An order may be on its way through PayPal: only the reconciler may let that one go.
        if (mine.status === "awaiting_payment" && (live || mine.paymentOrderId))
          return { ok: false, reason: "already-booked" };
        if (mine.status === "held" && live) moving = mine;
        else
          await tx
            .update(booking)
            .set({ status: "expired", updatedAt: now })
            .where(eq(booking.id, mine.id));
      }

      const problem = await placeProblem(tx, row, input.slotTime, now, moving?.id);
      if (problem) return { ok: false, reason: problem };
      const holdExpiresAt = new Date(now.getTime() + holdMs());

      if (moving) {
        const [moved] = await tx
          .update(booking)
          .set({ slotTime: input.slotTime, holdExpiresAt, updatedAt: now })
          .where(eq(booking.id, moving.id))
          .returning();
        return { ok: true, booking: heldBooking(moved!) };
      }

      const price = row.pricePence ?? found.productPrice;
      const paid = isPaidEvent({ price, payment_required: row.paymentRequired });
      for (let attempt = 0; attempt < 5; attempt++) {
        const [created] = await tx
          .insert(booking)
          .values({
            reference: generateBookingReference(),
            eventId: row.id,
            userId: input.userId,
            slotTime: input.slotTime,
            status: "held",
            holdExpiresAt,
            pricePence: paid ? price : 0,
            paymentRequired: paid,
            paymentStatus: paid ? "unpaid" : "not_required",
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({ target: booking.reference })
          .returning();
        if (created) return { ok: true, booking: heldBooking(created) };
      }
      throw new Error("Could not find an unused booking reference");
    });
  });
  if (result.ok) eventsChanged();
  return result;
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading a booking                                                                              */

export interface BookingView {
  reference: string;
  status: BookingStatus;
  paymentStatus: PaymentStatus;
  eventId: string;
  eventName: string;
  /** London date, "yyyy-MM-dd" */
  eventDate: string;
  eventDescription: string | null;
  productName: string;
  /** the appointment, London "HH:mm" */
  slotStart: string;
  slotEnd: string;
  /** address_line_1, address_line_2, city, postcode, country: the non-empty ones */
  addressLines: string[];
  /** the same, joined with ", " */
  address: string;
  lab: string | null;
  /** the laboratory rejects samples without a valid NHS number (ESNEFT) */
  needsNhsNumber: boolean;
  /** what the person pays, in pence (0 when free) */
  pricePence: number;
  paymentRequired: boolean;
  holdExpiresAt: Date | null;
  /** held or awaiting payment, and the hold has not run out */
  holdActive: boolean;
  confirmedAt: Date | null;
  whatToBring: readonly string[];
}

const viewColumns = {
  booking,
  event,
  productName: screeningProduct.name,
};

type ViewRow = { booking: Booking; event: EventRow; productName: string };

function toBookingView({ booking: row, event: ev, productName }: ViewRow, now: Date): BookingView {
  const addressLines = [ev.addressLine1, ev.addressLine2, ev.city, ev.postcode, ev.country].filter(
    (line): line is string => Boolean(line && line.trim()),
  );
  return {
    reference: row.reference,
    status: row.status,
    paymentStatus: row.paymentStatus,
    eventId: ev.id,
    eventName: ev.name,
    eventDate: ev.eventDate,
    eventDescription: ev.description,
    productName,
    slotStart: row.slotTime,
    slotEnd: slotEndTime(row.slotTime, ev.sessionDuration),
    addressLines,
    address: joinAddress(addressLines),
    lab: ev.labName,
    needsNhsNumber: needsNhsNumber(ev.labName),
    pricePence: row.pricePence,
    paymentRequired: row.paymentRequired,
    holdExpiresAt: row.holdExpiresAt,
    holdActive: (HOLD_STATUSES as readonly string[]).includes(row.status) && isHoldLive(row, now),
    confirmedAt: row.confirmedAt,
    whatToBring: WHAT_TO_BRING,
  };
}

function selectBookingViews(db: Db) {
  return db
    .select(viewColumns)
    .from(booking)
    .innerJoin(event, eq(booking.eventId, event.id))
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id));
}

/**
 * One of the signed-in person's bookings by its reference (typed in any form), or null, also when
 * the reference belongs to somebody else, so that pages answer 404 either way.
 */
export async function findBookingForUser(
  db: Db,
  input: { userId: string; reference: string },
  now = new Date(),
): Promise<BookingView | null> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return null;
  const [row] = await selectBookingViews(db).where(
    and(eq(booking.reference, reference), eq(booking.userId, input.userId)),
  );
  return row ? toBookingView(row, now) : null;
}

/** The booking a payment order belongs to, if it is this person's (the return page from PayPal). */
export async function findBookingByOrderForUser(
  db: Db,
  input: { userId: string; orderId: string },
  now = new Date(),
): Promise<BookingView | null> {
  const found = await bookingForOrder(db, input.orderId);
  if (!found || found.userId !== input.userId) return null;
  const [row] = await selectBookingViews(db).where(eq(booking.id, found.id));
  return row ? toBookingView(row, now) : null;
}

/* ---------------------------------------------------------------------------------------------- */
/* Confirmation                                                                                   */

function siteHost(): string {
  try {
    return new URL(config().publicBaseUrl).hostname || "localhost";
  } catch {
    return "localhost";
  }
}

/** The confirmation e-mail: where, when, what to bring, how to change. No consent answers, no health data. */
function confirmationEmail(details: {
  to: string;
  firstName: string;
  view: BookingView;
  event: EventRow;
  now: Date;
}): OutgoingEmail {
  const { view, event: ev } = details;
  const { booking: helpline } = organisation.phones;
  const paid =
    view.paymentRequired && view.pricePence > 0
      ? `Paid: ${formatPounds(view.pricePence)}`
      : "Price: free of charge";
  const lines = [
    `Hello ${details.firstName},`,
    "",
    "Your screening booking is confirmed.",
    "",
    `Booking reference: ${view.reference}`,
    `Event: ${view.eventName}`,
    `Date: ${formatLongDate(view.eventDate)}`,
    `Time: ${view.slotStart} to ${view.slotEnd} (UK time). Please arrive a few minutes early.`,
    `Address: ${view.address}`,
    paid,
    "",
    "Before you come",
    ...WHAT_TO_BRING.map((item) => `- ${item}`),
    "",
  ];
  if (view.needsNhsNumber) {
    lines.push(
      `Your NHS number: the laboratory for this event (${NHS_NUMBER_LAB}) rejects a sample without your correct 10-digit NHS number. Please check that your profile has it; if it does not, call us before the day.`,
      "",
    );
  }
  lines.push(
    "Changing or cancelling",
    "You can change or cancel free of charge more than 48 hours before your appointment. A same-day cancellation is charged in full.",
    `To change or cancel, call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}, quoting your booking reference.`,
    "",
    "A calendar entry for your appointment is attached.",
    "",
    organisation.name,
  );
  const ics = bookingCalendar({
    reference: view.reference,
    eventName: view.eventName,
    eventDate: view.eventDate,
    slotTime: view.slotStart,
    sessionMinutes: ev.sessionDuration,
    location: view.address,
    latitude: ev.latitude,
    longitude: ev.longitude,
    uidHost: siteHost(),
    stamp: details.now,
  });
  return {
    to: details.to,
    subject: `Your ${organisation.shortName} screening booking ${view.reference}`,
    text: lines.join("\n"),
    attachments: [
      {
        filename: `${organisation.shortName.toLowerCase()}-booking-${view.reference}.ics`,
        contentType: "text/calendar; charset=utf-8; method=PUBLISH",
        content: ics,
      },
    ],
  };
}

/**
 * Confirms a locked booking of a locked event: counts its place in `booked_spaces` and queues the
 * confirmation e-mail, in the caller's transaction.
 */
async function confirmLocked(
  tx: Db,
  ev: EventRow,
  row: Booking,
  paymentStatus: "not_required" | "paid",
  now: Date,
) {
  const [confirmed] = await tx
    .update(booking)
    .set({ status: "confirmed", paymentStatus, confirmedAt: now, updatedAt: now })
    .where(eq(booking.id, row.id))
    .returning();
  await tx
    .update(event)
    .set({ bookedSpaces: sql`${event.bookedSpaces} + 1` })
    .where(eq(event.id, ev.id));
  const [person] = await tx
    .select({ email: user.email, name: user.name, firstName: profile.firstName })
    .from(user)
    .leftJoin(profile, eq(profile.userId, user.id))
    .where(eq(user.id, row.userId));
  const [product] = await tx
    .select({ name: screeningProduct.name })
    .from(screeningProduct)
    .where(eq(screeningProduct.id, ev.productId));
  if (!person) throw new Error("booking without a user");
  const view = toBookingView(
    { booking: confirmed!, event: ev, productName: product?.name ?? "" },
    now,
  );
  await enqueueEmail(
    tx,
    confirmationEmail({
      to: person.email,
      firstName: person.firstName ?? person.name,
      view,
      event: ev,
      now,
    }),
  );
}

/* ---------------------------------------------------------------------------------------------- */
/* Consent                                                                                        */

export type ConsentResult =
  /** a free event: booked ("Successfully confirmed your booking!") */
  | { next: "confirmed"; reference: string }
  /** a paid event: on to /checkout */
  | { next: "checkout"; reference: string }
  /** the hold ran out and the place has gone: choose another time */
  | { next: "expired"; reference: string }
  /** no such booking for this person */
  | { next: "not-found" };

/**
 * Stores the consent (with the version of the wording and the time) and, in the same transaction,
 * confirms a free booking at once, or moves a paid one on to payment. An expired hold is renewed
 * here if its place is still free.
 */
export async function submitConsent(
  db: Db,
  input: { userId: string; reference: string; form: ConsentForm },
  now = new Date(),
): Promise<ConsentResult> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return { next: "not-found" };
  const [found] = await db
    .select({ id: booking.id, eventId: booking.eventId })
    .from(booking)
    .where(and(eq(booking.reference, reference), eq(booking.userId, input.userId)));
  if (!found) return { next: "not-found" };

  let changed = false;
  const result = await db.transaction(async (tx): Promise<ConsentResult> => {
    const ev = (await lockEvent(tx, found.eventId))!;
    const row = await lockBooking(tx, found.id);
    if (row.status === "confirmed") return { next: "confirmed", reference };
    if (row.status === "expired" || row.status === "cancelled")
      return { next: "expired", reference };

    let holdExpiresAt = row.holdExpiresAt;
    if (!isHoldLive(row, now) && row.paymentStatus !== "pending") {
      if (await placeProblem(tx, ev, row.slotTime, now, row.id)) {
        // With an order at PayPal, the reconciler decides (the payer may have approved it).
        if (!row.paymentOrderId) {
          await tx
            .update(booking)
            .set({ status: "expired", updatedAt: now })
            .where(eq(booking.id, row.id));
          changed = true;
        }
        return { next: "expired", reference };
      }
      holdExpiresAt = new Date(now.getTime() + holdMs());
      changed = true;
    }

    await tx.insert(consent).values({
      bookingId: row.id,
      userId: row.userId,
      testDate: ev.eventDate,
      answers: input.form.answers,
      gpConsent: input.form.gpConsent,
      wordingVersion: CONSENT_WORDING_VERSION,
      agreedAt: now,
    });

    if (!row.paymentRequired || row.pricePence <= 0) {
      await confirmLocked(tx, ev, { ...row, holdExpiresAt }, "not_required", now);
      changed = true;
      return { next: "confirmed", reference };
    }
    if (row.status === "held") {
      // The payment page gets a fresh HOLD_MINUTES.
      holdExpiresAt = new Date(now.getTime() + holdMs());
      changed = true;
    }
    await tx
      .update(booking)
      .set({ status: "awaiting_payment", holdExpiresAt, updatedAt: now })
      .where(eq(booking.id, row.id));
    return { next: "checkout", reference };
  });
  if (changed) eventsChanged();
  return result;
}

/**
 * Consent given on /test-consent: for the signed-in person and a test date, without a booking.
 */
export async function recordConsent(
  db: Db,
  input: { userId: string; testDate: string; form: ConsentForm },
  now = new Date(),
): Promise<{ id: string }> {
  const [row] = await db
    .insert(consent)
    .values({
      userId: input.userId,
      testDate: input.testDate,
      answers: input.form.answers,
      gpConsent: input.form.gpConsent,
      wordingVersion: CONSENT_WORDING_VERSION,
      agreedAt: now,
    })
    .returning({ id: consent.id });
  return row!;
}

/* ---------------------------------------------------------------------------------------------- */
/* Payment                                                                                        */

/** The spec's payment messages. */
export const PAYMENT_MESSAGES = {
  couldNotStart: (reason: string) => `Could not initiate PayPal Checkout...${reason}`,
  noResponse: "No response from PayPal",
  eventCancelled:
    "This event has been cancelled, so your booking could not be made. Your payment is being refunded in full.",
  declined:
    "Your payment was not completed. Please try again, or choose another card or payment method.",
  failed:
    "Sorry, your transaction could not be processed. Please try again later or with a different payment card.",
  pending: (status: string, id: string) =>
    `Transaction ${status}: ${id}. Please wait while we process your payment.`,
} as const;

async function recordTransaction(
  db: Db,
  values: Omit<typeof paymentTransaction.$inferInsert, "id" | "createdAt"> & { createdAt: Date },
) {
  await db
    .insert(paymentTransaction)
    .values(values)
    .onConflictDoNothing({
      target: paymentTransaction.captureId,
      where: sql`${paymentTransaction.kind} = 'capture'`,
    });
}

function errorRecord(error: PayPalError) {
  return {
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
}

/** The booking a payment order was made for: its current order, or an earlier one of it. */
async function bookingForOrder(db: Db, orderId: string): Promise<Booking | undefined> {
  if (!orderId || orderId.length > 64) return undefined;
  const [current] = await db.select().from(booking).where(eq(booking.paymentOrderId, orderId));
  if (current) return current;
  const [earlier] = await db
    .select({ bookingId: paymentTransaction.bookingId })
    .from(paymentTransaction)
    .where(and(eq(paymentTransaction.orderId, orderId), eq(paymentTransaction.kind, "create")))
    .limit(1);
  if (!earlier) return undefined;
  const [row] = await db.select().from(booking).where(eq(booking.id, earlier.bookingId));
  return row;
}

/** DD/MM/YYYY, as the spec's order description has it. */
function ukDate(date: string): string {
  const [year, month, day] = date.split("-");
  return `${day}/${month}/${year}`;
}

export type StartPaymentResult =
  /** send the browser to `approvalUrl` (PayPal, or the simulated page), or give `orderId` to the PayPal buttons */
  | {
      outcome: "redirect";
      orderId: string;
      approvalUrl: string;
      provider: PaymentProvider["name"];
    }
  /** already confirmed: nothing to pay */
  | { outcome: "confirmed"; reference: string }
  /** a capture is pending at PayPal: wait */
  | { outcome: "pending"; reference: string }
  /** consent first */
  | { outcome: "consent-required"; reference: string }
  /** the hold ran out and the place has gone */
  | { outcome: "expired"; reference: string }
  /** "Could not initiate PayPal Checkout...{reason}" */
  | { outcome: "error"; message: string }
  | { outcome: "not-found" };

/**
 * Creates a payment order for a booking awaiting payment, priced from the booking (never from
 * the browser), described as the spec says ("{product}, DD/MM/YYYY, event {id}").
 */
export async function startPayment(
  db: Db,
  input: { userId: string; reference: string; returnUrl: string; cancelUrl: string },
  now = new Date(),
): Promise<StartPaymentResult> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return { outcome: "not-found" };
  const [found] = await selectBookingViews(db).where(
    and(eq(booking.reference, reference), eq(booking.userId, input.userId)),
  );
  if (!found) return { outcome: "not-found" };
  const row = found.booking;
  if (row.status === "confirmed") return { outcome: "confirmed", reference };
  if (row.status === "held") return { outcome: "consent-required", reference };
  if (row.status !== "awaiting_payment") return { outcome: "expired", reference };
  if (row.paymentStatus === "pending") return { outcome: "pending", reference };

  if (!isHoldLive(row, now)) {
    const renewed = await db.transaction(async (tx) => {
      const ev = (await lockEvent(tx, row.eventId))!;
      const locked = await lockBooking(tx, row.id);
      if (locked.status !== "awaiting_payment") return false;
      if (isHoldLive(locked, now)) return true;
      if (await placeProblem(tx, ev, locked.slotTime, now, locked.id)) return false;
      await tx
        .update(booking)
        .set({ holdExpiresAt: new Date(now.getTime() + holdMs()), updatedAt: now })
        .where(eq(booking.id, locked.id));
      return true;
    });
    eventsChanged();
    if (!renewed) return { outcome: "expired", reference };
  }

  const provider = paymentProvider();
  const requestId = `create-${row.id}-${crypto.randomUUID()}`;
  const order = {
    referenceId: row.reference,
    description: `${found.productName}, ${ukDate(found.event.eventDate)}, event ${found.event.id}`,
    amountPence: row.pricePence,
    currency: "GBP" as const,
    returnUrl: input.returnUrl,
    cancelUrl: input.cancelUrl,
    requestId,
    brandName: organisation.name,
  };
  let created: PayPalOrder;
  try {
    try {
      created = await provider.createOrder(order);
    } catch (error) {
      // No answer: the order may exist. The same request id gets it back instead of a second one.
      if (!(error instanceof PayPalNetworkError)) throw error;
      created = await provider.createOrder(order);
    }
  } catch (error) {
    if (error instanceof PayPalError) {
      await recordTransaction(db, {
        bookingId: row.id,
        kind: "create",
        provider: provider.name,
        requestId,
        amountPence: row.pricePence,
        createdAt: now,
        ...errorRecord(error),
      });
      log.warn(
        { code: "payment_create_failed", issue: error.issue, debugId: error.debugId },
        "payment: could not create an order",
      );
      return { outcome: "error", message: PAYMENT_MESSAGES.couldNotStart(error.message) };
    }
    if (error instanceof PayPalNetworkError)
      return { outcome: "error", message: PAYMENT_MESSAGES.couldNotStart(error.message) };
    throw error;
  }
  const link = approvalUrl(created);
  await db.transaction(async (tx) => {
    await recordTransaction(tx, {
      bookingId: row.id,
      kind: "create",
      provider: provider.name,
      orderId: created.id,
      status: created.status,
      requestId,
      amountPence: created.amountPence ?? row.pricePence,
      raw: created,
      createdAt: now,
    });
    await tx
      .update(booking)
      .set({
        paymentOrderId: created.id,
        paymentProvider: provider.name,
        captureRequestId: null,
        updatedAt: now,
      })
      .where(and(eq(booking.id, row.id), eq(booking.status, "awaiting_payment")));
  });
  if (!link) {
    return {
      outcome: "error",
      message: PAYMENT_MESSAGES.couldNotStart("Unexpected error occurred, please try again."),
    };
  }
  return { outcome: "redirect", orderId: created.id, approvalUrl: link, provider: provider.name };
}

export type CaptureResult =
  /** paid and booked ("paid by card"): on to the success page */
  | { outcome: "confirmed"; reference: string }
  /** PayPal is holding the capture for review: the place is kept until it decides */
  | { outcome: "pending"; reference: string; message: string }
  /** INSTRUMENT_DECLINED or PAYER_ACTION_REQUIRED (or not approved yet): the hold is kept; start again */
  | { outcome: "recoverable"; reference: string; message: string }
  /** "Non-recoverable error: {description} ({debug id})": no booking, the place is released */
  | { outcome: "failed"; reference: string; message: string; debugId: string | null }
  /** the hold ran out and the place has gone; no money was taken */
  | { outcome: "expired"; reference: string }
  /** no answer from PayPal: the booking waits, and the reconciler settles it */
  | { outcome: "no-response"; reference: string; message: string }
  | { outcome: "not-found" };

/**
 * Takes the money for an approved order and confirms the booking, exactly once however many times
 * (or however concurrently) it is called: the booking's row lock, the stored PayPal-Request-Id
 * (replayed by PayPal) and a unique capture id see to that. `userId` is checked when given (the
 * return page); the worker calls it without.
 */
export async function capturePayment(
  db: Db,
  input: { userId?: string; orderId: string },
  now = new Date(),
): Promise<CaptureResult> {
  const found = await bookingForOrder(db, input.orderId);
  if (!found || (input.userId !== undefined && found.userId !== input.userId))
    return { outcome: "not-found" };
  const reference = found.reference;
  if (found.status === "confirmed") return { outcome: "confirmed", reference };
  if (found.status === "held") return { outcome: "not-found" };
  if (found.status !== "awaiting_payment") return { outcome: "expired", reference };
  const provider = paymentProvider();

  // A capture already pending at PayPal: look it up instead of capturing again.
  if (found.paymentStatus === "pending") {
    return lookUpAndSettle(db, provider, found, input.orderId, now);
  }

  let changed = false;
  const prepared = await db.transaction(async (tx) => {
    const ev = (await lockEvent(tx, found.eventId))!;
    const row = await lockBooking(tx, found.id);
    if (row.status === "confirmed") return { done: { outcome: "confirmed", reference } as const };
    if (row.status !== "awaiting_payment")
      return { done: { outcome: "expired", reference } as const };
    let holdExpiresAt = row.holdExpiresAt;
    if (!isHoldLive(row, now) && row.paymentStatus !== "pending") {
      // The hold ran out while the payer was at PayPal. Take the money only if the place is still free.
      if (await placeProblem(tx, ev, row.slotTime, now, row.id)) {
        await tx
          .update(booking)
          .set({ status: "expired", updatedAt: now })
          .where(eq(booking.id, row.id));
        changed = true;
        return { done: { outcome: "expired", reference } as const };
      }
      holdExpiresAt = new Date(now.getTime() + holdMs());
      changed = true;
    }
    const sameOrder = row.paymentOrderId === input.orderId;
    // The same id for every attempt at this order until PayPal answers: a retry after no
    // response, or a concurrent call, is then replayed by PayPal rather than captured twice.
    const requestId =
      (sameOrder ? row.captureRequestId : null) ?? `capture-${row.id}-${crypto.randomUUID()}`;
    await tx
      .update(booking)
      .set({
        paymentOrderId: input.orderId,
        captureRequestId: requestId,
        holdExpiresAt,
        updatedAt: now,
      })
      .where(eq(booking.id, row.id));
    return { requestId };
  });
  if (changed) eventsChanged();
  if (prepared.done) return prepared.done;
  const requestId = prepared.requestId!;

  let order: PayPalOrder;
  try {
    order = await provider.captureOrder(input.orderId, { requestId });
  } catch (error) {
    if (error instanceof PayPalNetworkError) {
      log.warn({ code: "payment_no_response", bookingId: found.id }, "payment: no response");
      return { outcome: "no-response", reference, message: PAYMENT_MESSAGES.noResponse };
    }
    if (!(error instanceof PayPalError)) throw error;
    await recordTransaction(db, {
      bookingId: found.id,
      kind: "capture",
      provider: provider.name,
      orderId: input.orderId,
      requestId,
      createdAt: now,
      ...errorRecord(error),
    });
    if (error.issue === "ORDER_ALREADY_CAPTURED") {
      // Captured before (an earlier attempt whose answer we lost): use that capture.
      return lookUpAndSettle(db, provider, found, input.orderId, now);
    }
    if (error.status >= 500) {
      // PayPal failed on its side; whether it captured is unknown. Same request id next time.
      return { outcome: "no-response", reference, message: PAYMENT_MESSAGES.noResponse };
    }
    // PayPal answered: a new attempt needs a new request id.
    await db
      .update(booking)
      .set({ captureRequestId: null, updatedAt: now })
      .where(and(eq(booking.id, found.id), eq(booking.paymentOrderId, input.orderId)));
    if (error.recoverable || error.issue === "ORDER_NOT_APPROVED") {
      log.warn(
        { code: "payment_recoverable", issue: error.issue, debugId: error.debugId },
        "Recoverable Payment",
      );
      return { outcome: "recoverable", reference, message: PAYMENT_MESSAGES.declined };
    }
    log.error(
      { code: "payment_failed", issue: error.issue, debugId: error.debugId },
      "Non-recoverable Payment",
    );
    const released = await releaseAfterRefusal(db, found, input.orderId, now);
    if (released === "confirmed") return { outcome: "confirmed", reference };
    return { outcome: "failed", reference, message: error.message, debugId: error.debugId ?? null };
  }
  return settle(db, provider, found, order, { kind: "capture", requestId }, now);
}

/** Ends a booking whose payment PayPal refused for good, unless it was confirmed meanwhile. */
async function releaseAfterRefusal(
  db: Db,
  found: Booking,
  orderId: string,
  now: Date,
): Promise<"released" | "confirmed" | "unchanged"> {
  const outcome = await db.transaction(async (tx) => {
    await lockEvent(tx, found.eventId);
    const row = await lockBooking(tx, found.id);
    if (row.status === "confirmed") return "confirmed" as const;
    if (row.status !== "awaiting_payment" || row.paymentOrderId !== orderId)
      return "unchanged" as const;
    await tx
      .update(booking)
      .set({ status: "cancelled", cancelledAt: now, captureRequestId: null, updatedAt: now })
      .where(eq(booking.id, row.id));
    return "released" as const;
  });
  if (outcome === "released") eventsChanged();
  return outcome;
}

/** Reads the order from PayPal (after ORDER_ALREADY_CAPTURED, or for a pending capture) and acts on it. */
async function lookUpAndSettle(
  db: Db,
  provider: PaymentProvider,
  found: Booking,
  orderId: string,
  now: Date,
): Promise<CaptureResult> {
  let order: PayPalOrder;
  try {
    order = await provider.getOrder(orderId);
  } catch (error) {
    if (
      error instanceof PayPalNetworkError ||
      (error instanceof PayPalError && error.status >= 500)
    )
      return {
        outcome: "no-response",
        reference: found.reference,
        message: PAYMENT_MESSAGES.noResponse,
      };
    throw error;
  }
  return settle(db, provider, found, order, { kind: "reconcile", requestId: null }, now);
}

/**
 * Acts on an order PayPal has answered with: a COMPLETED capture confirms the booking ("paid by
 * card"); PENDING keeps the place; DECLINED or FAILED releases it. The capture is recorded once
 * (unique capture id), and the booking changes under its locks, so repeats do nothing.
 */
async function settle(
  db: Db,
  provider: PaymentProvider,
  found: Booking,
  order: PayPalOrder,
  how: { kind: "capture" | "reconcile"; requestId: string | null },
  now: Date,
): Promise<CaptureResult> {
  const reference = found.reference;
  const capture: PayPalCapture | undefined = order.capture;
  if (!capture) {
    // Not captured (yet): nothing to settle.
    return { outcome: "no-response", reference, message: PAYMENT_MESSAGES.noResponse };
  }
  let changed = false;
  let refundAfterwards = false;
  const result = await db.transaction(async (tx): Promise<CaptureResult> => {
    const ev = (await lockEvent(tx, found.eventId))!;
    const row = await lockBooking(tx, found.id);
    const record = {
      bookingId: row.id,
      provider: provider.name,
      orderId: order.id,
      captureId: capture.id,
      status: capture.status,
      issue: capture.statusReason ?? null,
      requestId: how.requestId,
      amountPence: capture.amountPence,
      raw: order,
      createdAt: now,
    };
    // The capture itself, once; a look-up that acted is recorded as a reconcile row as well.
    await recordTransaction(tx, { ...record, kind: "capture" });
    if (how.kind === "reconcile" && row.status !== "confirmed")
      await recordTransaction(tx, { ...record, kind: "reconcile" });

    if (capture.status === "COMPLETED") {
      if (row.status === "confirmed") return { outcome: "confirmed", reference };
      if (ev.status === "cancelled") {
        // Staff cancelled the event while this payment was on its way: the booking stays
        // cancelled, and the payment is marked taken so that it is refunded like the others.
        await tx
          .update(booking)
          .set({
            status: "cancelled",
            cancelledAt: row.cancelledAt ?? now,
            paymentStatus: "paid",
            captureRequestId: null,
            updatedAt: now,
          })
          .where(eq(booking.id, row.id));
        refundAfterwards = true;
        return {
          outcome: "failed",
          reference,
          message: PAYMENT_MESSAGES.eventCancelled,
          debugId: null,
        };
      }
      if (capture.amountPence !== row.pricePence || capture.currency !== "GBP") {
        log.error(
          { code: "payment_amount_mismatch", bookingId: row.id },
          "payment: captured amount differs from the booking's price",
        );
      }
      if (row.status !== "awaiting_payment") {
        // Money was taken for a booking that had lost its hold: keep the payment, confirm the
        // place (one over capacity at worst), and let staff see it in the log.
        log.warn(
          { code: "payment_after_expiry", bookingId: row.id },
          "payment: captured after the hold ended; confirmed anyway",
        );
      }
      await confirmLocked(tx, ev, row, "paid", now);
      changed = true;
      return { outcome: "confirmed", reference };
    }
    if (capture.status === "PENDING") {
      if (row.status === "awaiting_payment" && row.paymentStatus !== "pending") {
        // Keep the place while PayPal reviews the payment, up to the end of the event.
        await tx
          .update(booking)
          .set({
            paymentStatus: "pending",
            holdExpiresAt: eventEnd({
              eventDate: ev.eventDate,
              startTime: ev.startTime,
              endTime: ev.endTime,
            }),
            updatedAt: now,
          })
          .where(eq(booking.id, row.id));
        changed = true;
      }
      return {
        outcome: "pending",
        reference,
        message: PAYMENT_MESSAGES.pending(capture.status, capture.id),
      };
    }
    if (capture.status === "DECLINED" || capture.status === "FAILED") {
      if (row.status === "awaiting_payment") {
        await tx
          .update(booking)
          .set({ status: "cancelled", cancelledAt: now, captureRequestId: null, updatedAt: now })
          .where(eq(booking.id, row.id));
        changed = true;
      }
      return {
        outcome: "failed",
        reference,
        message: `Non-recoverable error: the payment was ${capture.status.toLowerCase()} (${capture.id})`,
        debugId: null,
      };
    }
    // PARTIALLY_REFUNDED or REFUNDED: it was completed once; staff have handled it.
    return row.status === "confirmed"
      ? { outcome: "confirmed", reference }
      : { outcome: "expired", reference };
  });
  if (changed) eventsChanged();
  if (refundAfterwards) {
    // The payment is recorded; a refund that fails now is listed on the event's page to retry.
    await refundCancelledEvent(db, found.eventId, now).catch((error: unknown) =>
      logError(error, { code: "refund_after_cancel_failed", bookingId: found.id }),
    );
  }
  return result;
}

/* ---------------------------------------------------------------------------------------------- */
/* The worker                                                                                     */

/** How long the browser gets to come back from PayPal before the worker looks at an order itself. */
export const RECONCILE_GRACE_MS = 60_000;

export interface ReconcileSummary {
  /** held rows (and unpaid rows without an order) whose hold ran out, marked expired */
  expiredHolds: number;
  /** orders looked up at the provider */
  checked: number;
  confirmed: number;
  pending: number;
  /** unapproved orders whose hold ran out: released */
  expired: number;
  failed: number;
  /** no answer from the provider: tried again next time */
  unanswered: number;
}

/**
 * No payment is lost: finds bookings awaiting payment with an order and settles each with the
 * provider. A completed order confirms its booking, an approved one is captured, and an unapproved
 * one whose hold has run out is released. Also marks plain expired holds `expired` (their places
 * were already free: only unexpired holds count).
 */
export async function reconcilePayments(db: Db, now = new Date()): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = {
    expiredHolds: 0,
    checked: 0,
    confirmed: 0,
    pending: 0,
    expired: 0,
    failed: 0,
    unanswered: 0,
  };
  const tidied = await db
    .update(booking)
    .set({ status: "expired", updatedAt: now })
    .where(
      and(
        lte(booking.holdExpiresAt, now),
        or(
          eq(booking.status, "held"),
          and(
            eq(booking.status, "awaiting_payment"),
            sql`${booking.paymentOrderId} is null`,
            sql`${booking.paymentStatus} <> 'pending'`,
          ),
        ),
      ),
    )
    .returning({ id: booking.id });
  summary.expiredHolds = tidied.length;

  const graceEdge = new Date(now.getTime() - RECONCILE_GRACE_MS);
  const waiting = await db
    .select()
    .from(booking)
    .where(
      and(
        eq(booking.status, "awaiting_payment"),
        isNotNull(booking.paymentOrderId),
        or(
          lte(booking.updatedAt, graceEdge),
          lte(booking.holdExpiresAt, now),
          eq(booking.paymentStatus, "pending"),
        ),
      ),
    )
    .orderBy(asc(booking.updatedAt))
    .limit(200);

  const provider = paymentProvider();
  for (const row of waiting) {
    summary.checked++;
    const orderId = row.paymentOrderId!;
    try {
      let order: PayPalOrder | null;
      try {
        order = await provider.getOrder(orderId);
      } catch (error) {
        // An order PayPal does not know (or a simulated one from before a restart) was never paid.
        if (error instanceof PayPalError && error.status === 404) order = null;
        else throw error;
      }
      let outcome: CaptureResult["outcome"] | "waiting";
      if (order?.status === "APPROVED") {
        outcome = (await capturePayment(db, { orderId }, now)).outcome;
      } else if (order?.status === "COMPLETED") {
        outcome = (
          await settle(db, provider, row, order, { kind: "reconcile", requestId: null }, now)
        ).outcome;
      } else if (!isHoldLive(row, now) && row.paymentStatus !== "pending") {
        outcome = (await expireUnpaid(db, row.id, orderId, now)) ? "expired" : "waiting";
      } else {
        outcome = "waiting";
      }
      if (outcome === "confirmed") summary.confirmed++;
      else if (outcome === "pending") summary.pending++;
      else if (outcome === "expired") summary.expired++;
      else if (outcome === "failed") summary.failed++;
      else if (outcome === "no-response") summary.unanswered++;
    } catch (error) {
      if (
        error instanceof PayPalNetworkError ||
        (error instanceof PayPalError && error.status >= 500)
      ) {
        summary.unanswered++;
        continue;
      }
      log.error(
        { err: error, code: "payment_reconcile_failed", bookingId: row.id },
        "payment: reconcile failed for one booking",
      );
    }
  }
  if (summary.expiredHolds > 0) eventsChanged();
  return summary;
}

/** Releases an unpaid booking whose hold ran out, if nothing changed since it was read. */
async function expireUnpaid(db: Db, bookingId: string, orderId: string, now: Date) {
  const [row] = await db
    .select({ eventId: booking.eventId })
    .from(booking)
    .where(eq(booking.id, bookingId));
  if (!row) return false;
  const expired = await db.transaction(async (tx) => {
    await lockEvent(tx, row.eventId);
    const locked = await lockBooking(tx, bookingId);
    if (
      locked.status !== "awaiting_payment" ||
      locked.paymentOrderId !== orderId ||
      locked.paymentStatus === "pending" ||
      isHoldLive(locked, now)
    )
      return false;
    await tx
      .update(booking)
      .set({ status: "expired", updatedAt: now })
      .where(eq(booking.id, bookingId));
    return true;
  });
  if (expired) eventsChanged();
  return expired;
}

export interface BookingWorker {
  /** Runs one pass now (or waits for the one running). */
  runOnce(): Promise<ReconcileSummary | undefined>;
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, one pass at a time: `reconcilePayments`, then the refunds of cancelled
 * events that are due another try (`retryDueRefunds`).
 */
export function startBookingWorker(options: { db: Db; intervalMs: number }): BookingWorker {
  let running: Promise<ReconcileSummary | undefined> | undefined;
  const runOnce = () => {
    running ??= reconcilePayments(options.db)
      .then(async (summary) => {
        if (summary.confirmed + summary.expired + summary.failed + summary.pending > 0)
          log.info({ code: "payment_reconciled", ...summary }, "payments reconciled");
        const refunds = await retryDueRefunds(options.db);
        if (refunds.refunded + refunds.alreadyRefunded + refunds.failed > 0)
          log.info(
            {
              code: "refunds_retried",
              refunded: refunds.refunded,
              alreadyRefunded: refunds.alreadyRefunded,
              failed: refunds.failed,
            },
            "refunds retried",
          );
        return summary;
      })
      .catch((error: unknown) => {
        noteDatabaseError(error);
        log.error({ err: error, code: "booking_worker_failed" }, "booking worker: pass failed");
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/* ---------------------------------------------------------------------------------------------- */
/* Appointments and results                                                                       */

export interface AppointmentResult {
  /** "1.23" as the laboratory reported it */
  value: string | null;
  unit: string;
  /** green: retest in `retestYears`; amber: repeat in 3 months; red: see your GP. Null until a clinician sets it. */
  flag: "green" | "amber" | "red" | null;
  retestYears: number | null;
  comments: string | null;
  /** "yyyy-MM-dd" */
  sampleDate: string | null;
  releasedAt: Date;
}

export interface AppointmentWithResult {
  reference: string;
  eventId: string;
  eventName: string;
  productName: string;
  /** "yyyy-MM-dd" */
  eventDate: string;
  slotStart: string;
  slotEnd: string;
  address: string;
  /** the appointment is still ahead */
  upcoming: boolean;
  /** a released result ("Lab result ready"), or null ("No lab result") */
  result: AppointmentResult | null;
  labResultReady: boolean;
}

/**
 * The signed-in person's confirmed appointments, newest first, each with its result once staff
 * have released it (unreleased results are invisible). Only that person's rows.
 */
export async function listAppointmentsAndResults(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<AppointmentWithResult[]> {
  const rows = await db
    .select({
      booking,
      event,
      productName: screeningProduct.name,
      result: testResult,
    })
    .from(booking)
    .innerJoin(event, eq(booking.eventId, event.id))
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .leftJoin(
      testResult,
      and(
        eq(testResult.bookingId, booking.id),
        isNotNull(testResult.releasedAt),
        lte(testResult.releasedAt, now),
      ),
    )
    .where(and(eq(booking.userId, userId), eq(booking.status, "confirmed")))
    .orderBy(desc(event.eventDate), desc(booking.slotTime));
  return rows.map((row) => {
    const view = toBookingView(row, now);
    const result: AppointmentResult | null = row.result
      ? {
          value: row.result.psaValue,
          unit: row.result.unit,
          flag: row.result.flag,
          retestYears: row.result.retestYears,
          comments: row.result.comments,
          sampleDate: row.result.sampleDate,
          releasedAt: row.result.releasedAt!,
        }
      : null;
    return {
      reference: view.reference,
      eventId: view.eventId,
      eventName: view.eventName,
      productName: view.productName,
      eventDate: view.eventDate,
      slotStart: view.slotStart,
      slotEnd: view.slotEnd,
      address: view.address,
      upcoming: londonInstant(view.eventDate, view.slotEnd).getTime() > now.getTime(),
      result,
      labResultReady: result !== null,
    };
  });
}
