import { and, eq } from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { booking, consent } from "#app/db/schema";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { bookingStage, canTake, isHoldLive, renewedHoldEnd } from "#app/domain/booking-lifecycle";
import { CONSENT_WORDING_VERSION, type ConsentForm } from "#app/domain/consent";
import { eventsChanged } from "../events.server";
import { confirmLocked } from "./confirm.server";
import { canBringBack, expireBooking, lockBooking, lockEvent, lockPerson } from "./places.server";

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
