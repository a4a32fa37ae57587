import { and, asc, eq, gte, inArray, isNull, lte, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { booking, event, profile, screeningProduct, user } from "#app/db/schema";
import { appointmentInstants } from "#app/domain/calendar";
import { LONDON, londonDate } from "#app/domain/london-time";
import {
  REMINDER_AFTER_CONFIRMATION_HOURS,
  REMINDER_LAST_CALL_HOURS,
  isReminderDue,
} from "#app/domain/reminders";
import { manageBookingUrl } from "../booking-links.server";
import { log } from "../log.server";
import type { ReminderChannel } from "./reminder-channel.server";
import { toBookingView, viewColumns } from "./view.server";

/**
 * The reminder job: one reminder per confirmed booking, a set time before its appointment
 * (`app/domain/reminders.ts` says when). Every server runs it; each due booking is claimed with
 * `FOR UPDATE SKIP LOCKED`, marked `reminder_sent_at` and handed to the channel in one
 * transaction, so two servers never remind the same booking twice and a failure reminds nobody.
 */

/** Bookings claimed per transaction; the job goes on while a batch comes back full. */
export const REMINDER_BATCH = 100;

/** The appointment's start as an instant, in SQL: the event's London date and the slot's time. */
const appointmentStart = sql`((${event.eventDate} + ${booking.slotTime}::time) at time zone ${sql.raw(`'${LONDON}'`)})`;

/**
 * The SQL twin of `isReminderDue` (same rules, same edges), for claiming rows. The event-date
 * bounds add nothing to it; they let the query use the event's date index.
 */
function reminderDueWhere(now: Date, hoursBefore: number) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const latestDay = londonDate(new Date(now.getTime() + hoursBefore * 3_600_000));
  return and(
    eq(booking.status, "confirmed"),
    isNull(booking.arrivedAt),
    isNull(booking.noShowAt),
    isNull(booking.sampleId),
    isNull(booking.sampleTakenAt),
    isNull(booking.reminderSentAt),
    gte(event.eventDate, londonDate(now)),
    lte(event.eventDate, latestDay),
    sql`${appointmentStart} - ${hoursBefore} * interval '1 hour' <= ${at}`,
    sql`${appointmentStart} - ${REMINDER_LAST_CALL_HOURS} * interval '1 hour' > ${at}`,
    sql`(${booking.confirmedAt} is null or ${booking.confirmedAt} + ${REMINDER_AFTER_CONFIRMATION_HOURS} * interval '1 hour' <= ${at})`,
  );
}

/** Claims one batch of due bookings and hands each to the channel; returns how many were sent. */
async function remindBatch(db: Db, channel: ReminderChannel, now: Date, hoursBefore: number) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({
        ...viewColumns,
        email: user.email,
        name: user.name,
        firstName: profile.firstName,
        phone: profile.phone,
      })
      .from(booking)
      .innerJoin(event, eq(booking.eventId, event.id))
      .innerJoin(user, eq(booking.userId, user.id))
      .leftJoin(profile, eq(profile.userId, user.id))
      .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
      .where(reminderDueWhere(now, hoursBefore))
      .orderBy(asc(appointmentStart), asc(booking.id))
      .limit(REMINDER_BATCH)
      .for("update", { of: booking, skipLocked: true });
    // The domain rule has the last word: a row the query let through by mistake is left alone.
    const due = rows.filter((row) => {
      const { start } = appointmentInstants(
        row.event.eventDate,
        row.booking.slotTime,
        row.event.sessionDuration,
      );
      const ok = isReminderDue({ ...row.booking, appointmentStart: start }, now, hoursBefore);
      if (!ok)
        log.warn(
          { code: "reminder_rule_mismatch", bookingId: row.booking.id },
          "reminders: the query and the rule disagree about a booking",
        );
      return ok;
    });
    if (due.length === 0) return { claimed: rows.length, sent: 0 };
    const marked = await tx
      .update(booking)
      .set({ reminderSentAt: now })
      .where(
        and(
          inArray(
            booking.id,
            due.map((row) => row.booking.id),
          ),
          isNull(booking.reminderSentAt),
        ),
      )
      .returning({ id: booking.id });
    const markedIds = new Set(marked.map((row) => row.id));
    for (const row of due) {
      if (!markedIds.has(row.booking.id)) continue;
      const { start } = appointmentInstants(
        row.event.eventDate,
        row.booking.slotTime,
        row.event.sessionDuration,
      );
      await channel.send(tx, {
        bookingId: row.booking.id,
        booking: toBookingView(row, now),
        person: {
          firstName: row.firstName ?? row.name,
          email: row.email,
          phone: row.phone ?? null,
        },
        // The signed link to his booking's page (booking-links.server.ts).
        manageUrl: manageBookingUrl({
          id: row.booking.id,
          userId: row.booking.userId,
          reference: row.booking.reference,
          eventDate: row.event.eventDate,
        }),
        // A reminder goes only to a confirmed booking that has not begun (no sample, no result).
        policy: {
          appointmentStart: start,
          now,
          paidPence: row.booking.paymentStatus === "paid" ? row.booking.pricePence : 0,
          sampleTakenOrResult: false,
        },
      });
    }
    return { claimed: rows.length, sent: markedIds.size };
  });
}

/**
 * Sends every reminder that is due now through `channel`. Safe to run on several servers at the
 * same moment: each booking is reminded once.
 */
export async function sendDueReminders(
  db: Db,
  channel: ReminderChannel,
  now = new Date(),
  hoursBefore = config().REMINDER_HOURS_BEFORE,
): Promise<{ sent: number }> {
  let sent = 0;
  for (;;) {
    const batch = await remindBatch(db, channel, now, hoursBefore);
    sent += batch.sent;
    // A full batch may have more behind it; one that sent less than it claimed would loop.
    if (batch.claimed < REMINDER_BATCH || batch.sent < batch.claimed) break;
  }
  return { sent };
}
