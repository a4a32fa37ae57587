import { and, asc, eq, gte, inArray, ne } from "drizzle-orm";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import { booking, consent, event, profile, screeningProduct, testResult } from "#app/db/schema";
import { type ChangeRefusal } from "#app/domain/booking-change";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { bookingStage, canTake, isHoldLive, PLACE_STATUSES } from "#app/domain/booking-lifecycle";
import { bookingCalendar } from "#app/domain/calendar";
import { changeTerms, type ChangeTerms } from "#app/domain/cancellation-policy";
import { formatLongDate } from "#app/domain/date-labels";
import { bookingTermsSentences } from "#app/domain/terms-wording";
import { bookingEligibility } from "#app/domain/eligibility";
import { eventAddress, isCorporateOnly } from "#app/domain/events";
import { londonDate, londonInstant } from "#app/domain/london-time";
import { bookingCharge } from "#app/domain/pricing";
import { remindedByMove } from "#app/domain/reminders";
import { slotChoices, type SlotChoice } from "#app/domain/slot-choices";
import { enqueueEmail, type OutgoingEmail } from "../email.server";
import { eventsChanged, isEventId } from "../events.server";
import { offerFreedPlaces } from "../waitlist.server";
import { manageBookingUrl } from "../booking-links.server";
import { siteHost } from "./calendar.server";
import {
  eventClosedTo,
  hhmm,
  lockBooking,
  lockEvent,
  lockPerson,
  placeProblem,
  placeProblemGiven,
  placesTaken,
  type Booking,
  type EventRow,
} from "./places.server";
import { bookingRecipient, toBookingView, type BookingView } from "./view.server";

/**
 * A patient moves his own confirmed booking to another free time, of the same event or of another
 * one like it (same product, same price, same payment), online. The booking row itself moves, so
 * its payment, consent and reference go with it: he never holds both places, nor neither.
 */

const helpline = organisation.phones.booking;

/** What the patient pays for an event: product, and the charge in pence (0 when free). */
function chargeFor(ev: EventRow, productPrice: number) {
  const { paid, pricePence } = bookingCharge(ev, productPrice);
  return { productId: ev.productId, paymentRequired: paid, pricePence };
}

/** The same product, price and payment requirement as the booking has. */
function sameTerms(row: Booking, oldEvent: EventRow, target: EventRow, productPrice: number) {
  const charge = chargeFor(target, productPrice);
  return (
    charge.productId === oldEvent.productId &&
    charge.paymentRequired === row.paymentRequired &&
    charge.pricePence === row.pricePence
  );
}

/**
 * Why his booking may not move to `target`, or null. At his own event he keeps what he booked on
 * (its price, its access and his eligibility as they were judged then), so only its being
 * published is asked; another event must be open to him, on the same terms, and one he may book.
 * The change page and the change itself both ask here.
 */
async function moveRefusal(
  db: Db,
  userId: string,
  row: Booking,
  own: EventRow,
  target: EventRow,
  targetProductPrice: number,
  person: Awaited<ReturnType<typeof personForEligibility>>,
): Promise<"event-not-found" | "locked" | "different-terms" | "not-eligible" | null> {
  if (target.id === own.id) return target.status === "published" ? null : "event-not-found";
  const closed = await eventClosedTo(db, target, userId);
  if (closed) return closed;
  if (!sameTerms(row, own, target, targetProductPrice)) return "different-terms";
  if (!bookingEligibility(person, target).eligible) return "not-eligible";
  return null;
}

/** Whether the booking can be moved at all at `now`: its stage, and the policy's notice. */
function bookingChangeTerms(
  row: Booking,
  ev: EventRow,
  hasResult: boolean,
  now: Date,
): ChangeTerms & { stageAllows: boolean } {
  const stage = bookingStage(row);
  const terms = changeTerms({
    appointmentStart: londonInstant(ev.eventDate, row.slotTime),
    now,
    paidPence: row.paymentStatus === "paid" ? row.pricePence : 0,
    sampleTakenOrResult: stage === "sample_taken" || hasResult,
  });
  return { ...terms, stageAllows: canTake(stage, "patient-change") };
}

