import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { booking, event, outboxEmail, waitlistEntry } from "#app/db/schema";
import { PermissionDenied } from "#app/domain/permissions";
import { cancelEvent } from "#app/services/admin-events.server";
import { viewAttendees } from "#app/services/attendees.server";
import { changeOwnBooking } from "#app/services/booking/change.server";
import { takeOfferedPlace } from "#app/services/booking/offer.server";
import { bookingPage } from "#app/services/booking/page.server";
import { lockEvent } from "#app/services/booking/places.server";
import { WORKER_JOBS } from "#app/services/booking/reconcile.server";
import { eventSlots, findEvent } from "#app/services/events.server";
import {
  joinWaitlist,
  leaveWaitlist,
  myWaitingLists,
  offerFor,
  offerFreedPlaces,
  waitlistState,
} from "#app/services/waitlist.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  insertBooking,
  insertConfirmedBookings,
  insertEvent,
  insertFreeEvent,
  insertPaidEvent,
  insertPatient,
  insertStaff,
  nextClientAddress,
  requestHold,
} from "#tests/support/fixtures";

const database = testDatabaseForThisFile();

/** Nine days before the fixture's event (10 June 2026, 10:00 to 12:00 London, 30-minute slots). */
const NOW = new Date("2026-06-01T09:00:00Z");
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);
/** WAITLIST_OFFER_HOURS's default: the tests set no environment. */
const OFFER_HOURS = 12;

const person = () => insertPatient(database.db);

/** A free event with `places` places, all at 10:00, every one of them booked. */
async function fullEvent(places = 2) {
  const ev = await insertFreeEvent(database.db, {
    totalSpaces: places,
    placesPerSlot: places,
    startTime: "10:00",
    endTime: "10:30",
  });
  const booked = await insertConfirmedBookings(database.db, ev.id, places, "10:00");
  return { ev, booked };
}

/** Cancels a booking straight in the database, as staff cancelling it leaves it. */
async function cancel(bookingId: string) {
  await database.db
    .update(booking)
    .set({ status: "cancelled", cancelledBy: "staff", cancelledAt: NOW })
    .where(eq(booking.id, bookingId));
}

const offersJob = WORKER_JOBS.find((job) => job.code === "waitlist_offers")!;

/** The messages queued for one address. */
const mailTo = (to: string) => database.db.select().from(outboxEmail).where(eq(outboxEmail.to, to));

async function entryOf(eventId: string, userId: string) {
  const rows = await database.db
    .select()
    .from(waitlistEntry)
    .where(and(eq(waitlistEntry.eventId, eventId), eq(waitlistEntry.userId, userId)));
  return rows.at(-1)!;
}

