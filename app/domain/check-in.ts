import { z } from "zod";
import { formatLondonTime, formatLongDate } from "./date-labels";
import { londonInstant } from "./london-time";

/**
 * Check-in on the day of an event: a booked person arrives (or does not), and a blood sample is
 * taken and labelled with the tube's sample id, typed or read by a barcode scanner. A sample
 * implies that he arrived. Every mark can be undone, in case of a mistaken tap.
 */

export const CHECK_IN_STATES = ["waiting", "arrived", "no_show", "sample_taken"] as const;
export type CheckInState = (typeof CHECK_IN_STATES)[number];

export function isCheckInState(value: unknown): value is CheckInState {
  return typeof value === "string" && (CHECK_IN_STATES as readonly string[]).includes(value);
}

export interface CheckInFields {
  arrivedAt: Date | null;
  noShowAt: Date | null;
  sampleId: string | null;
  sampleTakenAt: Date | null;
}

export function checkInState(fields: CheckInFields): CheckInState {
  if (fields.sampleId !== null || fields.sampleTakenAt !== null) return "sample_taken";
  if (fields.arrivedAt !== null) return "arrived";
  if (fields.noShowAt !== null) return "no_show";
  return "waiting";
}

export const SAMPLE_ID_MAX = 40;

export const CHECK_IN_MESSAGES = {
  sampleIdMissing: "Enter the sample id from the tube's label, or scan its barcode",
  sampleIdTooLong: `The sample id must be ${SAMPLE_ID_MAX} characters or fewer`,
  sampleIdCharacters:
    "The sample id can only contain letters, numbers and hyphens, and must start with a letter or number",
  sampleIdInUse: (reference: string) =>
    `This sample id is already recorded for booking ${reference}. Check the tube's label and scan or type it again.`,
  sampleIdInUseElsewhere:
    "This sample id is already recorded for a booking at another event. Check the tube's label and scan or type it again.",
  sampleAlready: (sampleId: string) =>
    `A sample (${sampleId}) is already recorded for this person. Undo it first if it was a mistake.`,
  noShowAfterSample:
    "A sample is recorded for this person, so he cannot be a no-show. Undo the sample first if it was a mistake.",
  changedMeanwhile:
    "This person's check-in changed since the page was loaded. Check the row and try again.",
  notConfirmed: "Only confirmed bookings can be checked in.",
  accountDeleted: "He has deleted his account, so no sample can be recorded for this booking.",
  noNhsNumber:
    "This event's laboratory needs his NHS number, and none is recorded for him. Ask him for it and add it with 'Correct date of birth or NHS number', then record the sample.",
  noConsent:
    "No consent is recorded for him, so no sample can be taken yet. E-mail him the consent form to fill in on his phone, then record the sample.",
  notYet: (appointmentDate: string) =>
    `Check-in opens on the day of the appointment, ${formatLongDate(appointmentDate)}.`,
  notDueYet: (slotTime: string) =>
    `He is not due until ${slotTime}: mark him as a no-show once his time has passed. If he has told you he is not coming, cancel his booking instead, so that someone else can have the place.`,
  notEndedYet: (endTime: string) =>
    `Everyone still waiting can be marked as a no-show once the event has ended, at ${endTime}.`,
  resultImported:
    "A result has already been imported for this sample, so it cannot be undone here. If the sample was recorded for the wrong man, ask a clinician to withdraw the result on its page first.",
  intent: "Choose what to record",
  booking: "Choose a booking",
} as const;

/**
 * A sample id as the scanner or the person typed it: trimmed, 1 to 40 letters, digits and
 * hyphens, starting with a letter or digit (so a spreadsheet never reads it as a formula).
 */
export const sampleIdField = z
  .string({ error: CHECK_IN_MESSAGES.sampleIdMissing })
  .trim()
  .min(1, { error: CHECK_IN_MESSAGES.sampleIdMissing })
  .max(SAMPLE_ID_MAX, { error: CHECK_IN_MESSAGES.sampleIdTooLong })
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, { error: CHECK_IN_MESSAGES.sampleIdCharacters });

const bookingId = z.guid({ error: CHECK_IN_MESSAGES.booking });

/** One check-in form: the button pressed (`intent`) and the booking it is about. */
export const checkInSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("arrived"), bookingId }),
    /**
     * `from` is the state the page showed, so a stale page cannot wipe out an arrival. A page
     * loaded before it was sent has none: refused as changed, in the person's row.
     */
    z.object({
      intent: z.literal("no-show"),
      bookingId,
      from: z.enum(["waiting", "arrived"]).optional().catch(undefined),
    }),
    z.object({ intent: z.literal("sample"), bookingId, sampleId: sampleIdField }),
    /**
     * `from` is the state the page showed, and for a sample the id it showed, so a stale page
     * cannot undo something else: another tablet's newer sample above all.
     */
    z.object({
      intent: z.literal("undo"),
      bookingId,
      from: z.enum(["arrived", "no_show", "sample_taken"], { error: CHECK_IN_MESSAGES.intent }),
      sampleId: z.string().trim().max(SAMPLE_ID_MAX).optional().catch(undefined),
    }),
  ],
  { error: CHECK_IN_MESSAGES.intent },
);

