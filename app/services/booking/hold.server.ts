import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import {
  aheadOfTheQueue,
  onOneConnection,
  RESERVED_CONNECTIONS,
  type Db,
} from "#app/db/client.server";
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
  type BookingStage,
  type BookingStatus,
  type MoreTimeAnswer,
  type MoreTimeState,
} from "#app/domain/booking-lifecycle";
import { bookingEligibility, type EligibilityProblem } from "#app/domain/eligibility";
import { bookingCharge } from "#app/domain/pricing";
import { minutesToWait } from "#app/domain/retry-after";
import { limitKeyForAddress } from "#app/domain/client-address";
import { eventsChanged, isEventId } from "../events.server";
import { hitRateLimit } from "../rate-limit.server";
import { liveOfferOf, markOfferTaken } from "../waitlist.server";
import {
  eventClosedTo,
  lockEvent,
  lockPerson,
  placeProblemGiven,
  placesTaken,
  withoutPlaces,
  type Booking,
  type EventRow,
  type PlaceProblem,
  type PlacesTaken,
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

/** The event as its line last read it, with its product's price. */
interface EventReading {
  event: EventRow;
  productPrice: number;
}

/**
 * A request for a place, waiting in its event's line in this process, and the transaction that
 * takes the place once its turn comes (on the line's connection, given the line's reading).
 */
interface Waiter {
  userId: string;
  slotTime: string;
  now: Date;
  /** new; being checked (admission); found to be one who may book the event (admitted) */
  stage: "new" | "checking" | "admitted";
  take: (db: Db, reading: EventReading) => Promise<HoldResult>;
  settle: (result: Promise<HoldResult> | HoldResult) => void;
}

interface Line {
  eventId: string;
  /** the pool, for admission's reads */
  db: Db;
  waiters: Waiter[];
  reading?: EventReading;
  /**
   * The places as the line last read them, with the places its own holds took since. It only
   * ever says when to read again: refusals come from a fresh read or from the transaction.
   */
  estimate?: PlacesTaken;
  /** admission is running */
  admitting: boolean;
  /** wakes the turns when admission has admitted someone or stopped */
  wake?: () => void;
}

/** Each database's lines, one per event with requests waiting or being served in this process. */
const lines = new WeakMap<Db, Map<string, Line>>();

/**
 * How many lines keep a connection of their own now: at most one of the kept connections, so that
 * the other is there for admission's reads (`aheadOfTheQueue`).
 */
let linesOnOwnConnections = 0;
const LINES_ON_OWN_CONNECTIONS = RESERVED_CONNECTIONS - 1;

/**
 * Holds for one event take turns within this process, so a crowd waits here rather than on the
 * database's row lock, where each waiter would keep a pooled connection from every other request.
 * Between processes the row lock still decides.
 *
 * Requests are admitted together: one read of the event (with the newcomers' dates of birth and
 * NHS numbers) for everyone who has come since the last, and those it is closed to or who may not
 * book it are answered at once. The admitted take their turns in the order they came. Before a
 * turn, when what the line knows of the event's places says someone waiting would now be refused
 * (the event or their time full), one read of the places answers everyone waiting: those it
 * refuses are answered at once. Everyone in a read was waiting before it began, so its refusals
 * were true during their request. A person who already takes a place here (a booking, or a place
 * offered from the waiting list) is never refused by that read: their transaction decides, as it
 * does, under the event's lock, for everyone who reaches it.
 *
 * While the line has people in it, its turns run on one connection kept for it
 * (`onOneConnection`): the line is the crowd's bottleneck, and each of its statements would
 * otherwise queue for a connection behind the requests still arriving.
 */
function waitInLine(
  db: Db,
  eventId: string,
  waiter: Omit<Waiter, "settle" | "stage">,
): Promise<HoldResult> {
  return new Promise<HoldResult>((resolve) => {
    let byEvent = lines.get(db);
    if (!byEvent) lines.set(db, (byEvent = new Map()));
    const joining: Waiter = { ...waiter, stage: "new", settle: resolve };
    const line = byEvent.get(eventId);
    if (line) {
      line.waiters.push(joining);
      admit(line);
      return;
    }
    const started: Line = { eventId, db, waiters: [joining], admitting: false };
    byEvent.set(eventId, started);
    admit(started);
    // Ended the moment it is empty: anyone coming later starts a new line.
    const end = () => {
      if (byEvent.get(eventId) === started) byEvent.delete(eventId);
    };
    const serve = (connection: Db) => takeTurns(connection, started, end);
    const own = linesOnOwnConnections < LINES_ON_OWN_CONNECTIONS;
    if (own) linesOnOwnConnections++;
    (own ? onOneConnection(db, serve) : serve(db))
      .catch((error: unknown) => {
        // Only taking the connection can fail here (takeTurns answers its own failures): everyone
        // admitted fails with it, and the line ends once admission has answered the rest.
        const failed = failure(error);
        answer(
          started,
          new Map(
            started.waiters
              .filter((waiting) => waiting.stage === "admitted")
              .map((waiting) => [waiting, failed]),
          ),
        );
        void (async () => {
          while (started.admitting) await new Promise<void>((wake) => (started.wake = wake));
          const failedToo = failure(error);
          answer(started, new Map(started.waiters.map((waiting) => [waiting, failedToo])));
          end();
        })();
      })
      .finally(() => {
        if (own) linesOnOwnConnections--;
      });
  });
}

function failure(error: unknown): Promise<never> {
  const failed = Promise.reject(error);
  failed.catch(() => {});
  return failed;
}

/** Answers these waiters and takes them out of the line. */
function answer(line: Line, answers: Map<Waiter, Promise<HoldResult> | HoldResult>) {
  if (answers.size === 0) return;
  for (const [waiter, result] of answers) waiter.settle(result);
  line.waiters = line.waiters.filter((waiter) => !answers.has(waiter));
}

/** The event, its product's price, and these people's dates of birth and NHS numbers. */
async function readEvent(db: Db, eventId: string, userIds: string[]) {
  const [found] = await db
    .select({
      event,
      productPrice: screeningProduct.pricePence,
      people: sql<
        { userId: string; dateOfBirth: string | null; nhsNumber: string | null }[] | null
      >`(
        select json_agg(json_build_object('userId', ${profile.userId},
          'dateOfBirth', ${profile.dateOfBirth}::text, 'nhsNumber', ${profile.nhsNumber}))
        from ${profile} where ${profile.userId} = any(${sql.param(userIds)}::text[]))`,
    })
    .from(event)
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .where(eq(event.id, eventId));
  return found;
}

/**
 * Admission, run beside the turns on the pool: newcomers, all those who have come since the last
 * read, are checked together against one read of the event (published, unlocked by them if
 * private, they eligible for it). Starts if it is not running; runs until nobody new is waiting.
 */
function admit(line: Line) {
  if (line.admitting) return;
  line.admitting = true;
  void (async () => {
    // After the caller has finished joining (or starting) the line.
    await Promise.resolve();
    for (;;) {
      const newcomers = line.waiters.filter((waiter) => waiter.stage === "new");
      if (newcomers.length === 0) {
        line.admitting = false;
        line.wake?.();
        return;
      }
      for (const waiter of newcomers) waiter.stage = "checking";
      const answers = new Map<Waiter, Promise<HoldResult> | HoldResult>();
      try {
        // Ahead of the crowd's statements in the pool's queue, as the turns are.
        const found = await readEvent(aheadOfTheQueue(line.db), line.eventId, [
          ...new Set(newcomers.map((waiter) => waiter.userId)),
        ]);
        if (!found) {
          for (const waiter of newcomers)
            answers.set(waiter, { ok: false, reason: "event-not-found" });
        } else {
          line.reading = { event: found.event, productPrice: found.productPrice };
          const people = new Map((found.people ?? []).map((person) => [person.userId, person]));
          const closed = await Promise.all(
            newcomers.map((waiter) => eventClosedTo(line.db, found.event, waiter.userId)),
          );
          newcomers.forEach((waiter, index) => {
            const reason = closed[index];
            if (reason) return answers.set(waiter, { ok: false, reason });
            const person = people.get(waiter.userId) ?? { dateOfBirth: null, nhsNumber: null };
            const eligibility = bookingEligibility(person, found.event);
            if (!eligibility.eligible)
              return answers.set(waiter, {
                ok: false,
                reason: "not-eligible",
                problems: eligibility.problems,
              });
            waiter.stage = "admitted";
          });
        }
      } catch (error) {
        // Everyone the read was for fails with it (the route answers 503 or 500).
        const failed = failure(error);
        for (const waiter of newcomers) answers.set(waiter, failed);
      }
      answer(line, answers);
      line.wake?.();
    }
  })();
}

/** Whether what the line knows of the places says any of these would now be refused. */
function someoneRefused(line: Line, waiting: Waiter[], now: Date): boolean {
  const { estimate, reading } = line;
  if (!estimate || !reading) return true;
  const slots = new Set(waiting.map((waiter) => waiter.slotTime));
  return [...slots].some((slot) => placeProblemGiven(reading.event, estimate, slot, now) !== null);
}

/** The turns, on the line's connection, until nobody is waiting. */
async function takeTurns(db: Db, line: Line, end: () => void) {
  for (;;) {
    const admitted = line.waiters.filter((waiter) => waiter.stage === "admitted");
    if (admitted.length === 0) {
      if (!line.admitting) break;
      await new Promise<void>((wake) => (line.wake = wake));
      line.wake = undefined;
      continue;
    }
    // The latest of their instants: holds that had run out by then no longer count.
    const now = new Date(Math.max(...admitted.map((waiter) => waiter.now.getTime())));
    if (someoneRefused(line, admitted, now)) {
      const refusals = new Map<Waiter, Promise<HoldResult> | HoldResult>();
      try {
        const seen = await placesTaken(db, line.eventId, now, {
          users: [...new Set(admitted.map((waiter) => waiter.userId))],
        });
        line.estimate = seen;
        const bySlot = new Map<string, PlaceProblem | null>();
        for (const waiter of admitted) {
          if (seen.holders.has(waiter.userId)) continue;
          let problem = bySlot.get(waiter.slotTime);
          if (problem === undefined) {
            problem = placeProblemGiven(line.reading!.event, seen, waiter.slotTime, now);
            bySlot.set(waiter.slotTime, problem);
          }
          if (problem) refusals.set(waiter, { ok: false, reason: problem });
        }
      } catch (error) {
        // Everyone the read was for fails with it.
        const failed = failure(error);
        for (const waiter of admitted) refusals.set(waiter, failed);
      }
      answer(line, refusals);
    }
    const next = line.waiters.find((waiter) => waiter.stage === "admitted");
    if (!next) continue;
    let result: Promise<HoldResult> | HoldResult;
    try {
      const taken = await next.take(db, line.reading!);
      result = taken;
      if (taken.ok && line.estimate) {
        // Its place (a move counts as a new place here: the estimate only says when to read).
        const { perSlot } = line.estimate;
        perSlot.set(taken.booking.slotTime, (perSlot.get(taken.booking.slotTime) ?? 0) + 1);
        line.estimate.taken++;
        line.estimate.held++;
      } else if (!taken.ok) {
        // Refused under the lock: what the line knows is out of date (another instance, say).
        line.estimate = undefined;
      }
    } catch (error) {
      result = failure(error);
      line.estimate = undefined;
    }
    answer(line, new Map([[next, result]]));
  }
  end();
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

export const HOLD_REFUSAL_MESSAGES: Record<
  Exclude<HoldRefusal, "too-many-holds" | "paying-elsewhere">,
  string
> & {
  "too-many-holds": (retryAfterSeconds: number) => string;
  "paying-elsewhere": (reference: string, checking: boolean) => string;
} = {
  "event-not-found": "Event not found",
  locked: "This is a private event. Please enter its access code on the event's page first.",
  "event-unavailable": "This event is no longer taking bookings.",
  "slot-unavailable": "That time is no longer available",
  "already-booked": "You already have a booking for this event.",
  "paying-elsewhere": (reference, checking) =>
    checking
      ? `PayPal is still checking the payment you made for another booking (${reference}). You can book this event once PayPal has settled it; we will e-mail you as soon as it has. There is nothing you need to do meanwhile.`
      : `You are part-way through paying for another booking (${reference}). Please finish that payment first; if you leave it, we let it go when we stop holding its time.`,
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
  | {
      ok: false;
      reason: Exclude<HoldRefusal, "not-eligible" | "too-many-holds" | "paying-elsewhere">;
    }
  /**
   * `reference`: the booking whose payment is under way, for a link to it; `checking`: PayPal is
   * reviewing its payment, so there is nothing for him to finish
   */
  | { ok: false; reason: "paying-elsewhere"; reference: string; checking: boolean }
  | { ok: false; reason: "not-eligible"; problems: EligibilityProblem[] }
  | { ok: false; reason: "too-many-holds"; retryAfterSeconds: number };

/** The refusal's words, for a page or a JSON answer. */
export function holdRefusalMessage(result: Extract<HoldResult, { ok: false }>): string {
  switch (result.reason) {
    case "too-many-holds":
      return HOLD_REFUSAL_MESSAGES["too-many-holds"](result.retryAfterSeconds);
    case "paying-elsewhere":
      return HOLD_REFUSAL_MESSAGES["paying-elsewhere"](result.reference, result.checking);
    default:
      return HOLD_REFUSAL_MESSAGES[result.reason];
  }
}

export function heldBooking(row: Booking): HeldBooking {
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
  const result = await waitInLine(db, input.eventId, {
    userId: input.userId,
    slotTime: input.slotTime,
    now,
    take: (connection, found) =>
      connection.transaction(async (tx): Promise<HoldResult> => {
        // Sent together, these run one after another on the transaction's connection in the
        // order given (node-postgres queues a connection's statements), which is the lock order:
        // the person first (their holds at two events at once then take turns too), then the
        // event, a place offered to them from its waiting list, and their bookings: those here,
        // and every hold of theirs elsewhere, run out or not (a hold the worker has not tidied
        // yet could otherwise be brought back by consenting to it). Each is sent as soon as the
        // one before is answered, without waiting for this process's turn in between.
        const [, row, offer, mine, counted] = await Promise.all([
          lockPerson(tx, input.userId),
          lockEvent(tx, input.eventId),
          liveOfferOf(tx, input.eventId, input.userId, now, { lock: true }),
          tx
            .select()
            .from(booking)
            .where(
              and(
                eq(booking.userId, input.userId),
                or(
                  and(
                    eq(booking.eventId, input.eventId),
                    inArray(booking.status, [...PLACE_STATUSES]),
                  ),
                  and(
                    ne(booking.eventId, input.eventId),
                    inArray(booking.status, [...HOLD_STATUSES]),
                  ),
                ),
              ),
            )
            .orderBy(booking.id)
            .for("update"),
          // The places, counted under the event's lock; their own hold here and their offer
          // are taken out below, once known.
          placesTaken(tx, input.eventId, now),
        ]);
        // Staff may have unpublished or cancelled it, or revoked the code, while this request waited.
        const closed = row ? await eventClosedTo(tx, row, input.userId) : "event-not-found";
        if (closed) return { ok: false, reason: closed };
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
          } else if (
            other.paymentStatus === "pending" ||
            other.captureRequestId !== null ||
            (stage === "awaiting_payment" && live)
          ) {
            // A payment on its way elsewhere is not ours to drop, nor is a capture PayPal has not
            // answered yet (it may have taken the money: the worker settles it, D-164).
            return {
              ok: false,
              reason: "paying-elsewhere",
              reference: other.reference,
              // PayPal holding it for review: his booking page says so, and the e-mail follows.
              checking: other.paymentStatus === "pending",
            };
          } else {
            // Any other hold elsewhere is let go: no capture of it was sent, so no money taken.
            toLetGo.push(other.id);
          }
        }

        // Every refusal comes before anything changes: a refused hold leaves the person's other
        // bookings as they were.
        const problem = placeProblemGiven(
          row!,
          withoutPlaces(counted, [moving?.slotTime, offer?.offeredSlotTime]),
          input.slotTime,
          now,
        );
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
        const { paid, pricePence } = bookingCharge(row!, found.productPrice);
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
              pricePence,
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
      }),
  });
  if (result.ok) eventsChanged();
  return result;
}

export type ExtendResult =
  | { ok: true; holdExpiresAt: Date }
  /** the hold's whole life is reached; or it already has its full time ahead */
  | { ok: false; reason: "capped" | "not-needed"; holdExpiresAt: Date }
  /** a payment has started (an order exists, or PayPal is checking one) */
  | { ok: false; reason: "paying" }
  /** the hold has ended, or is not this person's */
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
    if (!isHoldLive(row, now)) return { ok: false, reason: "ended" };
    const stage = bookingStage(row);
    if (stage === "awaiting_payment") return { ok: false, reason: "paying" };
    if (!canTake(stage, "extend")) return { ok: false, reason: "ended" };
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

/** "I need more time" as a page asks for it: what came of it, in the page's words' terms. */
export async function askForMoreTime(
  db: Db,
  input: { userId: string; reference: string },
): Promise<MoreTimeAnswer | "not-found"> {
  const result = await extendHold(db, input);
  return result.ok ? "extended" : result.reason;
}

/**
 * Whether "I need more time" can be given to a hold now, and if not, why: the same rules
 * `extendHold` applies when asked, so a page offers only what the service gives.
 */
export function moreTimeFor(hold: {
  stage: BookingStage;
  holdActive: boolean;
  createdAt: Date;
  holdExpiresAt: Date | null;
}): MoreTimeState {
  if (!hold.holdActive || hold.holdExpiresAt === null) return "ended";
  if (hold.stage === "awaiting_payment") return "paying";
  if (!canTake(hold.stage, "extend")) return "ended";
  const { createdAt, holdExpiresAt } = hold;
  return canExtendHold({ createdAt, holdExpiresAt }, config().HOLD_MINUTES) ? "offered" : "capped";
}
