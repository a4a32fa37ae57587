import { and, desc, eq, isNotNull, lte, or } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { booking, event, profile, screeningProduct, testResult } from "#app/db/schema";
import { checkInState } from "#app/domain/check-in";
import { londonInstant } from "#app/domain/london-time";
import { toBookingView } from "./view.server";

/**
 * A patient's own appointments and released results (`/medical-results` and
 * GET /api/medical/results/{profileId}). Only ever read by the signed-in person's id.
 */

export interface AppointmentResult {
  /** "1.23" as the laboratory reported it */
  value: string | null;
  unit: string;
  /** green: retest in `retestYears`; amber: repeat in 3 months; red: see your GP. Null until a clinician sets it. */
  flag: "green" | "amber" | "red" | null;
  retestYears: number | null;
  comments: string | null;
  /** "yyyy-MM-dd" */
  sampleDate: string | null;
  releasedAt: Date;
}

export interface AppointmentWithResult {
  reference: string;
  eventId: string;
  eventName: string;
  productName: string;
  /** "yyyy-MM-dd" */
  eventDate: string;
  slotStart: string;
  slotEnd: string;
  address: string;
  /** the appointment is still ahead */
  upcoming: boolean;
  /** a released result ("Lab result ready"), or null ("No lab result") */
  result: AppointmentResult | null;
  labResultReady: boolean;
  /** staff recorded that he did not come: no sample, so no result to wait for */
  missed: boolean;
}

/**
 * The signed-in person's confirmed appointments, newest first, each with its result once staff
 * have released it (unreleased results are invisible), and any other booking of theirs that has
 * a released result. Only that person's rows.
 */
export async function listAppointmentsAndResults(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<AppointmentWithResult[]> {
  const rows = await db
    .select({
      booking,
      event,
      productName: screeningProduct.name,
      result: testResult,
    })
    .from(booking)
    .innerJoin(event, eq(booking.eventId, event.id))
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .leftJoin(
      testResult,
      and(
        eq(testResult.bookingId, booking.id),
        isNotNull(testResult.releasedAt),
        lte(testResult.releasedAt, now),
      ),
    )
    // A released result is shown whatever became of its booking since (a cancelled event never
    // takes a result away; before issue 14 a cancellation could cancel a tested booking).
    .where(
      and(
        eq(booking.userId, userId),
        or(eq(booking.status, "confirmed"), isNotNull(testResult.id)),
      ),
    )
    .orderBy(desc(event.eventDate), desc(booking.slotTime));
  return rows.map((row) => {
    const view = toBookingView(row, now);
    const result: AppointmentResult | null = row.result
      ? {
          value: row.result.psaValue,
          unit: row.result.unit,
          flag: row.result.flag,
          retestYears: row.result.retestYears,
          comments: row.result.comments,
          sampleDate: row.result.sampleDate,
          releasedAt: row.result.releasedAt!,
        }
      : null;
    return {
      reference: view.reference,
      eventId: view.eventId,
      eventName: view.eventName,
      productName: view.productName,
      eventDate: view.eventDate,
      slotStart: view.slotStart,
      slotEnd: view.slotEnd,
      address: view.address,
      upcoming: londonInstant(view.eventDate, view.slotEnd).getTime() > now.getTime(),
      result,
      labResultReady: result !== null,
      missed: checkInState(row.booking) === "no_show",
    };
  });
}

/**
 * The same, asked for by profile id (GET /api/medical/results/{profileId}): only the signed-in
 * person's own profile answers. Null for any other id, existing or not, so that nobody learns
 * whose ids are real.
 */
export async function appointmentsForProfile(
  db: Db,
  input: { userId: string; profileId: string | undefined },
  now = new Date(),
): Promise<AppointmentWithResult[] | null> {
  if (!input.profileId) return null;
  const [own] = await db
    .select({ id: profile.id })
    .from(profile)
    .where(
      and(
        eq(profile.userId, input.userId),
        // The portal's "ID: MHAT…" (the reference) or the internal id.
        or(eq(profile.id, input.profileId), eq(profile.reference, input.profileId.toUpperCase())),
      ),
    );
  if (!own) return null;
  return listAppointmentsAndResults(db, input.userId, now);
}
