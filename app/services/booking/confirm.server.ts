import { eq } from "drizzle-orm";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import { booking, screeningProduct } from "#app/db/schema";
import { appointmentInstants } from "#app/domain/calendar";
import { formatLongDate } from "#app/domain/date-labels";
import { bookingTermsSentences } from "#app/domain/terms-wording";
import { NHS_NUMBER_LAB } from "#app/domain/eligibility";
import { formatPounds } from "#app/domain/pricing";
import { manageBookingUrl } from "../booking-links.server";
import { enqueueEmail, type OutgoingEmail } from "../email.server";
import { calendarEntryFor, calendarFileName } from "./calendar.server";
import type { Booking, EventRow } from "./places.server";
import { bookingRecipient, toBookingView, type BookingView } from "./view.server";

/** Confirming a booking: the last step, for a free booking at consent and a paid one at capture. */

/** The confirmation e-mail: where, when, what to bring, how to change. No consent answers, no health data. */
function confirmationEmail(details: {
  to: string;
  firstName: string;
  view: BookingView;
  row: Booking;
  event: EventRow;
  now: Date;
}): OutgoingEmail {
  const { view, row, event: ev } = details;
  const { booking: helpline } = organisation.phones;
  const isPaid = view.paymentRequired && view.pricePence > 0;
  const paid = isPaid ? `Paid: ${formatPounds(view.pricePence)}` : "Price: free of charge";
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
    ...view.whatToBring.map((item) => `- ${item}`),
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
    // This booking's own dates; money is spoken of only where something was paid.
    ...bookingTermsSentences({
      appointmentStart: appointmentInstants(ev.eventDate, row.slotTime, ev.sessionDuration).start,
      now: details.now,
      paidPence: row.paymentStatus === "paid" ? row.pricePence : 0,
      sampleTakenOrResult: false,
    }),
    "To see your booking, or to change or cancel it, open this link (you will be asked to sign in if you are not already):",
    manageBookingUrl({
      id: row.id,
      userId: row.userId,
      reference: row.reference,
      eventDate: ev.eventDate,
    }),
    `Or call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}, quoting your booking reference.`,
    "",
    "A calendar entry for your appointment is attached.",
    "",
    organisation.name,
  );
  const ics = calendarEntryFor(row, ev, view.address, { stamp: details.now });
  return {
    to: details.to,
    subject: `Your ${organisation.shortName} screening booking ${view.reference}`,
    text: lines.join("\n"),
    attachments: [
      {
        filename: calendarFileName(view.reference),
        contentType: "text/calendar; charset=utf-8; method=PUBLISH",
        content: ics,
      },
    ],
  };
}

/**
 * Confirms a locked booking of a locked event and queues the confirmation e-mail, in the caller's
 * transaction. (Its place is counted from the booking itself.)
 */
export async function confirmLocked(
  tx: Db,
  ev: EventRow,
  row: Booking,
  paymentStatus: "not_required" | "paid",
  now: Date,
) {
  const [confirmed] = await tx
    .update(booking)
    // A capture that confirms is answered for good: nothing waits on it any more (D-164).
    .set({
      status: "confirmed",
      paymentStatus,
      confirmedAt: now,
      captureRequestId: null,
      updatedAt: now,
    })
    .where(eq(booking.id, row.id))
    .returning();
  const person = await bookingRecipient(tx, row.userId);
  const [product] = await tx
    .select({ name: screeningProduct.name })
    .from(screeningProduct)
    .where(eq(screeningProduct.id, ev.productId));
  const view = toBookingView(
    { booking: confirmed!, event: ev, productName: product?.name ?? "" },
    now,
  );
  await enqueueEmail(
    tx,
    confirmationEmail({
      to: person.email,
      firstName: person.firstName,
      view,
      row: confirmed!,
      event: ev,
      now,
    }),
  );
}
