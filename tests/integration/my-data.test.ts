import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  auditLog,
  booking,
  consent,
  enquiry,
  event,
  newsletterSubscription,
  outboxEmail,
  paymentTransaction,
  profile,
  retainedResult,
  session,
  testResult,
  testResultRevision,
  user,
  userRole,
  waitlistEntry,
} from "#app/db/schema";
import { WORKER_JOBS } from "#app/services/booking/reconcile.server";
import {
  collectMyData,
  deleteMyAccount,
  eraseEndedRetainedResults,
  shredExpiredConsentAnswers,
} from "#app/services/my-data.server";
import { correctResult } from "#app/services/results-admin.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  consentForm,
  insertBooking,
  insertFreeEvent,
  insertPatient,
  insertSession,
  insertStaff,
  insertWaitlistEntry,
  uniqueEmail,
  uniqueId,
} from "#tests/support/fixtures";
import { insertResult, insertSampledBooking } from "#tests/support/fixtures/results";
import { tablesHolding, validNhsNumber } from "#tests/support/personal-data";

const database = testDatabaseForThisFile();
const PASSWORD = "correct horse battery staple 41";
const NOW = new Date("2026-06-20T09:00:00Z");
const DAY = 86_400_000;

let labValues = 0;
/** A PSA value no other row has ("417.003"), so that a search for it finds only its own result. */
const labValue = () =>
  `${Math.floor(Math.random() * 900) + 100}.${String(++labValues).padStart(3, "0")}`;

/**
 * A man with everything the site can hold about someone: a profile with an NHS number, a tested
 * booking with a released result (and one not released yet), a paid booking with its PayPal
 * answer, consent answers, a newsletter subscription, an enquiry and mail. Every value that
 * identifies him is his alone (`needles`), so that a search of the whole database finds only him.
 */
async function personWithEverything(
  label: string,
  options: { password?: boolean; awaitingResult?: boolean; email?: string } = {},
) {
  const id = uniqueId();
  const firstName = `${label}first${id}`;
  const lastName = `${label}last${id}`;
  const email = options.email ?? uniqueEmail(`${label}-mail`);
  const phone = `01632 96${id.slice(0, 4)}`;
  const nhsNumber = validNhsNumber();
  const addressLine = `${id} ${label} Lane`;
  const person = await insertPatient(database.db, {
    firstName,
    lastName,
    email,
    phone,
    nhsNumber,
    homeAddressLine1: addressLine,
    password: options.password ? PASSWORD : undefined,
  });
  const ev = await insertFreeEvent(database.db, {
    eventDate: "2026-06-10",
    name: `${label} event`,
  });
  const tested = await insertSampledBooking(database.db, {
    eventId: ev.id,
    userId: person.id,
    eventDate: "2026-06-10",
  });
  const psaValue = labValue();
  const result = await insertResult(database.db, tested.id, {
    psaValue,
    comments: `${label} comment ${id}`,
    sampleDate: "2026-06-10",
    releasedAt: new Date(NOW.getTime() - 2 * DAY),
    suggestedFlag: "green",
    flagDecidedAge: 57,
  });
  const other = await insertFreeEvent(database.db, { eventDate: "2026-06-11" });
  const awaiting = await insertSampledBooking(database.db, {
    eventId: other.id,
    userId: person.id,
    eventDate: "2026-06-11",
  });
  const unreleasedValue = labValue();
  if (options.awaitingResult !== false)
    await insertResult(database.db, awaiting.id, { psaValue: unreleasedValue, releasedAt: null });
  else await database.db.delete(booking).where(eq(booking.id, awaiting.id));
  const paid = await insertBooking(database.db, {
    eventId: (await insertFreeEvent(database.db, { eventDate: "2026-05-01" })).id,
    userId: person.id,
    pricePence: 2500,
    paymentRequired: true,
    paymentStatus: "paid",
  });
  await database.db.insert(paymentTransaction).values({
    bookingId: paid.id,
    kind: "capture",
    provider: "paypal",
    orderId: `ORDER-${id}`,
    captureId: `CAPTURE-${id}`,
    status: "COMPLETED",
    amountPence: 2500,
    raw: { payer: { email_address: email, name: { given_name: firstName, surname: lastName } } },
  });
  const secret = `${label}-family-secret-${id}`;
  await database.db.insert(consent).values({
    bookingId: tested.id,
    userId: person.id,
    testDate: "2026-06-10",
    answers: { ...consentForm.answers, motherSideDetails: secret },
    gpConsent: true,
    wordingVersion: "2026-01",
    agreedAt: new Date("2026-06-01T10:00:00Z"),
  });
  await database.db.insert(newsletterSubscription).values({ name: firstName, email });
  const message = `${label} asks about parking ${id}`;
  await database.db.insert(enquiry).values({
    firstName,
    lastName,
    email: email.toUpperCase(),
    phoneNumber: phone,
    message,
  });
  await database.db.insert(outboxEmail).values([
    { to: email, subject: "Your booking", text: `Dear ${firstName}` },
    {
      to: "info@example.org",
      replyTo: email,
      subject: "Enquiry",
      text: `From ${firstName} ${lastName}, ${email}: ${message}`,
    },
  ]);
  return {
    ...person,
    phone,
    addressLine,
    nhsNumber,
    bookingReferences: [tested.reference, awaiting.reference, paid.reference],
    resultId: result.id,
    testedBookingId: tested.id,
    sampleId: tested.sampleId!,
    psaValue,
    unreleasedValue,
    secret,
    message,
    needles: [firstName, lastName, email, phone, nhsNumber, addressLine],
  };
}