function termsRefusal(terms: ReturnType<typeof bookingChangeTerms>): ChangeRefusal | null {
  if (!terms.allowed) return terms.reason;
  if (!terms.stageAllows) return "not-changeable";
  return null;
}

/** Whether a result came in for the booking (a move or a cancellation would then lose it). */
export async function hasResult(db: Db, bookingId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: testResult.id })
    .from(testResult)
    .where(eq(testResult.bookingId, bookingId));
  return Boolean(row);
}

async function productPrice(db: Db, productId: string): Promise<number> {
  const [row] = await db
    .select({ pricePence: screeningProduct.pricePence })
    .from(screeningProduct)
    .where(eq(screeningProduct.id, productId));
  return row?.pricePence ?? 0;
}

async function personForEligibility(db: Db, userId: string) {
  const [row] = await db
    .select({ dateOfBirth: profile.dateOfBirth, nhsNumber: profile.nhsNumber })
    .from(profile)
    .where(eq(profile.userId, userId));
  return row ?? { dateOfBirth: null, nhsNumber: null };
}

export interface ChangedBooking {
  reference: string;
  eventId: string;
  slotTime: string;
  eventDate: string;
  calendarVersion: number;
  from: { eventId: string; slotTime: string; eventDate: string };
}

export type ChangeResult =
  { ok: true; booking: ChangedBooking } | { ok: false; reason: ChangeRefusal };

/**
 * Moves the person's own confirmed booking `reference` to `slotTime` at `eventId`, in one
 * transaction: the person, then both events (by id, so two changes between the same events never
 * wait for each other in a circle), then the booking are locked; every rule is checked; the
 * booking row moves (a new calendar version); its consent's test date follows it; one e-mail with
 * the new calendar entry and the old one's cancellation is queued; the freed place is offered to
 * the old event's waiting list.
 */
export async function changeOwnBooking(
  db: Db,
  input: { userId: string; reference: string; eventId: string; slotTime: string },
  now = new Date(),
): Promise<ChangeResult> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return { ok: false, reason: "not-found" };
  if (!isEventId(input.eventId)) return { ok: false, reason: "event-not-found" };
  if (!/^\d{2}:\d{2}$/.test(input.slotTime)) return { ok: false, reason: "slot-unavailable" };

  const result = await db.transaction(async (tx): Promise<ChangeResult> => {
    await lockPerson(tx, input.userId);
    // Which event the booking is at now: only his own changes move it, and they wait for the
    // person's lock just taken.
    const [found] = await tx
      .select({ id: booking.id, eventId: booking.eventId })
      .from(booking)
      .where(and(eq(booking.reference, reference), eq(booking.userId, input.userId)));
    if (!found) return { ok: false, reason: "not-found" };

    const eventIds = [...new Set([found.eventId, input.eventId])].sort();
    const locked = new Map<string, EventRow | undefined>();
    for (const id of eventIds) locked.set(id, await lockEvent(tx, id));
    const oldEvent = locked.get(found.eventId)!;
    const target = locked.get(input.eventId);

    const row = await lockBooking(tx, found.id);
    if (row.userId !== input.userId || row.eventId !== found.eventId)
      return { ok: false, reason: "not-changeable" };

    // Where he already is: before the notice the policy asks, so that a second press of the same
    // change is known as one even when the time it moved to is too near to change again.
    if (
      input.eventId === row.eventId &&
      row.slotTime === input.slotTime &&
      canTake(bookingStage(row), "patient-change") &&
      oldEvent.status === "published"
    )
      return { ok: false, reason: "same-time" };
    const refused = termsRefusal(
      bookingChangeTerms(row, oldEvent, await hasResult(tx, row.id), now),
    );
    if (refused) return { ok: false, reason: refused };

    if (!target) return { ok: false, reason: "event-not-found" };
    const taking = await targetRefusal(tx, {
      userId: input.userId,
      row,
      oldEvent,
      target,
      slotTime: input.slotTime,
      now,
    });
    if (!taking.ok) return taking;

    const moved = await moveBookingRow(tx, {
      row,
      oldEvent,
      target,
      slotTime: input.slotTime,
      letGo: taking.toLetGo,
      by: "patient",
      now,
    });

    return {
      ok: true,
      booking: {
        reference: moved.reference,
        eventId: target.id,
        slotTime: moved.slotTime,
        eventDate: target.eventDate,
        calendarVersion: moved.calendarVersion,
        from: { eventId: oldEvent.id, slotTime: row.slotTime, eventDate: oldEvent.eventDate },
      },
    };
  });
  if (result.ok) eventsChanged();
  return result;
}

