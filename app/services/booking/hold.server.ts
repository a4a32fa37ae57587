import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { booking, event, profile, screeningProduct } from "#app/db/schema";
import { generateBookingReference } from "#app/domain/booking-reference";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import {
  bookingStage,
  canTake,
  canExtendHold,
  extendedHoldEnd,
  HOLD_STATUSES,
  isHoldLive,
  PLACE_STATUSES,
  type BookingStatus,
} from "#app/domain/booking-lifecycle";
import { bookingEligibility, type EligibilityProblem } from "#app/domain/eligibility";
import { isPaidEvent } from "#app/domain/pricing";
import { minutesToWait } from "#app/domain/retry-after";
import { limitKeyForAddress } from "#app/domain/client-address";
import { eventsChanged, isEventId } from "../events.server";
import { hitRateLimit } from "../rate-limit.server";
import { liveOfferOf, markOfferTaken } from "../waitlist.server";
import {
  eventClosedTo,
  lockEvent,
  lockPerson,
  placeProblem,
  placeProblemGiven,
  placesTaken,
  type Booking,
} from "./places.server";

/**
 * Holding a place: the first step of a booking. Every way in (the booking page, the JSON API,
 * anything later) calls `holdPlace`, and it checks every rule itself, inside the transaction
 * that takes the place: the event is published and its booking window open, the person is
 * eligible (age on the day, an NHS number where the laboratory needs one), a private event has
 * been unlocked by this person with its code, the person holds no other place (one live hold at a
 * time, across events), and their client address has not started too many holds lately.
 *
 * A place offered to this person from the event's waiting list is theirs: it is counted out of
 * the places taken for them (for everyone else it counts as taken), and the hold takes it.
 */

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

/** New holds (not moves to another time) per client address in an hour; see `config()`. */
export const NEW_HOLDS_WINDOW_MS = 60 * 60_000;

export type HoldRefusal =
  /** no such event */
  | "event-not-found"
  /** a private event this person has not unlocked with its code */
  | "locked"
  /** the event has passed, closed (24-hour rule) or is full */
  | "event-unavailable"
  /** that time is taken, has started, or is not a time of this event */
  | "slot-unavailable"
  /** this person already has a confirmed booking, or one awaiting payment, for this event */
  | "already-booked"
  /** this person is part-way through paying for a booking at another event */
  | "paying-elsewhere"
  /** outside 40 to 80 on the day, or the laboratory needs an NHS number the profile lacks */
  | "not-eligible"
  /** too many new holds from this client address lately */
  | "too-many-holds";

