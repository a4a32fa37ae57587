import { and, eq } from "drizzle-orm";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import { booking, event, profile, user } from "#app/db/schema";
import { checkInState } from "#app/domain/check-in";
import { consentLinkRefusal, type ConsentLinkRefusal } from "#app/domain/consent-link";
import { formatLongDate } from "#app/domain/date-labels";
import { londonDate, londonInstant } from "#app/domain/london-time";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { eventDayFor } from "./attendees.server";
import { recordAudit } from "./audit.server";
import { signedConsentQuery } from "./consent-links.server";
import { enqueueUnaskedMail } from "./recipient-mail.server";
import { isUuid } from "#app/domain/ids";

export type ConsentLinkResult =
  | { outcome: "sent"; reference: string }
  | { outcome: "throttled"; reference: string }
  | { outcome: "refused"; reference: string; reason: ConsentLinkRefusal }
  | { outcome: "not-found" };

/**
 * A coordinator e-mails someone booked a signed link to the consent form for his test's day. The
 * link names him by his portal reference and works only until the end of that day; the mail says
 * nothing about his health. Limited per recipient like every mail a form can send, and audited.
 */
export async function sendConsentLink(
  db: Db,
  actor: StaffActor,
  { eventId, bookingId, now = new Date() }: { eventId: string; bookingId: string; now?: Date },
): Promise<ConsentLinkResult> {
  return db.transaction(async (tx): Promise<ConsentLinkResult> => {
    assertCan(actor, "consent-link:send");
    if (!isUuid(eventId) || !isUuid(bookingId)) return { outcome: "not-found" };
    if (!(await eventDayFor(tx, actor, eventId, now))) return { outcome: "not-found" };
    const [row] = await tx
      .select({ booking, event, profile, email: user.email })
      .from(booking)
      .innerJoin(event, eq(event.id, booking.eventId))
      .innerJoin(user, eq(user.id, booking.userId))
      .leftJoin(profile, eq(profile.userId, booking.userId))
      .where(and(eq(booking.id, bookingId), eq(booking.eventId, eventId)));
    if (!row) return { outcome: "not-found" };
    const reference = row.booking.reference;
    const testDate = row.event.eventDate;
    const reason = consentLinkRefusal({
      status: row.booking.status,
      checkIn: checkInState(row.booking),
      testDate,
      today: londonDate(now),
      hasProfile: row.profile !== null,
    });
    if (reason) return { outcome: "refused", reference, reason };
    if (!row.profile) return { outcome: "not-found" };

    const query = signedConsentQuery({
      profileId: row.profile.reference,
      testDate,
      expiresAt: londonInstant(testDate, "23:59"),
    });
    const link = `${config().publicBaseUrl}/test-consent?${query}`;
    const { booking: helpline } = organisation.phones;
    const sent = await enqueueUnaskedMail(
      tx,
      "consent-link",
      {
        to: row.email,
        subject: `Your consent form for ${formatLongDate(testDate)} (booking ${reference})`,
        text: [
          `Hello ${row.profile.firstName},`,
          "",
          `Before your PSA test on ${formatLongDate(testDate)}, please fill in the consent form:`,
          "",
          link,
          "",
          `The link is for you alone and works until the end of ${formatLongDate(testDate)}.`,
          "",
          `If you have any questions, call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}, quoting your booking reference ${reference}.`,
          "",
          organisation.name,
        ].join("\n"),
      },
      now,
    );
    if (!sent) return { outcome: "throttled", reference };
    await recordAudit(tx, actor, {
      action: "attendees.consent-link",
      subjectUserId: row.booking.userId,
      entityType: "booking",
      entityId: row.booking.id,
    });
    return { outcome: "sent", reference };
  });
}