describe("everything held about me (collectMyData)", () => {
  it("holds his account, profile, bookings, payments, consent, released results, newsletter and enquiries", async () => {
    const me = await personWithEverything("Export");
    const data = await collectMyData(database.db, { userId: me.id }, "json", NOW);
    const text = JSON.stringify(data);
    for (const value of [
      ...me.needles,
      me.psaValue,
      me.secret,
      me.message,
      ...me.bookingReferences,
    ])
      expect(text).toContain(value);
    expect(data!.profile!.nhsNumber).toBe(me.nhsNumber);
    expect(data!.results.map((result) => result.value)).toEqual([me.psaValue]);
    expect(data!.bookings.find((row) => row.payments.length)?.payments).toEqual([
      { kind: "capture", status: "COMPLETED", amountPence: 2500, at: expect.any(String) },
    ]);
    expect(data!.newsletter).toHaveLength(1);
    expect(data!.enquiries).toHaveLength(1);
  });

  it("holds his waiting-list entries, and none of another person's", async () => {
    const me = await insertPatient(database.db);
    const someoneElse = await insertPatient(database.db);
    const full = await insertFreeEvent(database.db, {
      eventDate: "2026-07-12",
      name: `Full event ${uniqueId()}`,
    });
    const joinedAt = new Date("2026-06-15T08:30:00Z");
    await insertWaitlistEntry(database.db, { eventId: full.id, userId: me.id, joinedAt });
    await insertWaitlistEntry(database.db, { eventId: full.id, userId: someoneElse.id });
    const data = await collectMyData(database.db, { userId: me.id }, "json", NOW);
    expect(data!.waitingLists).toEqual([
      {
        eventName: full.name,
        eventDate: "2026-07-12",
        status: "waiting",
        joinedAt: "2026-06-15T08:30:00.000Z",
        offeredTime: null,
        offeredAt: null,
        offerExpiresAt: null,
      },
    ]);
  });

  it("never holds a result not yet released, nor anything of another person", async () => {
    const me = await personWithEverything("Mine");
    const someoneElse = await personWithEverything("Theirs");
    const data = await collectMyData(database.db, { userId: me.id }, "page", NOW);
    const text = JSON.stringify(data).toLowerCase();
    expect(text).not.toContain(me.unreleasedValue);
    for (const value of [
      ...someoneElse.needles,
      someoneElse.psaValue,
      someoneElse.unreleasedValue,
      someoneElse.secret,
      someoneElse.message,
      ...someoneElse.bookingReferences,
    ])
      expect(text).not.toContain(value.toLowerCase());
  });

  it("is audited each time, with his id as subject and no personal data", async () => {
    const me = await personWithEverything("Audited");
    await collectMyData(database.db, { userId: me.id }, "json", NOW);
    const rows = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectUserId, me.id), eq(auditLog.action, "my-data.export")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorUserId: me.id,
      entityId: me.id,
      ipAddress: null,
      details: { format: "json", bookings: 3, results: 1 },
    });
    const audited = JSON.stringify(rows);
    for (const value of [...me.needles, me.psaValue]) expect(audited).not.toContain(value);
  });

  it("answers nothing for an account that does not exist", async () => {
    expect(await collectMyData(database.db, { userId: "no-such-user" }, "json")).toBeNull();
  });
});

