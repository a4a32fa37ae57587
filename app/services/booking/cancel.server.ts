import { and, eq } from "drizzle-orm";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import { booking, testResult } from "#app/db/schema";
import { bookingStage, canTake } from "#app/domain/booking-lifecycle";
import { appointmentInstants } from "#app/domain/calendar";
import {
  cancellationTerms,
  withFullRefund,
  type CancelTerms,
  type Refusal,
} from "#app/domain/cancellation-policy";
import { formatLongDate } from "#app/domain/date-labels";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { isUuid } from "#app/domain/ids";
import { cancelTermsSentences } from "#app/domain/my-bookings";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { openAttendeeBooking, openAttendeeEvent, type AttendeeEvent } from "../attendees.server";
import { recordAudit } from "../audit.server";
import { enqueueEmail, type OutgoingEmail } from "../email.server";
import { log } from "../log.server";
import { refundOwedBooking, type RefundOutcome } from "../payments/refunds.server";
import { offerFreedPlaces } from "../waitlist.server";
import { calendarEntryFor, calendarFileName } from "./calendar.server";
import { paidPence, policyInput, type MyBooking } from "./my-bookings.server";
import { lockBooking, lockEvent, lockPerson, type Booking, type EventRow } from "./places.server";
import { bookingRecipient, toBookingView } from "./view.server";

/**
 * A patient cancelling his own booking, or a coordinator cancelling it for him when he asks by
 * phone or letter (`booking:cancel`, D-189: the same gates, the policy's refund or, by the
 * coordinator's choice, everything he paid; audited). One transaction, with the locks in the order
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
  by: Canceller["by"];
  now: Date;
}): OutgoingEmail {
  const { row, ev } = details;
  const { booking: helpline } = organisation.phones;
  const lines = [
    `Hello ${details.firstName},`,
    "",
    details.by === "patient"
      ? "You have cancelled your screening appointment."
      : "We have cancelled your screening appointment, as you asked us to.",
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

/** How much a coordinator gives back: what the policy gives, or everything he paid. */
export type StaffRefundChoice = "policy" | "full";

/** Who cancels: he himself (his booking by its reference), or a coordinator (a booking of an event). */
type Canceller =
  | { by: "patient"; userId: string; reference: string }
  | {
      by: "staff";
      actor: StaffActor;
      eventId: string;
      bookingId: string;
      refund: StaffRefundChoice;
    };

type Decided =
  | { ok: false; reason: CancelRefusal }
  | { ok: true; bookingId: string; reference: string; refundPence: number };

/** The booking's id, event and person, read before his lock is taken; null when there is none. */
async function findCancelled(tx: Db, who: Canceller) {
  if (who.by === "patient") {
    const reference = normaliseBookingReference(who.reference);
    if (!reference) return null;
    const [found] = await tx
      .select({ id: booking.id, eventId: booking.eventId, userId: booking.userId })
      .from(booking)
      .where(and(eq(booking.reference, reference), eq(booking.userId, who.userId)));
    return found ?? null;
  }
  if (!isUuid(who.bookingId)) return null;
  const [found] = await tx
    .select({ id: booking.id, eventId: booking.eventId, userId: booking.userId })
    .from(booking)
    .where(and(eq(booking.id, who.bookingId), eq(booking.eventId, who.eventId)));
  return found ?? null;
}

/** The terms this cancellation gives: the policy's, or everything paid when a coordinator says so. */
function termsFor(who: Canceller, row: Booking, policy: CancelTerms, now: Date): CancelTerms {
  return who.by === "staff" && who.refund === "full"
    ? withFullRefund(policy, paidPence(row), now)
    : policy;
}

async function cancelInTransaction(
  tx: Db,
  who: Canceller,
  shownRefundPence: number | null | undefined,
  now: Date,
): Promise<Decided> {
  // His own lock is taken first by a patient's request; a coordinator's finds whose it is first.
  if (who.by === "patient") await lockPerson(tx, who.userId);
  const found = await findCancelled(tx, who);
  if (!found) return { ok: false, reason: "not-found" };
  // His lock before the event's, as a change takes it: the booking's event is read after any
  // change of his has committed, so the policy, the e-mail and the freed place are of its event.
  if (who.by === "staff") await lockPerson(tx, found.userId);

  const ev = await lockEvent(tx, found.eventId);
  const row = await lockBooking(tx, found.id);
  if (!ev || row.userId !== found.userId || row.eventId !== found.eventId)
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
  const terms = termsFor(
    who,
    row,
    cancellationTerms(policyInput(row, start, result !== undefined, now)),
    now,
  );
  if (!terms.allowed) return { ok: false, reason: terms.reason };
  // The refund shown was agreed to: never cancel for less (nor without knowing what was seen).
  const shown = shownRefundPence;
  if (shown === null || (shown !== undefined && terms.refundPence < shown))
    return { ok: false, reason: "terms-changed" };

  const refundOwed = terms.refundPence > 0;
  const [cancelled] = await tx
    .update(booking)
    .set({
      status: "cancelled",
      cancelledAt: now,
      cancelledBy: who.by,
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
      by: who.by,
      now,
    }),
  );
  if (who.by === "staff")
    await recordAudit(tx, who.actor, {
      action: "booking.cancel",
      subjectUserId: row.userId,
      entityType: "booking",
      entityId: row.id,
      details: { eventId: ev.id, refund: who.refund, refundPence: terms.refundPence },
    });
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
  const who = { by: "patient", userId: input.userId, reference: input.reference } as const;
  return cancelAndRefund(db, who, input.shownRefundPence, now);
}