describe("joining and leaving a full event's waiting list", () => {
  it("gives each person their place in the queue, in the order they joined", async () => {
    const { ev } = await fullEvent();
    const [first, second, third] = [await person(), await person(), await person()];
    expect(await joinWaitlist(database.db, { eventId: ev.id, userId: first.id }, NOW)).toEqual({
      ok: true,
      position: 1,
    });
    expect(
      await joinWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(1)),
    ).toEqual({ ok: true, position: 2 });
    await joinWaitlist(database.db, { eventId: ev.id, userId: third.id }, hours(2));
    // Joining again keeps one's place.
    expect(
      await joinWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(3)),
    ).toEqual({ ok: true, position: 2 });
    const state = await waitlistState(database.db, { eventId: ev.id, userId: third.id }, hours(3));
    expect(state).toMatchObject({ closed: false, mine: { status: "waiting", position: 3 } });
    const active = await database.db
      .select()
      .from(waitlistEntry)
      .where(eq(waitlistEntry.eventId, ev.id));
    expect(active).toHaveLength(3);

    // The second leaves: the third moves up.
    expect(await leaveWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(4))).toBe(
      true,
    );
    expect(
      await waitlistState(database.db, { eventId: ev.id, userId: third.id }, hours(4)),
    ).toMatchObject({ mine: { status: "waiting", position: 2 } });
    expect(
      (await waitlistState(database.db, { eventId: ev.id, userId: second.id }, hours(4)))!.mine,
    ).toBeNull();
    // Leaving twice does nothing more.
    expect(await leaveWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(4))).toBe(
      false,
    );
  });

  it("is open only while no time is free, booking is open and the person has no place", async () => {
    const ev = await insertFreeEvent(database.db, { totalSpaces: 4, placesPerSlot: 2 });
    const someone = await person();
    expect(await joinWaitlist(database.db, { eventId: ev.id, userId: someone.id }, NOW)).toEqual({
      ok: false,
      reason: "times-free",
    });
    const { ev: full, booked } = await fullEvent();
    // Someone booked there has a place already.
    expect(
      await joinWaitlist(database.db, { eventId: full.id, userId: booked[0]!.userId }, NOW),
    ).toEqual({ ok: false, reason: "already-booked" });
    // Within 24 hours of the end (12:30 London on 10 June is 11:30Z), booking has closed.
    expect(
      await joinWaitlist(
        database.db,
        { eventId: full.id, userId: someone.id },
        new Date("2026-06-09T10:00:00Z"),
      ),
    ).toEqual({ ok: false, reason: "closed" });
    // Outside the age range on the day.
    const tooYoung = await insertPatient(database.db, { dateOfBirth: "1990-01-01" });
    expect(await joinWaitlist(database.db, { eventId: full.id, userId: tooYoung.id }, NOW)).toEqual(
      { ok: false, reason: "too-young" },
    );
    expect(
      await joinWaitlist(database.db, { eventId: crypto.randomUUID(), userId: someone.id }, NOW),
    ).toEqual({ ok: false, reason: "event-not-found" });
  });
});