describe("an account whose address is not confirmed", () => {
  it("neither sees nor erases the newsletter entry and messages sent with that address by someone else", async () => {
    const { db } = database;
    // The owner of the address used the contact form and the newsletter, without an account.
    const address = uniqueEmail("owner");
    const phoneNumber = `01632 97${uniqueId().slice(0, 4)}`;
    await db.insert(enquiry).values({
      firstName: "Rightful",
      lastName: "Owner",
      email: address,
      phoneNumber,
      message: "My PSA was 9. What should I do now?",
    });
    await db.insert(newsletterSubscription).values({ name: "Rightful Owner", email: address });
    // The staff notice of that message, not yet sent: it replies to, and quotes, the address.
    await db.insert(outboxEmail).values({
      to: "staff@example.org",
      replyTo: address,
      subject: "New enquiry",
      text: `From Rightful Owner <${address}>: My PSA was 9.`,
    });
    // Someone else signs up with it and never confirms it.
    const stranger = await insertPatient(db, {
      email: address.toUpperCase(),
      emailVerified: false,
      password: PASSWORD,
    });

    const seen = await collectMyData(db, { userId: stranger.id }, "json", NOW);
    expect(seen!.enquiries).toEqual([]);
    expect(seen!.newsletter).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain(phoneNumber);

    const outcome = await deleteMyAccount(db, { userId: stranger.id, password: PASSWORD }, NOW);
    expect(outcome).toMatchObject({ outcome: "deleted" });
    expect(await db.select().from(enquiry).where(eq(enquiry.email, address))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(newsletterSubscription)
        .where(eq(newsletterSubscription.email, address)),
    ).toHaveLength(1);
    expect(
      await db.select().from(outboxEmail).where(eq(outboxEmail.replyTo, address)),
    ).toHaveLength(1);
  });
});