export const HOLD_REFUSAL_MESSAGES: Record<Exclude<HoldRefusal, "too-many-holds">, string> & {
  "too-many-holds": (retryAfterSeconds: number) => string;
} = {
  "event-not-found": "Event not found",
  locked: "This is a private event. Please enter its access code on the event's page first.",
  "event-unavailable": "This event is no longer taking bookings.",
  "slot-unavailable": "That time is no longer available",
  "already-booked": "You already have a booking for this event.",
  "paying-elsewhere":
    "You are part-way through paying for another booking. Please finish or cancel that payment first.",
  "not-eligible": "You cannot book this event.",
  "too-many-holds": (retryAfterSeconds) =>
    `Too many bookings have been started from your internet connection. Please wait ${minutesToWait(retryAfterSeconds)} and try again, or call us to book.`,
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
  | { ok: false; reason: Exclude<HoldRefusal, "not-eligible" | "too-many-holds"> }
  | { ok: false; reason: "not-eligible"; problems: EligibilityProblem[] }
  | { ok: false; reason: "too-many-holds"; retryAfterSeconds: number };

/** The refusal's words, for a page or a JSON answer. */
export function holdRefusalMessage(result: Extract<HoldResult, { ok: false }>): string {
  return result.reason === "too-many-holds"
    ? HOLD_REFUSAL_MESSAGES["too-many-holds"](result.retryAfterSeconds)
    : HOLD_REFUSAL_MESSAGES[result.reason];
}

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
 * A person has at most one active booking per event: a live hold of theirs there is moved to the
 * new time, keeping its end (posting again never extends a hold). A person holds one place at a
 * time: a hold of theirs at another event is let go, unless they are paying for it.
 */
export async function holdPlace(
  db: Db,
  input: { eventId: string; userId: string; slotTime: string; clientAddress: string },
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
  if (!found) return { ok: false, reason: "event-not-found" };
  const closed = await eventClosedTo(db, found.event, input.userId);
  if (closed) return { ok: false, reason: closed };
  const eligibility = bookingEligibility(found, found.event);
  if (!eligibility.eligible)
    return { ok: false, reason: "not-eligible", problems: eligibility.problems };

  // A quick refusal without the lock: once the event or the slot is full, everyone else is
  // answered with one read. (A refusal read at an instant is true at that instant; every place
  // given still goes through the locked count.)
  const ownOffer = await liveOfferOf(db, found.event.id, input.userId, now);
  const quickRefusal = async () => {
    const seen = await placesTaken(db, found.event.id, now, {
      userId: input.userId,
      exceptOfferId: ownOffer?.id,
    });
    return seen.mine ? null : placeProblemGiven(found.event, seen, input.slotTime, now);
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
      // The person first: their holds at two events at once then take turns too.
      await lockPerson(tx, input.userId);
      const row = await lockEvent(tx, input.eventId);
      // Staff may have unpublished or cancelled it, or revoked the code, while this request waited.
      const closed = row ? await eventClosedTo(tx, row, input.userId) : "event-not-found";
      if (closed) return { ok: false, reason: closed };
      // A place offered to them from the waiting list, still live now that the event is locked.
      const offer = await liveOfferOf(tx, row!.id, input.userId, now, { lock: true });

      // The person's bookings here, and every hold of theirs elsewhere, run out or not: a hold
      // the worker has not tidied yet could otherwise be brought back by consenting to it.
      const mine = await tx
        .select()
        .from(booking)
        .where(
          and(
            eq(booking.userId, input.userId),
            or(
              and(eq(booking.eventId, row!.id), inArray(booking.status, [...PLACE_STATUSES])),
              and(ne(booking.eventId, row!.id), inArray(booking.status, [...HOLD_STATUSES])),
            ),
          ),
        )
        .orderBy(booking.id)
        .for("update");
      let moving: Booking | undefined;
      const toLetGo: string[] = [];
      for (const other of mine) {
        const stage = bookingStage(other);
        const live = isHoldLive(other, now);
        if (other.eventId === row!.id) {
          if (other.status === "confirmed") return { ok: false, reason: "already-booked" };
          // An order may be on its way through PayPal: only the reconciler may let that one go.
          if (stage === "awaiting_payment" || (other.status === "awaiting_payment" && live))
            return { ok: false, reason: "already-booked" };
          if (other.status === "held" && live) moving = other;
          else toLetGo.push(other.id);
        } else if (other.paymentStatus === "pending" || (stage === "awaiting_payment" && live)) {
          // A payment on its way elsewhere is not ours to drop.
          return { ok: false, reason: "paying-elsewhere" };
        } else {
          // Any other hold elsewhere is let go (an order whose hold ran out is the worker's to
          // settle: if PayPal took the money after all, the worker still confirms it).
          toLetGo.push(other.id);
        }
      }

      // Every refusal comes before anything changes: a refused hold leaves the person's other
      // bookings as they were.
      const problem = await placeProblem(tx, row!, input.slotTime, now, {
        bookingId: moving?.id,
        offerId: offer?.id,
      });
      if (problem) return { ok: false, reason: problem };
      if (!moving) {
        // Only a new hold counts against its client address.
        const counted = await hitRateLimit(
          tx,
          `new-holds:${limitKeyForAddress(input.clientAddress)}`,
          config().RATE_LIMIT_HOLDS_PER_HOUR,
          NEW_HOLDS_WINDOW_MS,
          now,
        );
        if (!counted.allowed)
          return {
            ok: false,
            reason: "too-many-holds",
            retryAfterSeconds: counted.retryAfterSeconds,
          };
      }
      if (toLetGo.length > 0)
        await tx
          .update(booking)
          .set({ status: "expired", updatedAt: now })
          .where(inArray(booking.id, toLetGo));

      if (moving) {
        const [moved] = await tx
          .update(booking)
          .set({ slotTime: input.slotTime, updatedAt: now })
          .where(eq(booking.id, moving.id))
          .returning();
        if (offer) await markOfferTaken(tx, row!, offer, moved!.id, now);
        return { ok: true, booking: heldBooking(moved!) };
      }

      const holdExpiresAt = new Date(now.getTime() + config().HOLD_MINUTES * 60_000);
      const price = row!.pricePence ?? found.productPrice;
      const paid = isPaidEvent({ price, payment_required: row!.paymentRequired });
      for (let attempt = 0; attempt < 5; attempt++) {
        const [created] = await tx
          .insert(booking)
          .values({
            reference: generateBookingReference(),
            eventId: row!.id,
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
        if (!created) continue;
        if (offer) await markOfferTaken(tx, row!, offer, created.id, now);
        return { ok: true, booking: heldBooking(created) };
      }
      throw new Error("Could not find an unused booking reference");
    });
  });
  if (result.ok) eventsChanged();
  return result;
}

export type ExtendResult =
  | { ok: true; holdExpiresAt: Date }
  /** the hold's whole life is reached; or it already has its full time ahead */
  | { ok: false; reason: "capped" | "not-needed"; holdExpiresAt: Date }
  /** the hold has ended, is being paid for, or is not this person's */
  | { ok: false; reason: "ended" | "not-found" };

/**
 * "I need more time": HOLD_MINUTES more for a live hold nobody is paying for yet, never past its
 * whole life (`extendedHoldEnd`). The page and anything else go through here, so the cap holds
 * whoever asks. Holds are not audited (the audit log is for staff actions), so neither is this.
 */
export async function extendHold(
  db: Db,
  input: { userId: string; reference: string },
  now = new Date(),
): Promise<ExtendResult> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return { ok: false, reason: "not-found" };
  return db.transaction(async (tx): Promise<ExtendResult> => {
    await lockPerson(tx, input.userId);
    const [row] = await tx
      .select()
      .from(booking)
      .where(and(eq(booking.reference, reference), eq(booking.userId, input.userId)))
      .for("update");
    if (!row) return { ok: false, reason: "not-found" };
    if (
      !canTake(bookingStage(row), "extend") ||
      row.paymentStatus === "pending" ||
      !isHoldLive(row, now)
    )
      return { ok: false, reason: "ended" };
    const extension = extendedHoldEnd(
      { createdAt: row.createdAt, holdExpiresAt: row.holdExpiresAt! },
      now,
      config().HOLD_MINUTES,
    );
    if (!extension.ok) return { ...extension, holdExpiresAt: row.holdExpiresAt! };
    await tx
      .update(booking)
      .set({ holdExpiresAt: extension.holdExpiresAt, updatedAt: now })
      .where(eq(booking.id, row.id));
    return extension;
  });
}

/** Whether the page offers "I need more time" for a live hold (not once its whole life is reached). */
export function moreTimeOffered(hold: { createdAt: Date; holdExpiresAt: Date | null }): boolean {
  return (
    hold.holdExpiresAt !== null &&
    canExtendHold(
      { createdAt: hold.createdAt, holdExpiresAt: hold.holdExpiresAt },
      config().HOLD_MINUTES,
    )
  );
}