/**
 * Whether his locked booking `row` may take `slotTime` at `target`, with both events locked: the
 * event open to him on the booking's terms (`moveRefusal`), no other booking of his there (a hold
 * of his that ran out is let go, as a new hold would let it go: `toLetGo`), and a free place at
 * that time. His own change and a coordinator's move to another event both ask here.
 */
export async function targetRefusal(
  tx: Db,
  details: {
    userId: string;
    row: Booking;
    oldEvent: EventRow;
    target: EventRow;
    slotTime: string;
    now: Date;
  },
): Promise<{ ok: false; reason: ChangeRefusal } | { ok: true; toLetGo: string[] }> {
  const { userId, row, oldEvent, target, slotTime, now } = details;
  const moveRefused = await moveRefusal(
    tx,
    userId,
    row,
    oldEvent,
    target,
    await productPrice(tx, target.productId),
    await personForEligibility(tx, userId),
  );
  if (moveRefused) return { ok: false, reason: moveRefused };

  // His other bookings at the chosen event: one active booking per person per event.
  const toLetGo: string[] = [];
  if (target.id !== row.eventId) {
    const there = await tx
      .select()
      .from(booking)
      .where(
        and(
          eq(booking.eventId, target.id),
          eq(booking.userId, userId),
          inArray(booking.status, [...PLACE_STATUSES]),
        ),
      )
      .orderBy(booking.id)
      .for("update");
    for (const other of there) {
      const stage = bookingStage(other);
      const lapsed =
        (stage === "held" || stage === "consented") &&
        other.paymentStatus !== "pending" &&
        !isHoldLive(other, now);
      if (!lapsed) return { ok: false, reason: "already-booked" };
      toLetGo.push(other.id);
    }
  }

  const problem = await placeProblem(tx, target, slotTime, now, row.id);
  if (problem) return { ok: false, reason: problem };
  return { ok: true, toLetGo };
}

/** Who moves the booking: he himself online, or a coordinator when he asks (D-190). */
export type Mover = "patient" | "staff";

/**
 * Moves the locked booking `row` to `slotTime` at `target` once every rule has been checked: his
 * lapsed holds there are let go; a new calendar version, and no reminder yet for the new time; his
 * consent's test date follows it; the two e-mails are queued; the freed place is offered to the
 * old event's waiting list. The patient's change and the coordinator's move both end here.
 */
