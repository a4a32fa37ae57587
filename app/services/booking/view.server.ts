import { and, eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import {
  booking,
  event,
  paymentTransaction,
  profile,
  screeningProduct,
  user,
} from "#app/db/schema";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import {
  bookingStage,
  isHoldLive,
  type BookingStage,
  type BookingStatus,
  type PaymentStatus,
} from "#app/domain/booking-lifecycle";
import { slotEndTime } from "#app/domain/calendar";
import { needsNhsNumber } from "#app/domain/eligibility";
import { joinAddress } from "#app/domain/events";
import type { Booking, EventRow } from "./places.server";

/** Reading one booking, as its person sees it on the booking pages and in e-mails. */

/**
 * What to bring and how to prepare; in the confirmation e-mail and on the booking pages, so each
 * item must read true in both (the reference is spelt out rather than "it is in this e-mail").
 */
export function whatToBring(reference: string): string[] {
  return [
    `Your booking reference, ${reference}.`,
    "Wear a shirt with sleeves that roll up easily: the nurse takes a small sample from your arm.",
    "You do not need to fast: eat and drink as usual.",
  ];
}

export interface BookingView {
  reference: string;
  status: BookingStatus;
  /** where it is in its lifecycle (`bookingStage`): what may be done with it next */
  stage: BookingStage;
  paymentStatus: PaymentStatus;
  eventId: string;
  eventName: string;
  /** staff cancelled the event */
  eventCancelled: boolean;
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
  /** when the time was first chosen: a hold's whole life is counted from it */
  createdAt: Date;
  /** held or awaiting payment, and the hold has not run out */
  holdActive: boolean;
  confirmedAt: Date | null;
  whatToBring: readonly string[];
}

export const viewColumns = {
  booking,
  event,
  productName: screeningProduct.name,
};

export type ViewRow = { booking: Booking; event: EventRow; productName: string };

export function toBookingView(
  { booking: row, event: ev, productName }: ViewRow,
  now: Date,
): BookingView {
  const addressLines = [ev.addressLine1, ev.addressLine2, ev.city, ev.postcode, ev.country].filter(
    (line): line is string => Boolean(line && line.trim()),
  );
  return {
    reference: row.reference,
    status: row.status,
    stage: bookingStage(row),
    paymentStatus: row.paymentStatus,
    eventId: ev.id,
    eventName: ev.name,
    eventCancelled: ev.status === "cancelled",
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
    createdAt: row.createdAt,
    holdActive: isHoldLive(row, now),
    confirmedAt: row.confirmedAt,
    whatToBring: whatToBring(row.reference),
  };
}

export function selectBookingViews(db: Db) {
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

/** The booking a payment order was made for: its current order, or an earlier one of it. */
export async function bookingForOrder(db: Db, orderId: string): Promise<Booking | undefined> {
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

/** Who a booking's e-mail goes to: his address, and the name to greet him by. */
export async function bookingRecipient(
  tx: Db,
  userId: string,
): Promise<{ email: string; firstName: string }> {
  const [person] = await tx
    .select({ email: user.email, name: user.name, firstName: profile.firstName })
    .from(user)
    .leftJoin(profile, eq(profile.userId, user.id))
    .where(eq(user.id, userId));
  if (!person) throw new Error("booking without a user");
  return { email: person.email, firstName: person.firstName ?? person.name };
}