describe("offering a freed place", () => {
  it("offers it to the first in line, holds it from everyone else, and e-mails the offer once", async () => {
    const { ev, booked } = await fullEvent();
    const first = await person();
    const second = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: first.id }, NOW);
    await joinWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(1));

    await cancel(booked[0]!.id);
    const freedAt = hours(2);
    // The seam the patient's cancellation calls, in its transaction with the event locked.
    const offered = await database.db.transaction(async (tx) =>
      offerFreedPlaces(tx, (await lockEvent(tx, ev.id))!, freedAt),
    );
    expect(offered).toBe(1);

    const entry = await entryOf(ev.id, first.id);
    expect(entry).toMatchObject({ status: "offered", offeredSlotTime: "10:00" });
    expect(entry.offerExpiresAt).toEqual(new Date(freedAt.getTime() + OFFER_HOURS * 3_600_000));
    expect((await entryOf(ev.id, second.id)).status).toBe("waiting");

    // The offer counts as a place taken: the event still shows full, and nobody else can take it.
    expect(await findEvent(database.db, ev.id, freedAt)).toMatchObject({
      booked_spaces: 2,
      spaces_left: 0,
      booking_status: "full",
    });
    const view = (await findEvent(database.db, ev.id, freedAt))!;
    expect(await eventSlots(database.db, view, freedAt)).toEqual({
      "2026-06-10": { availableTimeSlots: [] },
    });
    const stranger = await person();
    expect(
      await requestHold(
        database.db,
        { eventId: ev.id, userId: stranger.id, slotTime: "10:00" },
        freedAt,
      ),
    ).toMatchObject({ ok: false, reason: "event-unavailable" });

    // The e-mail: event, time, link, and no second offer when the worker passes by.
    const [mail, ...others] = await mailTo(first.email);
    expect(others).toEqual([]);
    expect(mail!.subject).toContain(ev.name);
    expect(mail!.text).toContain("10:00");
    expect(mail!.text).toContain(`/waiting-list/${entry.id}`);
    // What taking it leads to, money included (a free event here).
    expect(mail!.text).toContain("consent form, as when you book. This event is free.");
    await offersJob.run(database.db, hours(3));
    expect(await mailTo(first.email)).toHaveLength(1);
    expect(await mailTo(second.email)).toEqual([]);
    expect(
      await waitlistState(database.db, { eventId: ev.id, userId: first.id }, hours(3)),
    ).toMatchObject({ mine: { status: "offered", slotTime: "10:00", entryId: entry.id } });
  });

  it("shows the place held on the booking page to the person it is held for, and to nobody else", async () => {
    const { ev, booked } = await fullEvent();
    const first = await person();
    const other = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: first.id }, NOW);
    await cancel(booked[0]!.id);
    await database.db.transaction(async (tx) =>
      offerFreedPlaces(tx, (await lockEvent(tx, ev.id))!, hours(1)),
    );
    const entry = await entryOf(ev.id, first.id);
    const pageFor = (userId: string, at: Date) =>
      bookingPage(database.db, { userId, eventId: ev.id, browserUnlocks: [] }, at);

    const mine = (await pageFor(first.id, hours(2)))!;
    expect(mine.offer).toEqual({
      entryId: entry.id,
      slotTime: "10:00",
      expiresAt: new Date(hours(1).getTime() + OFFER_HOURS * 3_600_000),
    });
    // The time itself is not offered among the choices: it is taken on the offer's own page.
    expect(mine.choices.filter((choice) => choice.state === "available")).toEqual([]);
    expect((await pageFor(other.id, hours(2)))!.offer).toBeNull();
    // Once the offer's time is up it is not shown, whether or not the worker has been by.
    expect((await pageFor(first.id, hours(1 + OFFER_HOURS + 1)))!.offer).toBeNull();
  });

  it("says in the offer of a paid event's place what it costs", async () => {
    const ev = await insertPaidEvent(
      database.db,
      { totalSpaces: 1, placesPerSlot: 1, startTime: "10:00", endTime: "10:30" },
      3750,
    );
    const [only] = await insertConfirmedBookings(database.db, ev.id, 1, "10:00");
    const waiting = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: waiting.id }, NOW);
    await cancel(only!.id);
    await offersJob.run(database.db, hours(1));
    const [mail] = await mailTo(waiting.email);
    expect(mail!.text).toContain("then to payment (£37.50)");
    // And so does the offer's page, before he takes it.
    const entry = await entryOf(ev.id, waiting.id);
    expect(
      await offerFor(database.db, { entryId: entry.id, userId: waiting.id }, hours(2)),
    ).toMatchObject({ pricePence: 3750, live: true });
  });

  it("lists for My bookings the lists he is on, waiting or offered, and not those he left (found by the patient review)", async () => {
    const soon = await fullEvent();
    const later = await fullEvent();
    const left = await fullEvent();
    // Soonest first: on the 10th, 11th and 12th of June.
    await database.db
      .update(event)
      .set({ eventDate: "2026-06-11" })
      .where(eq(event.id, left.ev.id));
    await database.db
      .update(event)
      .set({ eventDate: "2026-06-12" })
      .where(eq(event.id, later.ev.id));
    const me = await person();
    const other = await person();
    for (const { ev } of [soon, later, left])
      await joinWaitlist(database.db, { eventId: ev.id, userId: other.id }, NOW);
    for (const { ev } of [soon, later, left])
      await joinWaitlist(database.db, { eventId: ev.id, userId: me.id }, hours(0.5));
    await leaveWaitlist(database.db, { eventId: left.ev.id, userId: me.id }, hours(1));
    // A place comes up at the later event: the other man, first in line, is offered it.
    await cancel(later.booked[0]!.id);
    await offersJob.run(database.db, hours(1));

    const mine = await myWaitingLists(database.db, me.id, hours(2));
    expect(mine.map((list) => [list.eventId, list.place.status])).toEqual([
      [soon.ev.id, "waiting"],
      [later.ev.id, "waiting"],
    ]);
    expect(mine.map((list) => (list.place.status === "waiting" ? list.place.position : 0))).toEqual(
      [2, 1],
    );
    const theirs = await myWaitingLists(database.db, other.id, hours(2));
    expect(theirs.map((list) => [list.eventId, list.place.status])).toEqual([
      [soon.ev.id, "waiting"],
      [left.ev.id, "waiting"],
      [later.ev.id, "offered"],
    ]);
  });

  it("lapses an offer not taken in time and moves the place on to the next person", async () => {
    const { ev, booked } = await fullEvent();
    const first = await person();
    const second = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: first.id }, NOW);
    await joinWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(1));
    await cancel(booked[1]!.id);
    // A place freed without the seam (staff): the worker finds it.
    await offersJob.run(database.db, hours(2));
    const firstOffer = await entryOf(ev.id, first.id);
    expect(firstOffer.status).toBe("offered");

    // Just before its end the offer still holds; at its end it lapses and goes to the next.
    const end = firstOffer.offerExpiresAt!;
    await offersJob.run(database.db, new Date(end.getTime() - 1));
    expect((await entryOf(ev.id, first.id)).status).toBe("offered");
    expect((await entryOf(ev.id, second.id)).status).toBe("waiting");
    await offersJob.run(database.db, end);
    expect((await entryOf(ev.id, first.id)).status).toBe("lapsed");
    expect(await entryOf(ev.id, second.id)).toMatchObject({
      status: "offered",
      offeredSlotTime: "10:00",
    });
    const toFirst = (await mailTo(first.email)).map((mail) => mail.subject);
    expect(toFirst).toHaveLength(2);
    expect(toFirst).toEqual(
      expect.arrayContaining([
        expect.stringContaining("A place has come up"),
        expect.stringContaining("has gone"),
      ]),
    );
    expect(await mailTo(second.email)).toHaveLength(1);
    // The first can no longer take it.
    expect(
      await takeOfferedPlace(
        database.db,
        { entryId: firstOffer.id, userId: first.id, clientAddress: nextClientAddress() },
        end,
      ),
    ).toEqual({ ok: false, reason: "offer-ended" });
  });

  it("takes an offer as a normal hold of the offered time, for its owner only", async () => {
    const { ev, booked } = await fullEvent();
    const first = await person();
    const second = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: first.id }, NOW);
    await joinWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(0.5));
    await cancel(booked[0]!.id);
    await offersJob.run(database.db, hours(1));
    const offer = await entryOf(ev.id, first.id);

    // Someone else's offer is not there for them.
    expect(await offerFor(database.db, { entryId: offer.id, userId: second.id }, hours(2))).toBe(
      null,
    );
    expect(
      await takeOfferedPlace(
        database.db,
        { entryId: offer.id, userId: second.id, clientAddress: nextClientAddress() },
        hours(2),
      ),
    ).toEqual({ ok: false, reason: "offer-not-found" });

    const taken = await takeOfferedPlace(
      database.db,
      { entryId: offer.id, userId: first.id, clientAddress: nextClientAddress() },
      hours(2),
    );
    expect(taken).toMatchObject({ ok: true, booking: { slotTime: "10:00", status: "held" } });
    if (!taken.ok) throw new Error("not taken");
    expect(await entryOf(ev.id, first.id)).toMatchObject({
      status: "accepted",
      bookingId: taken.booking.id,
    });
    // One place: the hold replaces the offer, so the event has exactly its places taken.
    expect(await findEvent(database.db, ev.id, hours(2))).toMatchObject({
      booked_spaces: 2,
      spaces_left: 0,
    });
    // Taking it again (a second press of the button) finds the hold it made, and takes nothing more.
    expect(
      await takeOfferedPlace(
        database.db,
        { entryId: offer.id, userId: first.id, clientAddress: nextClientAddress() },
        hours(2),
      ),
    ).toEqual({ ok: true, booking: taken.booking });
    expect(await findEvent(database.db, ev.id, hours(2))).toMatchObject({ booked_spaces: 2 });
    expect((await entryOf(ev.id, second.id)).status).toBe("waiting");

    // The hold runs out unused: the worker offers the place to the second, and his offer has ended.
    const after = new Date(taken.booking.holdExpiresAt.getTime() + 1);
    await offersJob.run(database.db, after);
    expect((await entryOf(ev.id, second.id)).status).toBe("offered");
    expect(
      await takeOfferedPlace(
        database.db,
        { entryId: offer.id, userId: first.id, clientAddress: nextClientAddress() },
        after,
      ),
    ).toEqual({ ok: false, reason: "offer-ended" });
  });

  it("turning an offer down passes it on at once", async () => {
    const { ev, booked } = await fullEvent();
    const first = await person();
    const second = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: first.id }, NOW);
    await joinWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(0.5));
    await cancel(booked[0]!.id);
    await offersJob.run(database.db, hours(1));
    const offer = await entryOf(ev.id, first.id);
    expect(
      await leaveWaitlist(database.db, { entryId: offer.id, userId: first.id }, hours(2)),
    ).toBe(true);
    expect((await entryOf(ev.id, first.id)).status).toBe("left");
    expect((await entryOf(ev.id, second.id)).status).toBe("offered");
  });

  it("offers as many places as are free, one each, and none to someone who has a place", async () => {
    const { ev, booked } = await fullEvent(3);
    const waiting = [await person(), await person(), await person()];
    for (const [index, someone] of waiting.entries())
      await joinWaitlist(database.db, { eventId: ev.id, userId: someone.id }, hours(index));
    // The first has since been given a place another way (staff booked him).
    await database.db
      .update(booking)
      .set({ userId: waiting[0]!.id })
      .where(eq(booking.id, booked[2]!.id));
    await cancel(booked[0]!.id);
    await cancel(booked[1]!.id);
    await offersJob.run(database.db, hours(5));
    expect((await entryOf(ev.id, waiting[0]!.id)).status).toBe("waiting");
    expect((await entryOf(ev.id, waiting[1]!.id)).status).toBe("offered");
    expect((await entryOf(ev.id, waiting[2]!.id)).status).toBe("offered");
    expect(await findEvent(database.db, ev.id, hours(5))).toMatchObject({ spaces_left: 0 });
  });
});

