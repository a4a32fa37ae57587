import { and, eq } from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { booking, consent } from "#app/db/schema";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { bookingStage, canTake, isHoldLive, renewedHoldEnd } from "#app/domain/booking-lifecycle";
import { CONSENT_WORDING_VERSION, type ConsentForm } from "#app/domain/consent";
import { eventsChanged } from "../events.server";
import { confirmLocked } from "./confirm.server";
import { holdPlace, holdRefusalMessage } from "./hold.server";
import {
  canBringBack,
  expireBooking,
  hhmm,
  lockBooking,
  lockEvent,
  lockPerson,
} from "./places.server";

/** Consent: the second step. A free booking is confirmed here; a paid one goes on to checkout. */

/**
 * Saving the consent or confirming the booking failed for a reason of the database's or ours (not
 * a rule: those are answers). Nothing of the step was kept: the transaction was rolled back. The
 * page says which step, in the spec's words, and keeps the answers; `cause` goes to the log.
 */
export class ConsentStepFailed extends Error {
  constructor(
    readonly step: "consent" | "confirm",
    options: { cause: unknown },
  ) {
    super(`${step} step failed`, options);
    this.name = "ConsentStepFailed";
  }
}

/** Runs one step, naming it on failure. */
async function step<T>(name: ConsentStepFailed["step"], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    throw new ConsentStepFailed(name, { cause });
  }
}

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
 * confirms a free booking at once, or moves a paid one on to payment with HOLD_MINUTES more to
 * pay. Throws `ConsentStepFailed` when storing the consent or confirming fails. A hold that has run out is renewed if its place is still free, but never past the hold's
 * whole life (`renewedHoldEnd`): after that the person chooses a time again.
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
    await lockPerson(tx, input.userId);
    const ev = (await lockEvent(tx, found.eventId))!;
    const row = await lockBooking(tx, found.id);
    const stage = bookingStage(row);
    if (row.status === "confirmed") return { next: "confirmed", reference };
    // Consent was given and an order is with PayPal: on to paying, not a second consent.
    if (stage === "awaiting_payment") return { next: "checkout", reference };
    if (!canTake(stage, "consent")) return { next: "expired", reference };

    const renewedEnd = renewedHoldEnd(row.createdAt, now, config().HOLD_MINUTES);
    let holdExpiresAt = row.holdExpiresAt;
    if (!isHoldLive(row, now)) {
      // Brought back only as a new hold would be taken: within its whole life, the event still
      // open to this person, and its place still free.
      if (!renewedEnd || !(await canBringBack(tx, ev, row, now))) {
        await expireBooking(tx, row.id, now);
        changed = true;
        return { next: "expired", reference };
      }
      holdExpiresAt = renewedEnd;
      changed = true;
    }

    await step("consent", () =>
      tx.insert(consent).values({
        bookingId: row.id,
        userId: row.userId,
        testDate: ev.eventDate,
        answers: input.form.answers,
        gpConsent: input.form.gpConsent,
        wordingVersion: CONSENT_WORDING_VERSION,
        agreedAt: now,
      }),
    );

    if (!row.paymentRequired || row.pricePence <= 0) {
      await step("confirm", () =>
        confirmLocked(tx, ev, { ...row, holdExpiresAt }, "not_required", now),
      );
      changed = true;
      return { next: "confirmed", reference };
    }
    if (row.status === "held" && renewedEnd) {
      // The payment page gets HOLD_MINUTES more, within the hold's whole life.
      holdExpiresAt = renewedEnd;
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

export type KeptConsentResult =
  | Exclude<ConsentResult, { next: "expired" }>
  /** the time has gone: the answers are kept, and only a new time is asked for */
  | { next: "choose-time"; reference: string; eventId: string; slotTime: string }
  /** a place cannot be held again at all (event closed, not eligible, too many holds …) */
  | { next: "refused"; reference: string; eventId: string; message: string };

/**
 * Consent that never throws the answers away. A form sent after its hold ended (or with a new time
 * chosen after that) takes the place again through `holdPlace`, with every rule a new hold meets
 * (eligibility, a private event's unlock, the booking window, the limit per address), and then
 * consents to it. When the time has gone the caller keeps the answers and asks only for a time.
 */
export async function submitConsentKeepingAnswers(
  db: Db,
  input: {
    userId: string;
    reference: string;
    form: ConsentForm;
    clientAddress: string;
    /** a new time, chosen after the first one went */
    slotTime?: string;
  },
  now = new Date(),
): Promise<KeptConsentResult> {
  if (input.slotTime === undefined) {
    const result = await submitConsent(db, input, now);
    if (result.next !== "expired") return result;
  }
  const reference = normaliseBookingReference(input.reference);
  const [lapsed] = reference
    ? await db
        .select({ eventId: booking.eventId, slotTime: booking.slotTime })
        .from(booking)
        .where(and(eq(booking.reference, reference), eq(booking.userId, input.userId)))
    : [];
  if (!lapsed) return { next: "not-found" };
  const slotTime = input.slotTime ?? hhmm(lapsed.slotTime);
  const held = await holdPlace(
    db,
    { eventId: lapsed.eventId, userId: input.userId, slotTime, clientAddress: input.clientAddress },
    now,
  );
  const kept = { reference: reference!, eventId: lapsed.eventId };
  if (!held.ok)
    return held.reason === "slot-unavailable"
      ? { next: "choose-time", ...kept, slotTime }
      : { next: "refused", ...kept, message: holdRefusalMessage(held) };
  const result = await submitConsent(
    db,
    { userId: input.userId, reference: held.booking.reference, form: input.form },
    now,
  );
  // Just held, so only a race with its own end could expire it: ask for a time again.
  return result.next === "expired" ? { next: "choose-time", ...kept, slotTime } : result;
}