export type CheckInCommand = z.output<typeof checkInSchema>;

/** "Mark as no-shows" at closing time: the bookings the page listed as still waiting. */
export const noShowsAtClosingSchema = z.object({
  bookingIds: z.array(bookingId).min(1, { error: CHECK_IN_MESSAGES.booking }).max(1000),
});
export type CheckInIntent = CheckInCommand["intent"];

export type CheckInOutcome =
  | {
      ok: true;
      from: CheckInState;
      to: CheckInState;
      /** false when the booking already was in the state asked for (a second tap). */
      changed: boolean;
      changes: Partial<CheckInFields>;
    }
  | { ok: false; error: string; field: "sampleId" | "checkIn" };

/** Today and the appointment's day, both "yyyy-MM-dd" in London. */
export interface CheckInDay {
  today: string;
  appointmentDate: string;
  /** when his appointment starts: before then he cannot have failed to come */
  appointmentStart?: Date;
}

/**
 * Check-in opens on the appointment's day (London) and stays open after it: before that day nobody
 * can have arrived or given a sample, so nothing can be recorded (and no result can follow).
 */
export function checkInOpen({ today, appointmentDate }: CheckInDay): boolean {
  return today >= appointmentDate;
}

/**
 * Whether everyone still waiting may be marked as a no-show in one go: once the event has ended
 * (its day and end time, London). Before then a late arrival is still a man on his way.
 */
export function closingTimeReached(event: { eventDate: string; endTime: string }, now: Date) {
  return londonInstant(event.eventDate, event.endTime).getTime() <= now.getTime();
}

/** Sample ids are compared without regard to case: a scanner and a person may differ. */
export function sameSampleId(a: string, b: string) {
  return a.toUpperCase() === b.toUpperCase();
}

/** The state an undo leaves behind: a sample undone keeps the arrival it implied. */
const UNDONE: Record<Exclude<CheckInState, "waiting">, CheckInState> = {
  sample_taken: "arrived",
  arrived: "waiting",
  no_show: "waiting",
};

/**
 * What a check-in command changes on a booking, or why it cannot. Arrived, no-show and sample are
 * refused before the appointment's day; an undo is always allowed.
 */
export function applyCheckIn(
  current: CheckInFields,
  command: CheckInCommand,
  now: Date,
  day: CheckInDay,
): CheckInOutcome {
  if (command.intent !== "undo" && !checkInOpen(day))
    return { ok: false, error: CHECK_IN_MESSAGES.notYet(day.appointmentDate), field: "checkIn" };
  const from = checkInState(current);
  const unchanged = { ok: true as const, from, to: from, changed: false, changes: {} };
  const to = (changes: Partial<CheckInFields>): CheckInOutcome => ({
    ok: true,
    from,
    to: checkInState({ ...current, ...changes }),
    changed: true,
    changes,
  });

  switch (command.intent) {
    case "arrived":
      if (from === "arrived" || from === "sample_taken") return unchanged;
      return to({ arrivedAt: now, noShowAt: null });
    case "no-show":
      if (from === "no_show") return unchanged;
      if (from === "sample_taken")
        return { ok: false, error: CHECK_IN_MESSAGES.noShowAfterSample, field: "checkIn" };
      // He was marked arrived on another tablet after this page was loaded: that stands.
      if (from !== command.from)
        return { ok: false, error: CHECK_IN_MESSAGES.changedMeanwhile, field: "checkIn" };
      // Not come yet is not a no-show (one who came and left may be marked at any time).
      if (
        from === "waiting" &&
        day.appointmentStart &&
        now.getTime() < day.appointmentStart.getTime()
      )
        return {
          ok: false,
          error: CHECK_IN_MESSAGES.notDueYet(formatLondonTime(day.appointmentStart)),
          field: "checkIn",
        };
      return to({ noShowAt: now, arrivedAt: null });
    case "sample":
      if (from === "sample_taken") {
        if (current.sampleId !== null && sameSampleId(current.sampleId, command.sampleId))
          return unchanged;
        return {
          ok: false,
          error: CHECK_IN_MESSAGES.sampleAlready(current.sampleId ?? ""),
          field: "sampleId",
        };
      }
      return to({
        sampleId: command.sampleId,
        sampleTakenAt: now,
        arrivedAt: current.arrivedAt ?? now,
        noShowAt: null,
      });
    case "undo": {
      // Already as the undo leaves it: a second tap on a slow line, or another tablet's undo.
      if (from === UNDONE[command.from]) return unchanged;
      const changedMeanwhile = {
        ok: false as const,
        error: CHECK_IN_MESSAGES.changedMeanwhile,
        field: "checkIn" as const,
      };
      if (from !== command.from) return changedMeanwhile;
      if (from === "sample_taken") {
        // A sample whose id was erased with the rest of an old record has none to compare.
        const shown = command.sampleId;
        if (current.sampleId !== null && (!shown || !sameSampleId(current.sampleId, shown)))
          return changedMeanwhile;
        return to({ sampleId: null, sampleTakenAt: null });
      }
      if (from === "arrived") return to({ arrivedAt: null });
      return to({ noShowAt: null });
    }
  }
}
