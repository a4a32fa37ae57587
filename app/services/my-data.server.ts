import {
  and,
  asc,
  desc,
  eq,
  inArray,
  isNotNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import {
  account,
  auditLog,
  booking,
  consent,
  enquiry,
  event,
  eventUnlock,
  newsletterSubscription,
  outboxEmail,
  paymentTransaction,
  profile,
  retainedResult,
  screeningProduct,
  session,
  testResult,
  testResultRevision,
  twoFactor,
  usedTotpCode,
  user,
  userRole,
  verification,
  waitlistEntry,
} from "#app/db/schema";
import { AUDIT_ACTIONS, isAuditAction } from "#app/domain/audit";
import { isHoldLive } from "#app/domain/booking-lifecycle";
import { slotEndTime } from "#app/domain/calendar";
import type { ConsentAnswers } from "#app/domain/consent";
import {
  consentShreddingCutoff,
  ERASED_ACCOUNT_NAME,
  erasedAccountEmail,
  erasureBlockers,
  isErasedAccount,
  resultRetainedUntil,
  type BookingForErasure,
  type ErasureBlocker,
  wholeAddressPattern,
} from "#app/domain/data-rights";
import { eventAddress } from "#app/domain/events";
import { ACTIVE_WAITLIST_STATUSES } from "#app/domain/waitlist";
import { recordAudit } from "./audit.server";
import { verifyPassword } from "./auth.server";
import { lockEvent, lockPerson } from "./booking/places.server";
import { eventsChanged } from "./events.server";
import { failedRefundAttempts, refundRefusedForGoodColumn } from "./payments/refunds.server";
import { hitRateLimit } from "./rate-limit.server";
import { offerFreedPlaces } from "./waitlist.server";

/**
 * The patient's own data rights (UK GDPR): everything held about him, for the page and the JSON
 * download alike (`collectMyData`); deleting his account (`deleteMyAccount`), keeping apart only
 * what the clinic must; and the worker's two retention jobs. Every query is by his own user id.
 */

/** Dates are ISO strings, so that the page and the JSON download carry the same values. */
export interface MyData {
  exportedAt: string;
  account: { name: string; email: string; emailVerified: boolean; createdAt: string };
  profile: {
    reference: string;
    firstName: string;
    lastName: string;
    gender: string | null;
    dateOfBirth: string | null;
    ethnicity: string | null;
    occupation: string | null;
    phone: string;
    email: string;
    homeAddressLine1: string;
    homeAddressLine2: string | null;
    homePostcode: string;
    homeCountry: string;
    billingAddress: string | null;
    nhsNumber: string | null;
  } | null;
  bookings: {
    reference: string;
    eventName: string;
    productName: string;
    eventDate: string;
    slotStart: string;
    slotEnd: string;
    address: string;
    status: string;
    paymentStatus: string;
    pricePence: number;
    bookedAt: string;
    confirmedAt: string | null;
    cancelledAt: string | null;
    payments: { kind: string; status: string; amountPence: number | null; at: string }[];
  }[];
  consents: {
    bookingReference: string | null;
    testDate: string;
    agreedAt: string;
    wordingVersion: string;
    gpConsent: boolean;
    /** null once shredded (see answersErasedAt) */
    answers: ConsentAnswers | null;
    answersErasedAt: string | null;
  }[];
  /** Released results only: one not yet released is never shown. */
  results: {
    bookingReference: string;
    eventName: string;
    value: string | null;
    unit: string;
    flag: "green" | "amber" | "red" | null;
    retestYears: number | null;
    comments: string | null;
    sampleDate: string | null;
    releasedAt: string;
    correctedAt: string | null;
  }[];
  /** His entries on events' waiting lists, current and past. */
  waitingLists: {
    eventName: string;
    eventDate: string;
    status: string;
    joinedAt: string;
    offeredTime: string | null;
    offeredAt: string | null;
    offerExpiresAt: string | null;
  }[];
  newsletter: {
    name: string;
    email: string;
    hearAboutEvents: boolean;
    subscribedAt: string;
    unsubscribedAt: string | null;
  }[];
  enquiries: {
    sentAt: string;
    firstName: string;
    lastName: string;
    email: string;
    phoneNumber: string;
    message: string;
    handled: boolean;
  }[];
  /** The audit log's entries about him: when, what, and whether it was him or staff. */
  auditEntries: { at: string; action: string; description: string; byYou: boolean }[];
}

export interface Requester {
  userId: string;
}

/**
 * The patient himself, as the audit log records him: his id only. No client address, because the
 * audit log is append-only and would keep it after his account is deleted.
 */
const selfActor = (userId: string) => ({ id: userId, email: null, clientAddress: null });

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * His addresses, lower-cased: the account's and the profile's (they can differ). Our own copies of
 * mail to or about them, and sign-in tokens, go with his account whoever owns the address.
 */
async function addressesOf(db: Db, userId: string): Promise<string[]> {
  const [row] = await db
    .select({ accountEmail: user.email, profileEmail: profile.email })
    .from(user)
    .leftJoin(profile, eq(profile.userId, user.id))
    .where(eq(user.id, userId));
  if (!row) return [];
  return [...new Set([row.accountEmail, row.profileEmail].filter(Boolean) as string[])].map(
    (email) => email.toLowerCase(),
  );
}

/**
 * The addresses shown to be his, lower-cased: the account's, once he has confirmed it from its
 * e-mail. Newsletter entries, contact-form messages and mail are matched by address, not by
 * account, and anyone can sign up with an address that is not theirs: an address not confirmed
 * (or a profile's contact address, never confirmed) would show him, or erase, another person's.
 */
async function provenAddressesOf(db: Db, userId: string): Promise<string[]> {
  const [row] = await db
    .select({ email: user.email, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.id, userId));
  return row?.emailVerified ? [row.email.toLowerCase()] : [];
}

const emailIn = (column: SQL | typeof enquiry.email, emails: string[]) =>
  inArray(sql`lower(${column})`, emails);

/** The text names this address as a whole (`wholeAddressPattern`): never part of another's. */
const mentions = (column: SQL, email: string) =>
  sql`lower(${column}) ~ ${wholeAddressPattern(email)}`;

/**
 * Everything held about the signed-in person, and an audit entry that he read it (`format`: the
 * page or the download). Only his rows: by his id, or by his own e-mail addresses.
 */
export async function collectMyData(
  db: Db,
  requester: Requester,
  format: "page" | "json",
  now = new Date(),
): Promise<MyData | null> {
  const { userId } = requester;
  const [person] = await db.select().from(user).where(eq(user.id, userId));
  if (!person) return null;
  const [own] = await db.select().from(profile).where(eq(profile.userId, userId));
  const emails = await provenAddressesOf(db, userId);

  const bookingRows = await db
    .select({ booking, event, productName: screeningProduct.name })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .innerJoin(screeningProduct, eq(screeningProduct.id, event.productId))
    .where(eq(booking.userId, userId))
    .orderBy(desc(event.eventDate), desc(booking.slotTime));
  const bookingIds = bookingRows.map((row) => row.booking.id);
  const payments = bookingIds.length
    ? await db
        .select({
          bookingId: paymentTransaction.bookingId,
          kind: paymentTransaction.kind,
          status: paymentTransaction.status,
          amountPence: paymentTransaction.amountPence,
          createdAt: paymentTransaction.createdAt,
        })
        .from(paymentTransaction)
        .where(inArray(paymentTransaction.bookingId, bookingIds))
        .orderBy(asc(paymentTransaction.createdAt))
    : [];

  const consents = await db
    .select({ consent, reference: booking.reference })
    .from(consent)
    .leftJoin(booking, eq(booking.id, consent.bookingId))
    .where(eq(consent.userId, userId))
    .orderBy(desc(consent.agreedAt));

  const results = await db
    .select({ result: testResult, reference: booking.reference, eventName: event.name })
    .from(testResult)
    .innerJoin(booking, eq(booking.id, testResult.bookingId))
    .innerJoin(event, eq(event.id, booking.eventId))
    .where(
      and(
        eq(booking.userId, userId),
        isNotNull(testResult.releasedAt),
        lte(testResult.releasedAt, now),
      ),
    )
    .orderBy(desc(testResult.releasedAt));

  const waiting = await db
    .select({ entry: waitlistEntry, eventName: event.name, eventDate: event.eventDate })
    .from(waitlistEntry)
    .innerJoin(event, eq(event.id, waitlistEntry.eventId))
    .where(eq(waitlistEntry.userId, userId))
    .orderBy(desc(waitlistEntry.joinedAt));

  const newsletter = emails.length
    ? await db
        .select()
        .from(newsletterSubscription)
        .where(emailIn(sql`${newsletterSubscription.email}`, emails))
    : [];
  const enquiries = emails.length
    ? await db
        .select()
        .from(enquiry)
        .where(emailIn(sql`${enquiry.email}`, emails))
        .orderBy(desc(enquiry.createdAt))
    : [];
  const audits = await db
    .select({ at: auditLog.at, action: auditLog.action, actorUserId: auditLog.actorUserId })
    .from(auditLog)
    .where(eq(auditLog.subjectUserId, userId))
    .orderBy(desc(auditLog.at))
    .limit(1000);

  const data: MyData = {
    exportedAt: iso(now),
    account: {
      name: person.name,
      email: person.email,
      emailVerified: person.emailVerified,
      createdAt: iso(person.createdAt),
    },
    profile: own
      ? {
          reference: own.reference,
          firstName: own.firstName,
          lastName: own.lastName,
          gender: own.gender,
          dateOfBirth: own.dateOfBirth,
          ethnicity: own.ethnicity,
          occupation: own.occupation,
          phone: own.phone,
          email: own.email,
          homeAddressLine1: own.homeAddressLine1,
          homeAddressLine2: own.homeAddressLine2,
          homePostcode: own.homePostcode,
          homeCountry: own.homeCountry,
          billingAddress: own.billingAddress,
          nhsNumber: own.nhsNumber,
        }
      : null,
    bookings: bookingRows.map(({ booking: row, event: ev, productName }) => ({
      reference: row.reference,
      eventName: ev.name,
      productName,
      eventDate: ev.eventDate,
      slotStart: row.slotTime,
      slotEnd: slotEndTime(row.slotTime, ev.sessionDuration),
      address: eventAddress(ev),
      status: row.status,
      paymentStatus: row.paymentStatus,
      pricePence: row.pricePence,
      bookedAt: iso(row.createdAt),
      confirmedAt: isoOrNull(row.confirmedAt),
      cancelledAt: isoOrNull(row.cancelledAt),
      payments: payments
        .filter((payment) => payment.bookingId === row.id)
        .map((payment) => ({
          kind: payment.kind,
          status: payment.status,
          amountPence: payment.amountPence,
          at: iso(payment.createdAt),
        })),
    })),
    consents: consents.map(({ consent: row, reference }) => ({
      bookingReference: reference,
      testDate: row.testDate,
      agreedAt: iso(row.agreedAt),
      wordingVersion: row.wordingVersion,
      gpConsent: row.gpConsent,
      answers: (row.answers as ConsentAnswers | null) ?? null,
      answersErasedAt: isoOrNull(row.answersErasedAt),
    })),
    results: results.map(({ result, reference, eventName }) => ({
      bookingReference: reference,
      eventName,
      value: result.psaValue,
      unit: result.unit,
      flag: result.flag,
      retestYears: result.retestYears,
      comments: result.comments,
      sampleDate: result.sampleDate,
      releasedAt: iso(result.releasedAt!),
      correctedAt: isoOrNull(result.correctedAt),
    })),
    waitingLists: waiting.map(({ entry, eventName, eventDate }) => ({
      eventName,
      eventDate,
      status: entry.status,
      joinedAt: iso(entry.joinedAt),
      offeredTime: entry.offeredSlotTime,
      offeredAt: isoOrNull(entry.offeredAt),
      offerExpiresAt: isoOrNull(entry.offerExpiresAt),
    })),
    newsletter: newsletter.map((row) => ({
      name: row.name,
      email: row.email,
      hearAboutEvents: row.hearAboutEvents,
      subscribedAt: iso(row.createdAt),
      unsubscribedAt: isoOrNull(row.unsubscribedAt),
    })),
    enquiries: enquiries.map((row) => ({
      sentAt: iso(row.createdAt),
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phoneNumber: row.phoneNumber,
      message: row.message,
      handled: row.handledAt !== null,
    })),
    auditEntries: audits.map((row) => ({
      at: iso(row.at),
      action: row.action,
      description: isAuditAction(row.action) ? AUDIT_ACTIONS[row.action] : row.action,
      byYou: row.actorUserId === userId,
    })),
  };

  // Recorded before the data is handed over; ids and counts only.
  await recordAudit(db, selfActor(userId), {
    action: "my-data.export",
    subjectUserId: userId,
    entityType: "user",
    entityId: userId,
    details: { format, bookings: data.bookings.length, results: data.results.length },
  });
  return data;
}

/* ---------- Deleting the account ---------- */

async function bookingsForErasure(db: Db, userId: string): Promise<BookingForErasure[]> {
  const rows = await db
    .select({
      booking,
      eventName: event.name,
      eventDate: event.eventDate,
      sessionDuration: event.sessionDuration,
      releasedAt: testResult.releasedAt,
      failedRefundAttempts,
      refusedForGood: refundRefusedForGoodColumn,
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .leftJoin(testResult, eq(testResult.bookingId, booking.id))
    .where(eq(booking.userId, userId));
  return rows.map((row) => ({
    ...row.booking,
    eventName: row.eventName,
    eventDate: row.eventDate,
    slotEnd: slotEndTime(row.booking.slotTime, row.sessionDuration),
    resultReleased: row.releasedAt !== null,
    refundTries: { failedAttempts: row.failedRefundAttempts, refusedForGood: row.refusedForGood },
  }));
}

export type ErasureCheck =
  | { kind: "staff" }
  | { kind: "blocked"; blockers: ErasureBlocker[] }
  | { kind: "allowed"; retainsResults: number };

/** Whether the person may delete his account now, and if not, why (for the page, before asking). */
export async function erasureCheck(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<ErasureCheck> {
  const roles = await db.select().from(userRole).where(eq(userRole.userId, userId)).limit(1);
  if (roles.length > 0) return { kind: "staff" };
  const bookings = await bookingsForErasure(db, userId);
  const blockers = erasureBlockers(bookings, now);
  if (blockers.length > 0) return { kind: "blocked", blockers };
  return { kind: "allowed", retainsResults: bookings.filter((row) => row.resultReleased).length };
}

/** Wrong passwords on the delete form, per account, before it waits. */
export const DELETE_PASSWORD_LIMIT = 5;
export const DELETE_PASSWORD_WINDOW_MS = 15 * 60_000;

export type DeleteOutcome =
  | { outcome: "deleted"; retainedResults: number; heldPlacesFreed: number }
  /** a press that overlapped another: the account was deleted by that one */
  | { outcome: "already-deleted" }
  | { outcome: "wrong-password" }
  | { outcome: "too-many-attempts"; retryAfterSeconds: number }
  /** staff, or something stands in the way (the page says what) */
  | { outcome: "refused"; check: Exclude<ErasureCheck, { kind: "allowed" }> };

/**
 * Deletes the signed-in person's account, if his password is right and nothing stands in the way
 * (`erasureBlockers`; staff are removed by an admin). In one transaction, under his lock (so no
 * hold or payment of his starts meanwhile): released results are copied apart with the minimum
 * that identifies them (`retained_result`, until RESULT_RETENTION_YEARS after release); then his
 * sign-in, profile, consent answers, newsletter subscription, enquiries, mail and unlocks are
 * erased (and his waiting-list entries: a place offered to him goes to the next in line), his
 * live holds let go, payment records kept without the provider's payer details, and
 * the user row anonymised (bookings and results point at it). An audit entry records it, with ids.
 */
/** Whether the account is gone or erased (`isErasedAccount`). */
async function isErased(db: Db, userId: string): Promise<boolean> {
  const [me] = await db
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  return !me || isErasedAccount(me);
}

export async function deleteMyAccount(
  db: Db,
  input: Requester & { password: string; resultRetentionYears?: number },
  now = new Date(),
): Promise<DeleteOutcome> {
  const { userId } = input;
  const retentionYears = input.resultRetentionYears ?? config().RESULT_RETENTION_YEARS;
  const [credential] = await db
    .select({ password: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")));
  const limit = await hitRateLimit(
    db,
    `delete-account:${userId}`,
    DELETE_PASSWORD_LIMIT,
    DELETE_PASSWORD_WINDOW_MS,
    now,
  );
  if (!limit.allowed)
    return { outcome: "too-many-attempts", retryAfterSeconds: limit.retryAfterSeconds };
  const passwordRight =
    credential?.password != null &&
    (await verifyPassword({ hash: credential.password, password: input.password }));
  if (!passwordRight) {
    // A second press that read after the first's erasure committed finds no password at all:
    // it is done, not a wrong password (the page he sees is the second press's).
    if (!credential && (await isErased(db, userId))) return { outcome: "already-deleted" };
    return { outcome: "wrong-password" };
  }

  const outcome = await db.transaction(async (tx): Promise<DeleteOutcome> => {
    await lockPerson(tx, userId);
    // A second press checked the password before the first's erasure committed.
    if (await isErased(tx, userId)) return { outcome: "already-deleted" };
    const check = await erasureCheck(tx, userId, now);
    if (check.kind !== "allowed") return { outcome: "refused", check };

    const emails = await addressesOf(tx, userId);
    const provenEmails = await provenAddressesOf(tx, userId);
    const [own] = await tx.select().from(profile).where(eq(profile.userId, userId));

    // What the clinic must keep: each result, with whose it is, apart from the account.
    const results = await tx
      .select({ result: testResult, sampleId: booking.sampleId })
      .from(testResult)
      .innerJoin(booking, eq(booking.id, testResult.bookingId))
      .where(eq(booking.userId, userId));
    if (results.length > 0) {
      const [person] = await tx.select({ name: user.name }).from(user).where(eq(user.id, userId));
      const [fallbackFirst = "", ...fallbackRest] = (person?.name ?? "").split(" ");
      await tx.insert(retainedResult).values(
        results.map(({ result, sampleId }) => ({
          testResultId: result.id,
          firstName: own?.firstName ?? fallbackFirst,
          lastName: own?.lastName ?? fallbackRest.join(" "),
          dateOfBirth: own?.dateOfBirth ?? null,
          nhsNumber: own?.nhsNumber ?? null,
          sampleId,
          sampleDate: result.sampleDate,
          accountErasedAt: now,
          retainUntil: resultRetainedUntil(result.releasedAt, now, retentionYears),
        })),
      );
    }

    // Sign-in: sessions, password, two-factor, codes, tokens.
    await tx.delete(session).where(eq(session.userId, userId));
    await tx.delete(account).where(eq(account.userId, userId));
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx.delete(usedTotpCode).where(eq(usedTotpCode.userId, userId));
    await tx
      .delete(verification)
      .where(
        or(
          eq(verification.value, userId),
          ...emails.map((email) => mentions(sql`${verification.value}`, email)),
          ...emails.map((email) => mentions(sql`${verification.identifier}`, email)),
        ),
      );
    await tx.delete(eventUnlock).where(eq(eventUnlock.userId, userId));
    await tx.delete(profile).where(eq(profile.userId, userId));

    // Consent: the answers go; that consent was given, when, and to which wording stay.
    await tx
      .update(consent)
      .set({ answers: null, answersErasedAt: now })
      .where(and(eq(consent.userId, userId), isNotNull(consent.answers)));

    // What a person gave with the address, outside any account, goes only when it is shown to be his.
    if (provenEmails.length > 0) {
      await tx
        .delete(newsletterSubscription)
        .where(emailIn(sql`${newsletterSubscription.email}`, provenEmails));
      await tx.delete(enquiry).where(emailIn(sql`${enquiry.email}`, provenEmails));
    }
    if (emails.length > 0) {
      // Mail to him, and mail about him (an enquiry's notice to staff quotes his address). For an
      // address not shown to be his, only our copies of mail already sent to it: mail still to go
      // there, and notices about its owner's own messages, may be someone else's.
      const sentOrProven = or(
        ne(outboxEmail.status, "pending"),
        ...(provenEmails.length > 0 ? [emailIn(sql`${outboxEmail.to}`, provenEmails)] : []),
      );
      await tx
        .delete(outboxEmail)
        .where(
          or(
            and(emailIn(sql`${outboxEmail.to}`, emails), sentOrProven),
            ...(provenEmails.length > 0
              ? [
                  emailIn(sql`${outboxEmail.replyTo}`, provenEmails),
                  ...provenEmails.map((email) => mentions(sql`${outboxEmail.text}`, email)),
                ]
              : []),
          ),
        );
    }
    // His waiting-list entries go; a place offered to him goes to the next in line at once. The
    // events of all his entries still on a list are locked first (after the person, by id: D-114),
    // so that the worker offering a place cannot pick an entry of his as it is deleted.
    const listedAt = await tx
      .selectDistinct({ eventId: waitlistEntry.eventId })
      .from(waitlistEntry)
      .where(
        and(
          eq(waitlistEntry.userId, userId),
          inArray(waitlistEntry.status, ACTIVE_WAITLIST_STATUSES),
        ),
      )
      .orderBy(waitlistEntry.eventId);
    const listedEvents = [];
    for (const { eventId } of listedAt) {
      const locked = await lockEvent(tx, eventId);
      if (locked) listedEvents.push(locked);
    }
    const removed = await tx
      .delete(waitlistEntry)
      .where(eq(waitlistEntry.userId, userId))
      .returning({ eventId: waitlistEntry.eventId, status: waitlistEntry.status });
    const offeredAt = new Set(
      removed.filter((row) => row.status === "offered").map((row) => row.eventId),
    );
    for (const ev of listedEvents) if (offeredAt.has(ev.id)) await offerFreedPlaces(tx, ev, now);

    // His bookings stay (the charity's accounts and the results point at them); a hold nobody is
    // paying for yet is let go, and the provider's answers lose the payer's name and address.
    const bookings = await tx
      .select()
      .from(booking)
      .where(eq(booking.userId, userId))
      .for("update");
    const live = bookings.filter((row) => isHoldLive(row, now)).map((row) => row.id);
    if (live.length > 0)
      await tx
        .update(booking)
        .set({ status: "expired", holdExpiresAt: now, updatedAt: now })
        .where(inArray(booking.id, live));
    if (bookings.length > 0)
      await tx
        .update(paymentTransaction)
        .set({ raw: null })
        .where(
          inArray(
            paymentTransaction.bookingId,
            bookings.map((row) => row.id),
          ),
        );

    await tx
      .update(user)
      .set({
        name: ERASED_ACCOUNT_NAME,
        email: erasedAccountEmail(userId),
        emailVerified: false,
        image: null,
        twoFactorEnabled: false,
        deactivatedAt: now,
        updatedAt: now,
      })
      .where(eq(user.id, userId));

    await recordAudit(tx, selfActor(userId), {
      action: "my-data.erase",
      subjectUserId: userId,
      entityType: "user",
      entityId: userId,
      details: {
        retainedResults: results.length,
        bookings: bookings.length,
        holdsReleased: live.length,
      },
    });
    return { outcome: "deleted", retainedResults: results.length, heldPlacesFreed: live.length };
  });
  if (outcome.outcome === "deleted" && outcome.heldPlacesFreed > 0) eventsChanged();
  return outcome;
}

/* ---------- The worker's retention jobs ---------- */

/** Rows each pass takes at most, so that one pass never holds a long lock. */
const RETENTION_BATCH = 200;

/**
 * Consent answers older than CONSENT_RETENTION_DAYS (from both the agreement and the test day)
 * are shredded: `answers` becomes null and `answers_erased_at` says when; that consent was given,
 * when, and to which wording stay. Only the consent table is touched: a result is never erased by
 * this. Rows another server is shredding are skipped (SKIP LOCKED), so servers never collide.
 */
export async function shredExpiredConsentAnswers(
  db: Db,
  now: Date,
  retentionDays: number,
): Promise<{ shredded: number }> {
  const cutoff = consentShreddingCutoff(now, retentionDays);
  const shredded = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: consent.id })
      .from(consent)
      .where(
        and(
          isNotNull(consent.answers),
          lt(consent.agreedAt, cutoff.agreedBefore),
          lt(consent.testDate, cutoff.testDateBefore),
        ),
      )
      .orderBy(consent.id)
      .limit(RETENTION_BATCH)
      .for("update", { skipLocked: true });
    if (due.length === 0) return 0;
    const done = await tx
      .update(consent)
      .set({ answers: null, answersErasedAt: now })
      .where(
        and(
          inArray(
            consent.id,
            due.map((row) => row.id),
          ),
          isNotNull(consent.answers),
        ),
      )
      .returning({ id: consent.id });
    return done.length;
  });
  return { shredded };
}

/**
 * Results kept after their account was deleted, whose retention period is over: the kept identity
 * and the result itself are erased, and the booking loses its sample id. A result with corrections
 * keeps its earlier versions (append-only, like the audit log), which then name nobody: the row
 * they hang on is emptied instead of deleted. One audit entry per result, without a person.
 */
export async function eraseEndedRetainedResults(db: Db, now: Date): Promise<{ erased: number }> {
  const erased = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: retainedResult.id, testResultId: retainedResult.testResultId })
      .from(retainedResult)
      .where(lte(retainedResult.retainUntil, now))
      .orderBy(retainedResult.id)
      .limit(RETENTION_BATCH)
      .for("update", { skipLocked: true });
    if (due.length === 0) return 0;
    const resultIds = due.map((row) => row.testResultId);
    await tx.delete(retainedResult).where(
      inArray(
        retainedResult.id,
        due.map((row) => row.id),
      ),
    );
    const results = await tx
      .select({ id: testResult.id, bookingId: testResult.bookingId })
      .from(testResult)
      .where(inArray(testResult.id, resultIds))
      .for("update");
    await tx
      .update(booking)
      .set({ sampleId: null, updatedAt: now })
      .where(
        inArray(
          booking.id,
          results.map((row) => row.bookingId),
        ),
      );
    const corrected = await tx
      .selectDistinct({ id: testResultRevision.testResultId })
      .from(testResultRevision)
      .where(inArray(testResultRevision.testResultId, resultIds));
    const keep = new Set(corrected.map((row) => row.id));
    const deletable = resultIds.filter((id) => !keep.has(id));
    if (deletable.length > 0) await tx.delete(testResult).where(inArray(testResult.id, deletable));
    if (keep.size > 0)
      await tx
        .update(testResult)
        .set({
          psaValue: null,
          flag: null,
          suggestedFlag: null,
          flagCheckSince: null,
          flagDecidedAge: null,
          retestYears: null,
          comments: null,
          sampleDate: null,
          updatedAt: now,
        })
        .where(inArray(testResult.id, [...keep]));
    await recordAudit(
      tx,
      { id: null, email: null, clientAddress: null },
      due.map((row) => ({
        action: "retained-result.erase" as const,
        entityType: "test_result",
        entityId: row.testResultId,
      })),
    );
    return due.length;
  });
  return { erased };
}