export async function moveBookingRow(
  tx: Db,
  details: {
    row: Booking;
    oldEvent: EventRow;
    target: EventRow;
    slotTime: string;
    /** his lapsed holds at `target` (`targetRefusal`), let go for this place */
    letGo?: readonly string[];
    by: Mover;
    now: Date;
  },
): Promise<Booking> {
  const { row, oldEvent, target, slotTime, letGo = [], by, now } = details;
  if (letGo.length > 0)
    await tx
      .update(booking)
      .set({ status: "expired", updatedAt: now })
      .where(inArray(booking.id, [...letGo]));
  const [moved] = await tx
    .update(booking)
    .set({
      eventId: target.id,
      slotTime,
      calendarVersion: row.calendarVersion + 1,
      // The reminder is for the new time, unless the move's own e-mail stands as it.
      reminderSentAt: remindedByMove(
        londonInstant(target.eventDate, slotTime),
        now,
        config().REMINDER_HOURS_BEFORE,
      )
        ? now
        : null,
      updatedAt: now,
    })
    .where(eq(booking.id, row.id))
    .returning();
  if (target.eventDate !== oldEvent.eventDate)
    await tx
      .update(consent)
      .set({ testDate: target.eventDate })
      .where(eq(consent.bookingId, row.id));
  for (const message of await changeEmails(tx, {
    before: row,
    after: moved!,
    oldEvent,
    target,
    by,
    now,
  }))
    await enqueueEmail(tx, message);
  await offerFreedPlaces(tx, oldEvent, now);
  return moved!;
}

/**
 * The e-mails for a changed booking: the new time with its calendar entry, then the old time's
 * cancellation. Two messages, because mail programs act on one calendar file per message. No
 * health data.
 */
async function changeEmails(
  tx: Db,
  details: {
    before: Booking;
    after: Booking;
    oldEvent: EventRow;
    target: EventRow;
    by: Mover;
    now: Date;
  },
): Promise<OutgoingEmail[]> {
  const { before, after, oldEvent, target, by, now } = details;
  const person = await bookingRecipient(tx, after.userId);
  const [product] = await tx
    .select({ name: screeningProduct.name })
    .from(screeningProduct)
    .where(eq(screeningProduct.id, target.productId));
  const productName = product?.name ?? "";
  const was = toBookingView({ booking: before, event: oldEvent, productName }, now);
  const is = toBookingView({ booking: after, event: target, productName }, now);
  const lines = [
    `Hello ${person.firstName},`,
    "",
    by === "staff"
      ? "We have moved your screening appointment to a new time, as you asked us to."
      : "Your screening appointment has been moved to a new time.",
    "",
    `Booking reference: ${is.reference}`,
    "",
    "Your new appointment",
    ...appointmentLines(is),
    "",
    "Your old appointment (cancelled)",
    ...appointmentLines(was),
    "",
    "The calendar entry for your new appointment is attached. A second e-mail removes the old one from your calendar.",
    "",
    // The new day's own dates: a move to another day moves the refund and change deadlines too.
    "Changing or cancelling",
    ...bookingTermsSentences({
      appointmentStart: londonInstant(target.eventDate, after.slotTime),
      now,
      paidPence: after.paymentStatus === "paid" ? after.pricePence : 0,
      sampleTakenOrResult: false,
    }),
    "",
    `See your booking (you will be asked to sign in if you are not already): ${manageBookingUrl({
      id: after.id,
      userId: after.userId,
      reference: after.reference,
      eventDate: target.eventDate,
    })}`,
    "",
    `If you did not ${by === "staff" ? "ask for" : "make"} this change, or need help, call our ${helpline.label.toLowerCase()} on ${helpline.display} or e-mail ${organisation.emails.bookings}, quoting your booking reference.`,
    "",
    organisation.name,
  ];
  const oldTimeLines = [
    `Hello ${person.firstName},`,
    "",
    `${by === "staff" ? "As you asked, we moved" : "You moved"} your screening appointment (booking reference ${is.reference}) to ${formatLongDate(is.eventDate)} at ${is.slotStart}. This is the old time, which is now cancelled:`,
    "",
    ...appointmentLines(was),
    "",
    "The attached calendar file removes it from your calendar. Please do not come at the old time.",
    "",
    organisation.name,
  ];
  const shortName = organisation.shortName.toLowerCase();
  return [
    {
      to: person.email,
      subject: `Your ${organisation.shortName} screening booking ${is.reference} has a new time`,
      text: lines.join("\n"),
      attachments: [
        {
          filename: `${shortName}-booking-${is.reference}.ics`,
          contentType: "text/calendar; charset=utf-8; method=PUBLISH",
          content: calendarFor(is, target, after.calendarVersion, now, "PUBLISH"),
        },
      ],
    },
    {
      to: person.email,
      // The calendar entry, not the appointment, is cancelled: the subject says so (a man who sees
      // it above the new time must not think his booking is gone).
      subject: `The old calendar entry for your ${organisation.shortName} appointment is cancelled (${is.reference})`,
      text: oldTimeLines.join("\n"),
      attachments: [
        {
          filename: `${shortName}-booking-${is.reference}-old-time-cancelled.ics`,
          contentType: "text/calendar; charset=utf-8; method=CANCEL",
          content: calendarFor(was, oldEvent, before.calendarVersion, now, "CANCEL"),
        },
      ],
    },
  ];
}

