import { and, eq } from "drizzle-orm";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import { booking, testResult } from "#app/db/schema";
import { bookingStage, canTake } from "#app/domain/booking-lifecycle";
import { appointmentInstants } from "#app/domain/calendar";
import { cancellationTerms, type Refusal } from "#app/domain/cancellation-policy";
import { formatLongDate } from "#app/domain/date-labels";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { cancelTermsSentences } from "#app/domain/my-bookings";
import { enqueueEmail, type OutgoingEmail } from "../email.server";
import { log } from "../log.server";
import { refundOwedBooking, type RefundOutcome } from "../payments/refunds.server";
import { offerFreedPlaces } from "../waitlist.server";
import { calendarEntryFor, calendarFileName } from "./calendar.server";
import { paidPence, policyInput, type MyBooking } from "./my-bookings.server";
import { lockBooking, lockEvent, lockPerson, type Booking, type EventRow } from "./places.server";
import { bookingRecipient, toBookingView } from "./view.server";

/**
 * A patient cancelling his own booking. One transaction, with the locks in the order
 * places.server.ts keeps (person, event, booking), checks that the booking is his, that the
 * lifecycle allows it (`patient-cancel`: only a confirmed booking he has not come to), that no
 * result exists, and the policy (`cancellationTerms`); it then cancels, notes a refund owed,
 * queues the e-mail (with the calendar entry cancelled) and offers the freed place to the
 * waiting list. The place is free at once: places are counted from bookings. After commit the
 * refund, if one is owed, is made through `payments/refunds.server.ts` (once, however often this
 * runs); if it fails, the booking worker tries again.
 */

export type CancelRefusal =
  /** no such booking, or another person's: pages answer 404 */
  | "not-found"
  /** cancelled before (by him, in another tab, or by us) */
  | "already-cancelled"
  /**
   * he confirmed a refund larger than cancelling now gives (the day changed while the page was
   * open): nothing is done; the page shows the new terms for him to confirm
   */
  | "terms-changed"
  /** checked in, marked as not come, or not a booked place */
  | "not-cancellable"
  | Refusal;

export type CancelOutcome =
  | {
      ok: true;
      reference: string;
      /** what goes back, in pence (0: nothing) */
      refundPence: number;
      /** the refund's state after this call: none due, made, or still owed (the worker retries) */
      refund: "none" | "made" | "owed";
    }
  | { ok: false; reason: CancelRefusal };

/** Why a booking cannot be cancelled online, in words for its person. */
export const CANCEL_REFUSALS: Record<
  Exclude<CancelRefusal, "not-found" | "already-cancelled">,
  string
> = {
  "terms-changed":
    "What you get back has changed since you opened this page: the last day to cancel with a full refund has passed. Please read what happens now below, and confirm again if you still want to cancel.",
  started: `Your appointment has already begun, so it can no longer be cancelled online. If you need help, call our booking helpline on ${organisation.phones.booking.display}.`,
  "sample-taken": "A sample has been taken for this booking, so it cannot be cancelled.",
  "not-cancellable": `This booking can no longer be cancelled online. If you need help, call our booking helpline on ${organisation.phones.booking.display}.`,
};

/**
 * What cancelling would mean, for the page that asks him to confirm: the sentences to show (money
 * only where he paid), or why it cannot be cancelled.
 */
export function cancelPreview(
  found: MyBooking,
):
  | { cancellable: true; sentences: string[]; refundPence: number }
  | { cancellable: false; message: string | null } {
  if (found.state === "cancelled") return { cancellable: false, message: null };
  const terms = found.cancel;
  if (!found.canCancel || !terms.allowed) {
    const reason = terms.allowed ? "not-cancellable" : terms.reason;
    return { cancellable: false, message: CANCEL_REFUSALS[reason] };
  }
  return {
    cancellable: true,
    sentences: cancelTermsSentences(terms, found.paidPence, "before"),
    refundPence: terms.refundPence,
  };
}

function cancellationEmail(details: {
  to: string;
  firstName: string;
  row: Booking;
  ev: EventRow;
  address: string;
  sentences: string[];
  now: Date;
}): OutgoingEmail {
  const { row, ev } = details;
  const { booking: helpline } = organisation.phones;
  const lines = [
    `Hello ${details.firstName},`,
    "",
    "You have cancelled your screening appointment.",
    "",
    `Booking reference: ${row.reference}`,
    `Event: ${ev.name}`,
    `Date: ${formatLongDate(ev.eventDate)}`,
    `Time: ${row.slotTime} (UK time)`,
    `Address: ${details.address}`,
    "",
    ...details.sentences,
    "",
    "A calendar update is attached: it takes the appointment off your calendar.",
    "",
    `If you did not mean to cancel, or have a question, call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}.`,
    "",
    organisation.name,
  ];
  return {
    to: details.to,
    subject: `Your ${organisation.shortName} screening booking ${row.reference} is cancelled`,
    text: lines.join("\n"),
    attachments: [
      {
        filename: calendarFileName(row.reference),
        contentType: "text/calendar; charset=utf-8; method=CANCEL",
        content: calendarEntryFor(row, ev, details.address, {
          stamp: details.now,
          method: "CANCEL",
        }),
      },
    ],
  };
}

