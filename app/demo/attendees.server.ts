import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, consent, profile, user } from "#app/db/schema";
import { generateBookingReference } from "#app/domain/booking-reference";
import { CONSENT_WORDING_VERSION, type ConsentAnswers } from "#app/domain/consent";
import { eventEnd, generateSlots } from "#app/domain/events";
import { addLondonDays, londonDate, londonInstant } from "#app/domain/london-time";
import { newProfileReference } from "#app/services/auth.server";
import { demoEventsNamed, demoPayment } from "./bookings.server";
import { demoBookedCounts } from "./events.server";

/**
 * Invented attendees, so that every booked count on the demo site is a real list of bookings a
 * coordinator can open, search and check in. They cannot sign in (no password); their names
 * are made up from the lists below, and their addresses are @example.org.
 *
 * Each event is filled, time by time, up to its demo booked count, after the demo patient's own
 * bookings. Past events' attendees came and gave a sample (so a clinician can practise an import);
 * later ones are confirmed and waiting for the day.
 */

const FIRST_NAMES = [
  "Alan",
  "Barry",
  "Clive",
  "Dennis",
  "Edwin",
  "Frank",
  "Geoffrey",
  "Howard",
  "Ivor",
  "Julian",
  "Keith",
  "Leonard",
  "Malcolm",
  "Neville",
  "Oliver",
  "Percy",
  "Roland",
  "Stanley",
  "Trevor",
  "Vernon",
];
const LAST_NAMES = ["Ashdown", "Brightwell", "Coldham", "Dunmore"];

const ANSWERS: ConsentAnswers = {
  numberOfPsaTest: 1,
  familyHistoryProstateCancer: "No",
  familyMemberWithProstateCancer: [],
  familyHistoryBreastOvarianCancer: "No",
  familyMemberWithOvarianCancer: [],
  motherSideDetails: null,
  medicationHistory: "None",
};

/** Enough people for the fullest demo event; each has at most one booking per event. */
const PEOPLE = FIRST_NAMES.length * LAST_NAMES.length;

async function inventPeople(tx: Db, now: Date): Promise<string[]> {
  const people = FIRST_NAMES.flatMap((first, f) =>
    LAST_NAMES.map((last, l) => {
      const n = f * LAST_NAMES.length + l;
      const id = `demo-attendee-${String(n + 1).padStart(3, "0")}`;
      // Aged 45 to 78 on the day they were seeded.
      const dateOfBirth = addLondonDays(londonDate(now), -Math.round((45 + (n % 34)) * 365.25));
      return { id, first, last, dateOfBirth, email: `attendee${n + 1}@example.org` };
    }),
  );
  await tx.insert(user).values(
    people.map((person) => ({
      id: person.id,
      name: `${person.first} ${person.last}`,
      email: person.email,
      emailVerified: true,
    })),
  );
  await tx.insert(profile).values(
    people.map((person, n) => ({
      id: `profile-${person.id}`,
      userId: person.id,
      reference: newProfileReference(),
      firstName: person.first,
      lastName: person.last,
      dateOfBirth: person.dateOfBirth,
      phone: `01632 960 ${String(100 + n).padStart(3, "0")}`,
      email: person.email,
      homeAddressLine1: `${n + 1} Example Street`,
      homePostcode: "CM1 0XX",
      homeCountry: "United Kingdom",
    })),
  );
  return people.map((person) => person.id);
}

export async function seedDemoAttendees(tx: Db, now: Date) {
  const people = await inventPeople(tx, now);
  const counts = demoBookedCounts(now);
  const events = await demoEventsNamed(
    tx,
    counts.map((entry) => entry.name),
  );
  for (const { event: ev, ...cost } of events) {
    const wanted = counts.find((entry) => entry.name === ev.name)!.booked;
    const existing = await tx
      .select({ slotTime: booking.slotTime, userId: booking.userId })
      .from(booking)
      .where(and(eq(booking.eventId, ev.id), eq(booking.status, "confirmed")));
    const perSlot = new Map<string, number>();
    for (const row of existing) perSlot.set(row.slotTime, (perSlot.get(row.slotTime) ?? 0) + 1);
    const taken = new Set(existing.map((row) => row.userId));
    const free = people.filter((id) => !taken.has(id));
    const past = eventEnd(ev).getTime() <= now.getTime();
    const rows: (typeof booking.$inferInsert)[] = [];
    let left = Math.min(wanted - existing.length, PEOPLE);
    for (const slot of generateSlots(
      ev.startTime.slice(0, 5),
      ev.endTime.slice(0, 5),
      ev.sessionDuration,
    )) {
      while (left > 0 && (perSlot.get(slot) ?? 0) < ev.placesPerSlot) {
        const userId = free.shift();
        if (!userId) break;
        perSlot.set(slot, (perSlot.get(slot) ?? 0) + 1);
        left--;
        const appointment = londonInstant(ev.eventDate, slot);
        rows.push({
          reference: generateBookingReference(),
          eventId: ev.id,
          userId,
          slotTime: slot,
          status: "confirmed",
          ...demoPayment(cost),
          confirmedAt: new Date(appointment.getTime() - 10 * 24 * 3600_000),
          createdAt: new Date(appointment.getTime() - 10 * 24 * 3600_000),
          // Invented people get no reminders: a hundred of them would bury the dev mailbox.
          reminderSentAt: new Date(appointment.getTime() - 10 * 24 * 3600_000),
          ...(past
            ? {
                arrivedAt: appointment,
                sampleTakenAt: new Date(appointment.getTime() + 5 * 60_000),
                sampleId: `DEMO-${crypto.randomBytes(4).toString("hex").toUpperCase()}`,
              }
            : {}),
        });
      }
    }
    if (rows.length === 0) continue;
    const inserted = await tx
      .insert(booking)
      .values(rows)
      .returning({ id: booking.id, userId: booking.userId, createdAt: booking.createdAt });
    await tx.insert(consent).values(
      inserted.map((row) => ({
        bookingId: row.id,
        userId: row.userId,
        testDate: ev.eventDate,
        answers: ANSWERS,
        gpConsent: true,
        wordingVersion: CONSENT_WORDING_VERSION,
        agreedAt: row.createdAt,
      })),
    );
  }
}
