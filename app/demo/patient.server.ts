import { eq } from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { booking, consent, event, outboxEmail, testResult, user } from "#app/db/schema";
import { generateBookingReference } from "#app/domain/booking-reference";
import { CONSENT_WORDING_VERSION, type ConsentAnswers } from "#app/domain/consent";
import { ageAtSample } from "#app/domain/age";
import { addLondonDays, londonInstant } from "#app/domain/london-time";
import { suggestFlag } from "#app/domain/psa-flag";
import { authFor, withPendingProfile, type ProfileDraft } from "#app/services/auth.server";
import { submitConsent } from "#app/services/booking/consent.server";
import { holdPlace } from "#app/services/booking/hold.server";
import { listThresholds } from "#app/services/results-admin.server";
import { demoEventsNamed, demoPayment } from "./bookings.server";

/** The demo patient's sign-in, quoted in the README. The password passes the site's strength rule. */
export const DEMO_PATIENT_EMAIL = "demo.patient@example.org";
export const DEMO_PATIENT_PASSWORD = "velvet walnut compass";

const profileDraft: ProfileDraft = {
  firstName: "Trevor",
  lastName: "Ashworth",
  gender: "Male",
  dateOfBirth: "1968-04-12",
  ethnicity: "White - British",
  occupation: "Bus driver",
  phone: "01632 960 777",
  email: DEMO_PATIENT_EMAIL,
  homeAddressLine1: "14 Moulsham Street",
  homeAddressLine2: null,
  homePostcode: "CM2 0HU",
  homeCountry: "United Kingdom",
  billingAddress: "14 Moulsham Street, Chelmsford, CM2 0HU",
  // The NHS's own example number: valid, so the ESNEFT event can be booked too.
  nhsNumber: "9434765919",
};

const answers: ConsentAnswers = {
  numberOfPsaTest: 2,
  familyHistoryProstateCancer: "No",
  familyMemberWithProstateCancer: [],
  familyHistoryBreastOvarianCancer: "Don't know",
  familyMemberWithOvarianCancer: [],
  motherSideDetails: null,
  medicationHistory: "None",
};

interface PastVisit {
  eventName: string;
  slotTime: string;
  result?: {
    psaValue: string;
    flag: "green" | "amber" | "red";
    retestYears: number | null;
    comments: string;
    /** days after the event that staff released it */
    releasedAfterDays: number;
  };
}

/**
 * A signed-up, verified patient who shows every state of the medical-results page: a past visit
 * with a released Green result (retest in 2 years), one with a released Amber result, one whose
 * result is not back yet, and an upcoming confirmed booking (made through the booking service,
 * so its confirmation e-mail is in the dev mailbox). The past visits use the past demo events;
 * the invented attendees seeded after him fill the rest of their places.
 */
export async function seedDemoPatient(tx: Db, now: Date) {
  const settings = config();
  const { user: created } = await withPendingProfile(profileDraft, () =>
    authFor(tx, settings).api.signUpEmail({
      body: {
        name: `${profileDraft.firstName} ${profileDraft.lastName}`,
        email: DEMO_PATIENT_EMAIL,
        password: DEMO_PATIENT_PASSWORD,
      },
      headers: new Headers({ origin: settings.publicBaseUrl }),
    }),
  );
  const userId = created.id;
  await tx.update(user).set({ emailVerified: true }).where(eq(user.id, userId));
  // Already verified: the sign-up's "confirm your address" message would only confuse.
  await tx.delete(outboxEmail).where(eq(outboxEmail.to, DEMO_PATIENT_EMAIL));

  const past: PastVisit[] = [
    {
      eventName: "Colchester Rugby Club Screening",
      slotTime: "11:15",
      result: {
        psaValue: "0.86",
        flag: "green",
        retestYears: 2,
        comments: "Your PSA is in the normal range for your age.",
        releasedAfterDays: 4,
      },
    },
    {
      eventName: "Ipswich Corn Exchange Health Morning",
      slotTime: "09:45",
      result: {
        psaValue: "2.74",
        flag: "amber",
        retestYears: null,
        comments:
          "Your PSA is a little raised for your age. Please repeat the test in 3 months; we will remind you.",
        releasedAfterDays: 3,
      },
    },
    { eventName: "Romford Masonic Centre Screening", slotTime: "18:30" },
  ];
  const events = await demoEventsNamed(
    tx,
    past.map((visit) => visit.eventName),
  );
  const bands = await listThresholds(tx);
  for (const visit of past) {
    const found = events.find((candidate) => candidate.event.name === visit.eventName);
    if (!found) continue;
    const row = found.event;
    const bookedAt = new Date(londonInstant(row.eventDate, "09:00").getTime() - 7 * 86_400_000);
    const [made] = await tx
      .insert(booking)
      .values({
        reference: generateBookingReference(),
        eventId: row.id,
        userId,
        slotTime: visit.slotTime,
        status: "confirmed",
        holdExpiresAt: null,
        ...demoPayment(found),
        confirmedAt: bookedAt,
        arrivedAt: londonInstant(row.eventDate, visit.slotTime),
        sampleId: `DEMO-${row.eventDate.replaceAll("-", "")}-${visit.slotTime.replace(":", "")}`,
        sampleTakenAt: londonInstant(row.eventDate, visit.slotTime),
        createdAt: bookedAt,
        updatedAt: bookedAt,
      })
      .returning({ id: booking.id });
    await tx.insert(consent).values({
      bookingId: made!.id,
      userId,
      testDate: row.eventDate,
      answers,
      gpConsent: true,
      wordingVersion: CONSENT_WORDING_VERSION,
      agreedAt: bookedAt,
    });
    if (visit.result) {
      const releasedOn = addLondonDays(row.eventDate, visit.result.releasedAfterDays);
      // Released as a clinician would have: for his age at the sample.
      const age = ageAtSample(profileDraft.dateOfBirth ?? null, row.eventDate, row.eventDate);
      await tx.insert(testResult).values({
        bookingId: made!.id,
        psaValue: visit.result.psaValue,
        unit: "ng/ml",
        flag: visit.result.flag,
        retestYears: visit.result.retestYears,
        comments: visit.result.comments,
        sampleDate: row.eventDate,
        suggestedFlag: suggestFlag(visit.result.psaValue, age, bands),
        flagDecidedAge: age,
        releasedAt: londonInstant(releasedOn, "10:00"),
      });
    }
  }

  // The upcoming booking goes through the booking service, as a visitor's would.
  const [upcoming] = await tx
    .select({ id: event.id })
    .from(event)
    .where(eq(event.name, "Stratford Community PSA Morning"));
  if (upcoming) {
    const held = await holdPlace(
      tx,
      { eventId: upcoming.id, userId, slotTime: "10:00", clientAddress: "demo-seed" },
      now,
    );
    if (held.ok) {
      await submitConsent(
        tx,
        { userId, reference: held.booking.reference, form: { answers, gpConsent: true } },
        now,
      );
    }
  }
}