export interface CancelInput {
  userId: string;
  reference: string;
  /**
   * the refund the confirming page showed him, in pence: cancelling for less is refused; null when
   * the request does not say (he is asked to confirm again); left out by callers that showed none
   */
  shownRefundPence?: number | null;
}

type Decided =
  | { ok: false; reason: CancelRefusal }
  | { ok: true; bookingId: string; reference: string; refundPence: number };

async function cancelInTransaction(tx: Db, input: CancelInput, now: Date): Promise<Decided> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return { ok: false, reason: "not-found" };
  // His lock first, as a change takes it: the booking's event is read after any change of his
  // has committed, so the policy, the e-mail and the freed place are of the event it is at.
  await lockPerson(tx, input.userId);
  const [found] = await tx
    .select({ id: booking.id, eventId: booking.eventId })
    .from(booking)
    .where(and(eq(booking.reference, reference), eq(booking.userId, input.userId)));
  if (!found) return { ok: false, reason: "not-found" };

  const ev = await lockEvent(tx, found.eventId);
  const row = await lockBooking(tx, found.id);
  if (!ev || row.userId !== input.userId || row.eventId !== found.eventId)
    return { ok: false, reason: "not-found" };

  const stage = bookingStage(row);
  if (stage === "cancelled" || stage === "refunded")
    return { ok: false, reason: "already-cancelled" };
  if (!canTake(stage, "patient-cancel")) {
    return { ok: false, reason: stage === "sample_taken" ? "sample-taken" : "not-cancellable" };
  }
  const [result] = await tx
    .select({ id: testResult.id })
    .from(testResult)
    .where(eq(testResult.bookingId, row.id));
  const { start } = appointmentInstants(ev.eventDate, row.slotTime, ev.sessionDuration);
  const terms = cancellationTerms(policyInput(row, start, result !== undefined, now));
  if (!terms.allowed) return { ok: false, reason: terms.reason };
  // He agreed to the refund he was shown: never cancel for less (nor without knowing what he saw).
  const shown = input.shownRefundPence;
  if (shown === null || (shown !== undefined && terms.refundPence < shown))
    return { ok: false, reason: "terms-changed" };

  const refundOwed = terms.refundPence > 0;
  const [cancelled] = await tx
    .update(booking)
    .set({
      status: "cancelled",
      cancelledAt: now,
      cancelledBy: "patient",
      refundOwed,
      updatedAt: now,
    })
    .where(eq(booking.id, row.id))
    .returning();

  const person = await bookingRecipient(tx, row.userId);
  const view = toBookingView({ booking: cancelled!, event: ev, productName: "" }, now);
  await enqueueEmail(
    tx,
    cancellationEmail({
      to: person.email,
      firstName: person.firstName,
      row: cancelled!,
      ev,
      address: view.address,
      sentences: cancelTermsSentences(terms, paidPence(row), "done"),
      now,
    }),
  );
  await offerFreedPlaces(tx, ev, now);
  return { ok: true, bookingId: row.id, reference: row.reference, refundPence: terms.refundPence };
}

/** The refund's state for the page, from what the refund module did. */
function refundState(outcome: RefundOutcome): "made" | "owed" {
  return outcome.outcome === "refunded" || outcome.outcome === "already" ? "made" : "owed";
}

/**
 * Cancels one of the person's own bookings at `now`, and then makes the refund it is owed. A
 * second press (or a second tab) finds it cancelled and, if its refund is still owed, asks for
 * the refund again: the refund module makes one PayPal call however often it is asked.
 */
export async function cancelOwnBooking(
  db: Db,
  input: CancelInput,
  now = new Date(),
): Promise<CancelOutcome> {
  const decided = await db.transaction((tx) => cancelInTransaction(tx, input, now));
  if (!decided.ok) return decided;
  log.info(
    { code: "booking_cancelled_by_patient", bookingId: decided.bookingId },
    "booking cancelled",
  );
  if (decided.refundPence === 0)
    return { ok: true, reference: decided.reference, refundPence: 0, refund: "none" };
  let refund: "made" | "owed" = "owed";
  try {
    refund = refundState(await refundOwedBooking(db, decided.bookingId, now));
  } catch (error) {
    // The booking is cancelled and the refund still owed: the worker tries again.
    log.error({ err: error, code: "patient_refund_error", bookingId: decided.bookingId }, "refund");
  }
  return { ok: true, reference: decided.reference, refundPence: decided.refundPence, refund };
}