describe("a place freed by a patient's own change", () => {
  it("is offered to the first in line in the change's own transaction", async () => {
    const { ev, booked } = await fullEvent();
    // Another event of the same screening at the same price, so the change is allowed.
    const other = await insertEvent(database.db, ev.productId, { name: "Another Screening" });
    const mover = await person();
    await database.db
      .update(booking)
      .set({ userId: mover.id })
      .where(eq(booking.id, booked[0]!.id));
    const waiting = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: waiting.id }, NOW);

    const moved = await changeOwnBooking(
      database.db,
      {
        userId: mover.id,
        reference: booked[0]!.reference,
        eventId: other.id,
        slotTime: "11:00",
      },
      hours(1),
    );
    expect(moved).toMatchObject({ ok: true });
    // No worker pass: the change offered the place itself.
    expect(await entryOf(ev.id, waiting.id)).toMatchObject({
      status: "offered",
      offeredSlotTime: "10:00",
    });
    expect(await mailTo(waiting.email)).toHaveLength(1);
  });
});

describe("the coordinator's view of the waiting list", () => {
  it("lists the queue with any live offer first, and audits each person shown", async () => {
    const { ev, booked } = await fullEvent();
    const first = await person();
    const second = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: first.id }, NOW);
    await joinWaitlist(database.db, { eventId: ev.id, userId: second.id }, hours(1));
    await cancel(booked[0]!.id);
    await offersJob.run(database.db, hours(2));
    const { actor } = await insertStaff(database.db, ["coordinator"]);
    const view = await viewAttendees(database.db, actor, { eventId: ev.id, now: hours(3) });
    expect(
      view!.waitlist.map((row) => [row.position, row.userId, row.status, row.offeredSlotTime]),
    ).toEqual([
      [1, first.id, "offered", "10:00"],
      [2, second.id, "waiting", null],
    ]);
    for (const someone of [first, second])
      expect(
        await auditRows(database.db, {
          action: "attendees.view",
          actorUserId: actor.id,
          subjectUserId: someone.id,
        }),
      ).toHaveLength(1);
  });

  it("refuses a member of staff without the attendee list's capability", async () => {
    const { ev } = await fullEvent();
    const { actor } = await insertStaff(database.db, ["clinician"]);
    await expect(viewAttendees(database.db, actor, { eventId: ev.id, now: NOW })).rejects.toThrow(
      PermissionDenied,
    );
  });
});

