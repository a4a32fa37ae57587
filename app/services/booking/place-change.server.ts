import { and, eq, sql } from "drizzle-orm";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import { booking, profile, user } from "#app/db/schema";
import { appointmentInstants, slotEndTime } from "#app/domain/calendar";
import { formatLongDate } from "#app/domain/date-labels";
import { eventAddress } from "#app/domain/events";
import { manageBookingUrl } from "../booking-links.server";
import { enqueueEmail } from "../email.server";
import { calendarEntryFor, calendarFileName } from "./calendar.server";
import type { EventRow } from "./places.server";

/**
 * A coordinator moved an event to another address while people are booked: each man whose
 * appointment is still ahead is e-mailed the new place, with a new calendar entry, and a second
 * e-mail removes the old entry (as after a change of time). Called inside the edit's transaction,
 * under the event's row lock, so the e-mails go (through the outbox) only if the change commits.
 * Returns how many men were told.
 */
export async function tellBookedOfNewPlace(
  tx: Db,
  before: EventRow,
  after: EventRow,
  now: Date,
): Promise<number> {
  const oldAddress = eventAddress(before);
  const newAddress = eventAddress(after);
  if (oldAddress === newAddress) return 0;
  const rows = await tx
    .select({
      booking,
      email: user.email,
      name: user.name,
      firstName: profile.firstName,
    })
    .from(booking)
    .innerJoin(user, eq(user.id, booking.userId))
    .leftJoin(profile, eq(profile.userId, user.id))
    .where(and(eq(booking.eventId, after.id), eq(booking.status, "confirmed")));
  let told = 0;
  for (const row of rows) {
    const { end } = appointmentInstants(
      after.eventDate,
      row.booking.slotTime,
      after.sessionDuration,
    );
    if (end.getTime() <= now.getTime()) continue;
    // Each place is its own calendar entry, so the old one can be cancelled without undoing the new.
    const [moved] = await tx
      .update(booking)
      .set({ calendarVersion: sql`${booking.calendarVersion} + 1`, updatedAt: now })
      .where(eq(booking.id, row.booking.id))
      .returning();
    const person = { email: row.email, firstName: row.firstName ?? row.name };
    const messages = newPlaceEmails({
      person,
      before: { ev: before, row: row.booking, address: oldAddress },
      after: { ev: after, row: moved!, address: newAddress },
      now,
    });
    let queued = false;
    for (const message of messages) if (await enqueueEmail(tx, message)) queued = true;
    if (queued) told++;
  }
  return told;
}

type Place = { ev: EventRow; row: typeof booking.$inferSelect; address: string };

/** The two e-mails: the new place with its calendar entry, and the old entry cancelled. No health data. */
function newPlaceEmails({
  person,
  before,
  after,
  now,
}: {
  person: { email: string; firstName: string };
  before: Place;
  after: Place;
  now: Date;
}) {
  const { reference, slotTime } = after.row;
  const helpline = organisation.phones.booking;
  const when = `${formatLongDate(after.ev.eventDate)}, ${slotTime} to ${slotEndTime(slotTime, after.ev.sessionDuration)} (UK time)`;
  const lines = [
    `Hello ${person.firstName},`,
    "",
    `Your screening appointment (booking reference ${reference}) is at a new address. The day and time have not changed.`,
    "",
    `Event: ${after.ev.name}`,
    `When: ${when}`,
    `New address: ${after.address}`,
    `Old address (please do not go there): ${before.address}`,
    "",
    "The calendar entry with the new address is attached. A second e-mail removes the old one from your calendar.",
    "",
    `See your booking (you will be asked to sign in if you are not already): ${manageBookingUrl({
      id: after.row.id,
      userId: after.row.userId,
      reference,
      eventDate: after.ev.eventDate,
    })}`,
    "",
    `If the new place does not suit you, call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}, quoting your booking reference.`,
    "",
    organisation.name,
  ];
  const oldEntryLines = [
    `Hello ${person.firstName},`,
    "",
    `Your screening appointment (booking reference ${reference}) is still on ${when}, now at ${after.address}.`,
    "",
    "The attached calendar file removes the old entry, which had the old address, from your calendar.",
    "",
    organisation.name,
  ];
  return [
    {
      to: person.email,
      subject: `Your ${organisation.shortName} screening appointment ${reference} has a new address`,
      text: lines.join("\n"),
      attachments: [
        {
          filename: calendarFileName(reference),
          contentType: "text/calendar; charset=utf-8; method=PUBLISH",
          content: calendarEntryFor(after.row, after.ev, after.address, { stamp: now }),
        },
      ],
    },
    {
      to: person.email,
      subject: `The old calendar entry for your ${organisation.shortName} appointment is cancelled (${reference})`,
      text: oldEntryLines.join("\n"),
      attachments: [
        {
          filename: calendarFileName(`${reference}-old-address-cancelled`),
          contentType: "text/calendar; charset=utf-8; method=CANCEL",
          content: calendarEntryFor(before.row, before.ev, before.address, {
            stamp: now,
            method: "CANCEL",
          }),
        },
      ],
    },
  ];
}