async function cancelAndRefund(
  db: Db,
  who: Canceller,
  shownRefundPence: number | null | undefined,
  now: Date,
): Promise<CancelOutcome> {
  const decided = await db.transaction((tx) => cancelInTransaction(tx, who, shownRefundPence, now));
  if (!decided.ok) return decided;
  log.info(
    { code: `booking_cancelled_by_${who.by}`, bookingId: decided.bookingId },
    "booking cancelled",
  );
  if (decided.refundPence === 0)
    return { ok: true, reference: decided.reference, refundPence: 0, refund: "none" };
  let refund: "made" | "owed" = "owed";
  try {
    refund = refundState(await refundOwedBooking(db, decided.bookingId, now));
  } catch (error) {
    // The booking is cancelled and the refund still owed: the worker tries again.
    log.error({ err: error, code: "cancel_refund_error", bookingId: decided.bookingId }, "refund");
  }
  return { ok: true, reference: decided.reference, refundPence: decided.refundPence, refund };
}

/** What the coordinator's page shows before cancelling a booking for him. */
export interface StaffCancelPreview {
  event: AttendeeEvent;
  bookingId: string;
  reference: string;
  name: string;
  slotTime: string;
  /** what he paid, in pence (0: free, or nothing taken) */
  paidPence: number;
  /** what the policy gives back today, in pence; null when it cannot be cancelled */
  policyRefundPence: number | null;
  /** why it cannot be cancelled, in words for the coordinator; null when it can */
  refusal: string | null;
}

/** Why a coordinator cannot cancel a booking, in words for them. */
export const STAFF_CANCEL_REFUSALS: Record<
  Exclude<CancelRefusal, "not-found" | "terms-changed">,
  string
> = {
  "already-cancelled": "This booking is already cancelled.",
  started:
    "His appointment has begun, so the booking can no longer be cancelled. If he has not come, mark him as a no-show on the list.",
  "sample-taken": "A sample has been taken for this booking, so it cannot be cancelled.",
  "not-cancellable":
    "Only a booked place he has not yet come to can be cancelled: this one is checked in, marked as a no-show, or not booked yet.",
};

/** The booking of this event, for the coordinator's page; null when there is none. */
export async function staffCancelPreview(
  db: Db,
  actor: StaffActor,
  { eventId, bookingId, now = new Date() }: { eventId: string; bookingId: string; now?: Date },
): Promise<StaffCancelPreview | null> {
  assertCan(actor, "booking:cancel");
  const found = await openAttendeeBooking(db, actor, { eventId, bookingId, now });
  if (!found) return null;
  const { row, attendeeEvent: ev } = found;
  const stage = bookingStage(row);
  const { start } = appointmentInstants(ev.eventDate, row.slotTime, found.event.sessionDuration);
  const terms = cancellationTerms(policyInput(row, start, found.hasResult, now));
  const reason: keyof typeof STAFF_CANCEL_REFUSALS | null =
    stage === "cancelled" || stage === "refunded"
      ? "already-cancelled"
      : !canTake(stage, "patient-cancel")
        ? stage === "sample_taken"
          ? "sample-taken"
          : "not-cancellable"
        : terms.allowed
          ? null
          : terms.reason;
  return {
    event: ev,
    bookingId: row.id,
    reference: row.reference,
    name: found.name,
    slotTime: row.slotTime,
    paidPence: paidPence(row),
    policyRefundPence: reason === null && terms.allowed ? terms.refundPence : null,
    refusal: reason === null ? null : STAFF_CANCEL_REFUSALS[reason],
  };
}

/**
 * A coordinator cancels one booked place of this event for him, with the policy's refund or
 * everything he paid, through the same transaction as his own cancellation (locks, lifecycle,
 * policy, e-mail, waiting list), audited; then the refund is made as for his own.
 */
export async function cancelBookingForHim(
  db: Db,
  actor: StaffActor,
  input: {
    eventId: string;
    bookingId: string;
    refund: StaffRefundChoice;
    /** the refund the page showed, in pence: cancelling for less is refused */
    shownRefundPence: number;
  },
  now = new Date(),
): Promise<CancelOutcome> {
  assertCan(actor, "booking:cancel");
  const ev = await openAttendeeEvent(db, actor, input.eventId, now);
  if (!ev) return { ok: false, reason: "not-found" };
  const who = {
    by: "staff",
    actor,
    eventId: ev.id,
    bookingId: input.bookingId,
    refund: input.refund,
  } as const;
  return cancelAndRefund(db, who, input.shownRefundPence, now);
}