describe("staff cancelling the event", () => {
  it("takes everyone off its waiting list, a live offer included, and e-mails each of them", async () => {
    const { ev, booked } = await fullEvent();
    const [offered, waiting, gone] = [await person(), await person(), await person()];
    await joinWaitlist(database.db, { eventId: ev.id, userId: offered.id }, NOW);
    await joinWaitlist(database.db, { eventId: ev.id, userId: waiting.id }, hours(1));
    await joinWaitlist(database.db, { eventId: ev.id, userId: gone.id }, hours(1));
    await leaveWaitlist(database.db, { eventId: ev.id, userId: gone.id }, hours(1));
    await cancel(booked[0]!.id);
    await offersJob.run(database.db, hours(2));
    expect((await entryOf(ev.id, offered.id)).status).toBe("offered");

    const { actor } = await insertStaff(database.db, ["coordinator"]);
    const result = await cancelEvent(database.db, actor, ev.id, hours(3));
    expect(result).toMatchObject({ ok: true, newlyCancelled: true, waitingListClosed: 2 });

    expect((await entryOf(ev.id, offered.id)).status).toBe("closed");
    expect((await entryOf(ev.id, waiting.id)).status).toBe("closed");
    expect((await entryOf(ev.id, gone.id)).status).toBe("left");
    // The offer, then the cancellation; the one still waiting hears only of the cancellation.
    const [offerMail, offeredCancelled, ...more] = await mailTo(offered.email);
    expect(more).toEqual([]);
    expect(offerMail!.text).toContain(`/waiting-list/`);
    expect(offeredCancelled!.subject).toBe(`Cancelled: ${ev.name}, Wednesday, 10 June 2026`);
    expect(offeredCancelled!.text).toContain("The place we were holding for you");
    const [waitingCancelled, ...others] = await mailTo(waiting.email);
    expect(others).toEqual([]);
    expect(waitingCancelled!.text).toContain("You are no longer on its waiting list.");
    expect(await mailTo(gone.email)).toEqual([]);
    // The offer's page has nothing left to take, and running the cancellation again tells nobody twice.
    expect(
      await offerFor(database.db, {
        entryId: (await entryOf(ev.id, offered.id)).id,
        userId: offered.id,
      }),
    ).toMatchObject({ status: "closed" });
    expect(await cancelEvent(database.db, actor, ev.id, hours(4))).toMatchObject({
      ok: true,
      waitingListClosed: 0,
    });
    expect(await mailTo(waiting.email)).toHaveLength(1);
  });

  it("writes once, about the booking, to someone still listed who got a place meanwhile", async () => {
    const { ev, booked } = await fullEvent();
    const lucky = await person();
    await joinWaitlist(database.db, { eventId: ev.id, userId: lucky.id }, NOW);
    // A place freed and taken straight away, before the waiting-list job passed by.
    await cancel(booked[0]!.id);
    await insertBooking(database.db, { eventId: ev.id, userId: lucky.id, slotTime: "10:00" });

    const { actor } = await insertStaff(database.db, ["coordinator"]);
    expect(await cancelEvent(database.db, actor, ev.id, hours(3))).toMatchObject({
      ok: true,
      waitingListClosed: 1,
    });
    expect((await entryOf(ev.id, lucky.id)).status).toBe("closed");
    const mail = await mailTo(lucky.email);
    expect(mail.map((message) => message.subject)).toEqual([
      expect.stringMatching(/^Cancelled: .*\(booking MHAT-/),
    ]);
  });
});