function appointmentLines(view: BookingView): string[] {
  return [
    `Event: ${view.eventName}`,
    `Date: ${formatLongDate(view.eventDate)}`,
    `Time: ${view.slotStart} to ${view.slotEnd} (UK time)`,
    `Address: ${view.address}`,
  ];
}

function calendarFor(
  view: BookingView,
  ev: EventRow,
  calendarVersion: number,
  now: Date,
  method: "PUBLISH" | "CANCEL",
): string {
  return bookingCalendar({
    reference: view.reference,
    eventName: view.eventName,
    eventDate: view.eventDate,
    slotTime: view.slotStart,
    sessionMinutes: ev.sessionDuration,
    location: view.address,
    latitude: ev.latitude,
    longitude: ev.longitude,
    uidHost: siteHost(),
    stamp: now,
    calendarVersion,
    method,
    paidPence: view.paymentStatus === "paid" ? view.pricePence : 0,
  });
}

/* ------------------------------------------------------------------------------------------ */
/* What the change page shows                                                                  */
/* ------------------------------------------------------------------------------------------ */

export interface ChangeEventOption {
  id: string;
  name: string;
  /** "yyyy-MM-dd" */
  eventDate: string;
  startTime: string;
  endTime: string;
  address: string;
  /** how long each appointment takes */
  sessionMinutes: number;
  /** the booking's own event */
  current: boolean;
  availableTimes: number;
  /** reserved for the host employer's staff: said beside it, as on the event's card */
  corporateOnly: boolean;
}

export interface ChangePage {
  booking: BookingView;
  /** null when it can be changed; else why not */
  refusal: ChangeRefusal | null;
  /** the last instant a change is free, when the booking is still ahead */
  until: Date | null;
  /** the events he may move to, his own first, then by date */
  events: ChangeEventOption[];
  /** the event whose times are offered (his own unless he chose another) */
  chosen: ChangeEventOption | null;
  /** the chosen event's times; his own time is marked by `booking.slotStart` when it is his event */
  times: SlotChoice[];
}

/** How many other events the page lists at most (soonest first). */
export const MAX_OTHER_EVENTS = 20;

/**
 * What the change page shows the signed-in person for his booking `reference`, or null (not his,
 * or unknown: a 404). `eventId` is the event he chose to see the times of; his own by default.
 */
export async function changePage(
  db: Db,
  input: { userId: string; reference: string; eventId?: string | null },
  now = new Date(),
): Promise<ChangePage | null> {
  const reference = normaliseBookingReference(input.reference);
  if (!reference) return null;
  const [found] = await db
    .select({ booking, event, productName: screeningProduct.name })
    .from(booking)
    .innerJoin(event, eq(booking.eventId, event.id))
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .where(and(eq(booking.reference, reference), eq(booking.userId, input.userId)));
  if (!found) return null;
  const view = toBookingView(found, now);
  const terms = bookingChangeTerms(
    found.booking,
    found.event,
    await hasResult(db, found.booking.id),
    now,
  );
  const refusal = termsRefusal(terms);
  const until = terms.until;
  if (refusal) return { booking: view, refusal, until, events: [], chosen: null, times: [] };

  const events = await eventOptions(db, found.booking, found.event, input.userId, now);
  const chosen = events.find((option) => option.id === (input.eventId || found.event.id)) ?? null;
  let times: SlotChoice[] = [];
  if (chosen) {
    const [row] = await db.select().from(event).where(eq(event.id, chosen.id));
    times = await offeredTimes(db, row!, found.booking.id, now);
  }
  return { booking: view, refusal: null, until, events, chosen, times };
}