describe("deleting my account (deleteMyAccount)", () => {
  it("erases every personal detail; only the retained result names him, until its period ends", async () => {
    const me = await personWithEverything("Leaver", { password: true, awaitingResult: false });
    const someoneElse = await personWithEverything("Stayer");
    await insertSession(database.db, me.id);
    // A corrected result keeps its earlier version (append-only).
    await database.db.insert(testResultRevision).values({
      testResultId: me.resultId,
      psaValue: "1.00",
      unit: "ng/ml",
      flag: "green",
      replacedBy: "clinician@example.org",
      reason: "typing-error",
    });
    expect(Object.keys(await tablesHolding(database.db, me.needles)).length).toBeGreaterThan(3);

    const outcome = await deleteMyAccount(
      database.db,
      { userId: me.id, password: PASSWORD, resultRetentionYears: 8 },
      NOW,
    );
    expect(outcome).toEqual({ outcome: "deleted", retainedResults: 1, heldPlacesFreed: 0 });

    // Name and NHS number only in the result kept apart; e-mail, phone and address nowhere.
    expect(await tablesHolding(database.db, me.needles)).toEqual({ retained_result: 1 });
    expect(
      await tablesHolding(database.db, [me.email, me.phone, me.addressLine, me.secret]),
    ).toEqual({});
    const [kept] = await database.db
      .select()
      .from(retainedResult)
      .where(eq(retainedResult.testResultId, me.resultId));
    expect(kept).toMatchObject({
      nhsNumber: me.nhsNumber,
      dateOfBirth: "1966-03-01",
      sampleId: me.sampleId,
      sampleDate: "2026-06-10",
      // Released on 18 June 2026: eight years on.
      retainUntil: new Date("2034-06-18T09:00:00Z"),
    });
    const [row] = await database.db.select().from(user).where(eq(user.id, me.id));
    expect(row).toMatchObject({ name: "Deleted account", emailVerified: false });
    expect(row!.deactivatedAt).toEqual(NOW);
    expect(await database.db.select().from(session).where(eq(session.userId, me.id))).toEqual([]);
    // The consent that was given stays, without its answers.
    const [given] = await database.db.select().from(consent).where(eq(consent.userId, me.id));
    expect(given).toMatchObject({ answers: null, answersErasedAt: NOW, wordingVersion: "2026-01" });
    // His result is still there for the clinic; the other man's data is untouched.
    const [result] = await database.db
      .select()
      .from(testResult)
      .where(eq(testResult.id, me.resultId));
    expect(result!.psaValue).toBe(me.psaValue);
    for (const needle of someoneElse.needles)
      expect(Object.keys(await tablesHolding(database.db, [needle])).length).toBeGreaterThan(0);
    const [audit] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectUserId, me.id), eq(auditLog.action, "my-data.erase")));
    expect(audit!.details).toMatchObject({ retainedResults: 1 });

    // Within the period the worker keeps it; once it is over, nothing of his is left.
    const sevenYears = new Date(NOW.getTime() + 7 * 365 * DAY);
    expect(await eraseEndedRetainedResults(database.db, sevenYears)).toEqual({ erased: 0 });
    expect(await tablesHolding(database.db, me.needles)).toEqual({ retained_result: 1 });
    const nineYears = new Date(NOW.getTime() + 9 * 365 * DAY);
    expect((await eraseEndedRetainedResults(database.db, nineYears)).erased).toBeGreaterThanOrEqual(
      1,
    );
    expect(await tablesHolding(database.db, [...me.needles, me.sampleId, me.psaValue])).toEqual({});
    expect(
      await database.db
        .select()
        .from(testResult)
        .where(eq(testResult.bookingId, me.testedBookingId)),
    ).toEqual([
      expect.objectContaining({
        psaValue: null,
        comments: null,
        flag: null,
        suggestedFlag: null,
        flagDecidedAge: null,
      }),
    ]);
    // The other man's own result is not his to lose.
    const theirs = await database.db
      .select()
      .from(testResult)
      .where(eq(testResult.id, someoneElse.resultId));
    expect(theirs[0]!.psaValue).toBe(someoneElse.psaValue);
  });

  it("tells a second press that comes after the first has finished that it is done, not a wrong password", async () => {
    const me = await personWithEverything("Later", { password: true, awaitingResult: false });
    const press = () => deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect((await press()).outcome).toBe("deleted");
    // The page he sees is the second press's (CI on PostgreSQL found it saying "wrong password").
    expect((await press()).outcome).toBe("already-deleted");
  });

  it("deletes once when he presses twice at once: the second press finds the account deleted", async () => {
    const me = await personWithEverything("Twice", { password: true, awaitingResult: false });

    const outcomes = await Promise.all(
      [1, 2].map(() => deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW)),
    );

    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual([
      "already-deleted",
      "deleted",
    ]);
    const kept = await database.db
      .select()
      .from(retainedResult)
      .where(eq(retainedResult.testResultId, me.resultId));
    expect(kept).toHaveLength(1);
    const audits = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectUserId, me.id), eq(auditLog.action, "my-data.erase")));
    expect(audits).toHaveLength(1);
  });

  it("keeps his result correctable by a clinician, who is told that no one was e-mailed", async () => {
    const me = await personWithEverything("Corrected", { password: true, awaitingResult: false });
    const deleted = await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect(deleted).toMatchObject({ outcome: "deleted", retainedResults: 1 });
    const { actor: clinician } = await insertStaff(database.db, ["clinician"]);
    const [kept] = await database.db
      .select()
      .from(testResult)
      .where(eq(testResult.id, me.resultId));
    const mailsBefore = await database.db.select({ to: outboxEmail.to }).from(outboxEmail);

    const corrected = await correctResult(
      database.db,
      clinician,
      me.resultId,
      {
        psaValue: kept!.psaValue!,
        flag: "amber",
        retestYears: null,
        comments: kept!.comments,
        reason: "flag-reviewed",
        seen: kept!.updatedAt.toISOString(),
      },
      NOW,
    );

    expect(corrected).toEqual({ ok: true, changed: ["flag", "retestYears"], told: false });
    // Nothing queued for the erased account's address (in the never-delivered .invalid domain).
    const mailsAfter = await database.db.select({ to: outboxEmail.to }).from(outboxEmail);
    expect(mailsAfter).toHaveLength(mailsBefore.length);
    expect(mailsAfter.filter((mail) => mail.to.endsWith(".invalid"))).toEqual([]);
  });

  it("refuses a wrong password and changes nothing", async () => {
    const me = await personWithEverything("Wrongpass", { password: true, awaitingResult: false });
    const outcome = await deleteMyAccount(
      database.db,
      { userId: me.id, password: "not my password at all" },
      NOW,
    );
    expect(outcome).toEqual({ outcome: "wrong-password" });
    expect(await database.db.select().from(profile).where(eq(profile.userId, me.id))).toHaveLength(
      1,
    );
  });

  it("waits after five wrong passwords, even before a right one", async () => {
    const me = await personWithEverything("Guesser", { password: true, awaitingResult: false });
    for (let n = 0; n < 5; n++)
      await deleteMyAccount(database.db, { userId: me.id, password: `guess ${n}` }, NOW);
    const outcome = await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect(outcome.outcome).toBe("too-many-attempts");
    expect(await database.db.select().from(profile).where(eq(profile.userId, me.id))).toHaveLength(
      1,
    );
  });

  it("refuses while he has an upcoming confirmed booking or a payment in progress", async () => {
    const me = await personWithEverything("Booked", { password: true, awaitingResult: false });
    const ahead = await insertFreeEvent(database.db, {
      eventDate: "2026-07-01",
      name: "Ahead event",
    });
    const upcoming = await insertBooking(database.db, { eventId: ahead.id, userId: me.id });
    const paying = await insertBooking(database.db, {
      eventId: (await insertFreeEvent(database.db, { eventDate: "2026-07-02" })).id,
      userId: me.id,
      status: "awaiting_payment",
      paymentStatus: "unpaid",
      paymentRequired: true,
      pricePence: 2500,
      paymentOrderId: `ORDER-${uniqueId()}`,
      holdExpiresAt: new Date(NOW.getTime() + 600_000),
    });
    const outcome = await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect(outcome).toEqual({
      outcome: "refused",
      check: {
        kind: "blocked",
        blockers: expect.arrayContaining([
          expect.objectContaining({ kind: "upcoming-booking", reference: upcoming.reference }),
          expect.objectContaining({ kind: "payment", reference: paying.reference }),
        ]),
      },
    });
    expect(await tablesHolding(database.db, [me.email])).toHaveProperty("user");
    expect(await tablesHolding(database.db, [me.email])).toHaveProperty("profile");
  });

  it("refuses while a result of his is not released yet", async () => {
    const me = await personWithEverything("Waiting", { password: true, awaitingResult: true });
    const outcome = await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect(outcome).toMatchObject({
      outcome: "refused",
      check: { kind: "blocked", blockers: [expect.objectContaining({ kind: "result-awaited" })] },
    });
  });

  it("lets go of a hold nobody is paying for yet", async () => {
    const me = await personWithEverything("Holder", { password: true, awaitingResult: false });
    const held = await insertBooking(database.db, {
      eventId: (await insertFreeEvent(database.db, { eventDate: "2026-07-03" })).id,
      userId: me.id,
      status: "held",
      paymentStatus: "unpaid",
      holdExpiresAt: new Date(NOW.getTime() + 600_000),
    });
    const outcome = await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect(outcome).toMatchObject({ outcome: "deleted", heldPlacesFreed: 1 });
    const [row] = await database.db.select().from(booking).where(eq(booking.id, held.id));
    expect(row!.status).toBe("expired");
  });

  it("takes him off waiting lists, and a place offered to him goes to the next in line", async () => {
    const me = await personWithEverything("Queuer", { password: true, awaitingResult: false });
    const next = await insertPatient(database.db);
    const full = await insertFreeEvent(database.db, { eventDate: "2026-07-10", totalSpaces: 1 });
    await insertWaitlistEntry(database.db, {
      eventId: full.id,
      userId: me.id,
      status: "offered",
      joinedAt: new Date(NOW.getTime() - 2 * DAY),
      offeredSlotTime: "10:00",
      offeredAt: new Date(NOW.getTime() - 600_000),
      offerExpiresAt: new Date(NOW.getTime() + 3_600_000),
    });
    const waiting = await insertWaitlistEntry(database.db, {
      eventId: full.id,
      userId: next.id,
      joinedAt: new Date(NOW.getTime() - DAY),
    });
    const outcome = await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect(outcome.outcome).toBe("deleted");
    expect(
      await database.db.select().from(waitlistEntry).where(eq(waitlistEntry.userId, me.id)),
    ).toEqual([]);
    const [theirs] = await database.db
      .select()
      .from(waitlistEntry)
      .where(eq(waitlistEntry.id, waiting.id));
    expect(theirs!.status).toBe("offered");
  });

  it("deletes his mail only: never mail to or about an address that merely contains his", async () => {
    const id = uniqueId();
    const bob = await personWithEverything("Bob", {
      password: true,
      awaitingResult: false,
      email: `bob${id}@example.com`,
    });
    const smith = await personWithEverything("Smith", {
      password: true,
      awaitingResult: false,
      email: `j_smith${id}@example.com`,
    });
    const others = [`jimbob${id}@example.com`, `j.smith${id}@example.com`];
    const kept = await database.db
      .insert(outboxEmail)
      .values(
        others.flatMap((address) => [
          { to: address, subject: "Your booking", text: `Dear friend, this is for ${address}.` },
          {
            to: "info@example.org",
            replyTo: address,
            subject: "Enquiry",
            text: `From someone else, ${address}: a question`,
          },
        ]),
      )
      .returning({ id: outboxEmail.id });
    // Mail that names him as a whole goes, even at the end of a sentence.
    const [his] = await database.db
      .insert(outboxEmail)
      .values({ to: "info@example.org", subject: "Note", text: `Call back ${bob.email}.` })
      .returning({ id: outboxEmail.id });

    for (const me of [bob, smith])
      expect(
        (await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW)).outcome,
      ).toBe("deleted");

    const left = await database.db
      .select({ id: outboxEmail.id })
      .from(outboxEmail)
      .where(
        inArray(
          outboxEmail.id,
          [...kept, his!].map((row) => row.id),
        ),
      );
    expect(left.map((row) => row.id).sort()).toEqual(kept.map((row) => row.id).sort());
  });

  it("lets him go once a late cancellation's money is kept for good", async () => {
    const me = await personWithEverything("Late", { password: true, awaitingResult: false });
    await insertBooking(database.db, {
      eventId: (await insertFreeEvent(database.db, { eventDate: "2026-06-19" })).id,
      userId: me.id,
      status: "cancelled",
      pricePence: 2500,
      paymentRequired: true,
      paymentStatus: "paid",
      cancelledBy: "patient",
      refundOwed: false,
      cancelledAt: new Date(NOW.getTime() - 2 * DAY),
    });
    const outcome = await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect(outcome.outcome).toBe("deleted");
  });

  it("sends him to the booking helpline once the server has stopped retrying his refund", async () => {
    const me = await personWithEverything("Stalled", { password: true, awaitingResult: false });
    const owed = await insertBooking(database.db, {
      eventId: (await insertFreeEvent(database.db, { eventDate: "2026-07-19" })).id,
      userId: me.id,
      status: "cancelled",
      pricePence: 2500,
      paymentRequired: true,
      paymentStatus: "paid",
      cancelledBy: "patient",
      refundOwed: true,
      cancelledAt: new Date(NOW.getTime() - 3 * DAY),
    });
    const failedTry = (n: number) => ({
      bookingId: owed.id,
      kind: "refund" as const,
      provider: "paypal",
      requestId: `refund-${owed.id}`,
      status: "FAILED",
      createdAt: new Date(NOW.getTime() - (20 - n) * 3_600_000),
    });
    // Thirteen failed tries: the server is still trying, he is told to come back.
    await database.db
      .insert(paymentTransaction)
      .values(Array.from({ length: 13 }, (_, n) => failedTry(n)));
    expect(
      await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW),
    ).toMatchObject({
      outcome: "refused",
      check: {
        blockers: [expect.objectContaining({ kind: "payment", reference: owed.reference })],
      },
    });
    // The fourteenth (REFUND_AUTO_ATTEMPTS) fails too: only a person can make it now.
    await database.db.insert(paymentTransaction).values(failedTry(13));
    expect(
      await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW),
    ).toMatchObject({
      outcome: "refused",
      check: {
        blockers: [expect.objectContaining({ kind: "refund-stalled", reference: owed.reference })],
      },
    });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "waits for the event of a list he is only waiting on, so the offer job cannot pick him meanwhile",
    async () => {
      const me = await personWithEverything("Listed", { password: true, awaitingResult: false });
      const full = await insertFreeEvent(database.db, { eventDate: "2026-07-11", totalSpaces: 1 });
      await insertWaitlistEntry(database.db, { eventId: full.id, userId: me.id });
      // The offer job's transaction holds the event's lock (as `offerFreedPlaces` requires).
      const result = await database.db.transaction(async (worker) => {
        await worker.select().from(event).where(eq(event.id, full.id)).for("update");
        const deleting = deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
        let settled = false;
        const finished = deleting.then(() => "finished" as const);
        // Either the deletion waits for the event's lock, or it finished without it.
        const waiting = (async () => {
          while (!settled) {
            const answer = (await database.db.execute(
              sql`select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
            )) as unknown as { rows: { waiting: number }[] };
            const [row] = answer.rows;
            if (row && row.waiting > 0) return "waiting" as const;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return "finished" as const;
        })();
        const first = await Promise.race([finished, waiting]);
        settled = true;
        return { first, deleting };
      });
      expect(result.first).toBe("waiting");
      expect((await result.deleting).outcome).toBe("deleted");
      expect(
        await database.db.select().from(waitlistEntry).where(eq(waitlistEntry.userId, me.id)),
      ).toEqual([]);
    },
  );

  it("refuses a staff account (an admin removes those)", async () => {
    const me = await personWithEverything("Staffer", { password: true, awaitingResult: false });
    await database.db.insert(userRole).values({ userId: me.id, role: "coordinator" });
    const outcome = await deleteMyAccount(database.db, { userId: me.id, password: PASSWORD }, NOW);
    expect(outcome).toEqual({ outcome: "refused", check: { kind: "staff" } });
  });
});

describe("consent answers shredded after CONSENT_RETENTION_DAYS", () => {
  async function consentAgreed(
    userId: string,
    agreedAt: Date,
    testDate: string,
    bookingId?: string,
  ) {
    const [row] = await database.db
      .insert(consent)
      .values({
        userId,
        bookingId,
        testDate,
        answers: consentForm.answers,
        gpConsent: false,
        wordingVersion: "2025-02",
        agreedAt,
      })
      .returning();
    return row!;
  }

  it("erases the answers of old consents only, keeping that consent was given; results stay", async () => {
    const me = await insertPatient(database.db);
    const ev = await insertFreeEvent(database.db, { eventDate: "2025-04-01" });
    const tested = await insertSampledBooking(database.db, {
      eventId: ev.id,
      userId: me.id,
      eventDate: "2025-04-01",
    });
    const result = await insertResult(database.db, tested.id, { psaValue: "2.34" });
    const old = await consentAgreed(
      me.id,
      new Date("2025-03-20T10:00:00Z"),
      "2025-04-01",
      tested.id,
    );
    const recent = await consentAgreed(me.id, new Date("2026-05-01T10:00:00Z"), "2026-05-20");
    // Agreed long ago for a test that was only 100 days ago.
    const lateTest = await consentAgreed(me.id, new Date("2025-01-01T10:00:00Z"), "2026-03-12");

    const { shredded } = await shredExpiredConsentAnswers(database.db, NOW, 365);
    expect(shredded).toBeGreaterThanOrEqual(1);
    const rows = await database.db.select().from(consent).where(eq(consent.userId, me.id));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(old.id)).toMatchObject({
      answers: null,
      answersErasedAt: NOW,
      agreedAt: old.agreedAt,
      wordingVersion: "2025-02",
      testDate: "2025-04-01",
    });
    expect(byId.get(recent.id)!.answers).toEqual(consentForm.answers);
    expect(byId.get(lateTest.id)!.answers).toEqual(consentForm.answers);
    const [kept] = await database.db.select().from(testResult).where(eq(testResult.id, result.id));
    expect(kept).toMatchObject({ psaValue: "2.34", flag: "green" });
    // A second pass finds nothing more of his to do.
    await shredExpiredConsentAnswers(database.db, NOW, 365);
    const again = await database.db.select().from(consent).where(eq(consent.id, old.id));
    expect(again[0]!.answersErasedAt).toEqual(NOW);
  });

  it("runs on every pass of the worker, as do the retained results' erasure", () => {
    const codes = WORKER_JOBS.map((job) => job.code);
    expect(codes).toEqual(
      expect.arrayContaining(["consent_answers_shredded", "retained_results_erased"]),
    );
  });

  describe.skipIf(!process.env.TEST_DATABASE_URL)("on several servers at once", () => {
    it("shreds each consent once when two servers run the job together", async () => {
      const me = await insertPatient(database.db);
      for (let n = 0; n < 30; n++)
        await consentAgreed(me.id, new Date("2024-01-01T10:00:00Z"), "2024-01-02");
      const far = new Date("2030-01-01T00:00:00Z");
      const [first, second] = await Promise.all([
        shredExpiredConsentAnswers(database.db, far, 365),
        shredExpiredConsentAnswers(database.db, far, 365),
      ]);
      expect(first.shredded + second.shredded).toBeGreaterThanOrEqual(30);
      const left = await database.db.select().from(consent).where(eq(consent.userId, me.id));
      expect(left.every((row) => row.answers === null)).toBe(true);
    });
  });
});