/**
 * An event's times for the move, counting every place but his booking's: each free, full or
 * passed. Unless `publicWindow` is false, a free time the public booking window closes (or the
 * event's total places) is shown as full, as his own change needs; a coordinator's move to
 * another time of his own event asks only for a free place.
 */
export async function offeredTimes(
  db: Db,
  row: EventRow,
  exceptBookingId: string,
  now: Date,
  { publicWindow = true }: { publicWindow?: boolean } = {},
): Promise<SlotChoice[]> {
  const taken = await placesTaken(db, row.id, now, { exceptBookingId });
  const choices = slotChoices(
    {
      eventDate: row.eventDate,
      startTime: hhmm(row.startTime),
      endTime: hhmm(row.endTime),
      sessionDuration: row.sessionDuration,
      placesPerSlot: row.placesPerSlot,
    },
    taken.perSlot,
    now,
  );
  if (!publicWindow) return choices;
  return choices.map((choice) =>
    choice.state === "available" && placeProblemGiven(row, taken, choice.time, now)
      ? { ...choice, state: "full" }
      : choice,
  );
}

/**
 * The events he may move to: his own, then published events ahead with the same product, price
 * and payment, open to him, that he can book and has no booking at, with a free time.
 */
export async function eventOptions(
  db: Db,
  row: Booking,
  own: EventRow,
  userId: string,
  now: Date,
): Promise<ChangeEventOption[]> {
  const candidates = await db
    .select({ event, productPrice: screeningProduct.pricePence })
    .from(event)
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .where(
      and(
        eq(event.productId, own.productId),
        eq(event.status, "published"),
        gte(event.eventDate, londonDate(now)),
      ),
    )
    .orderBy(asc(event.eventDate), asc(event.startTime), asc(event.id));
  const mine = await db
    .select({
      eventId: booking.eventId,
      status: booking.status,
      holdExpiresAt: booking.holdExpiresAt,
    })
    .from(booking)
    .where(
      and(
        eq(booking.userId, userId),
        ne(booking.id, row.id),
        inArray(booking.status, [...PLACE_STATUSES]),
      ),
    );
  const bookedAt = new Set(
    mine
      .filter((other) => other.status === "confirmed" || isHoldLive(other, now))
      .map((other) => other.eventId),
  );
  const person = await personForEligibility(db, userId);
  const options: ChangeEventOption[] = [];
  let others = 0;
  for (const { event: ev, productPrice: price } of candidates) {
    const current = ev.id === own.id;
    if (!current && (others >= MAX_OTHER_EVENTS || bookedAt.has(ev.id))) continue;
    if ((await moveRefusal(db, userId, row, own, ev, price, person)) !== null) continue;
    const times = await offeredTimes(db, ev, row.id, now);
    const availableTimes = times.filter(
      (choice) => choice.state === "available" && !(current && choice.time === row.slotTime),
    ).length;
    if (!current && availableTimes === 0) continue;
    if (!current) others++;
    options.push({
      id: ev.id,
      name: ev.name,
      eventDate: ev.eventDate,
      startTime: hhmm(ev.startTime),
      endTime: hhmm(ev.endTime),
      address: eventAddress(ev),
      sessionMinutes: ev.sessionDuration,
      current,
      availableTimes,
      corporateOnly: isCorporateOnly(ev.exclusiveFor),
    });
  }
  // His own event first, whatever its date.
  return options.sort((a, b) => Number(b.current) - Number(a.current));
}
