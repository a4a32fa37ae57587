import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import type { Db } from "#app/db/client.server";
import {
  auditLog,
  booking,
  event,
  profile,
  psaThreshold,
  resultImport,
  testResult,
  testResultRevision,
  user,
} from "#app/db/schema";
import { ageAtSample } from "#app/domain/age";
import { isErasedAccount } from "#app/domain/data-rights";
import { attendeeName } from "#app/domain/attendees";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { londonDate } from "#app/domain/london-time";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import {
  keptPsaValue,
  PSA_UNIT,
  readThresholdForm,
  releasedFlagNeedsCheck,
  suggestFlag,
  type ResultFlag,
  type ThresholdBand,
} from "#app/domain/psa-flag";
import {
  checkImportRows,
  cleanUploadFilename,
  importCounts,
  readResultsCsv,
  sampleIdKey,
  type BookingCandidate,
  type CheckedImportRow,
  type ImportLookup,
  type RawImportRow,
} from "#app/domain/result-import";
import {
  changedFields,
  isSeenVersion,
  nextUpdatedAt,
  releaseRefusal,
  type ReleaseDecision,
  type ReleaseRefusal,
  type ResultCorrection,
} from "#app/domain/result-release";
import { recordAudit } from "./audit.server";
import { enqueueEmail } from "./email.server";
import { isUuid } from "#app/domain/ids";

/**
 * The clinician's side of results: the laboratory's file in (upload, preview, commit), the PSA
 * thresholds, and each result's release and correction. Every read of a person's result is written
 * to the audit log before it is returned, and mail to patients never carries a value or a flag.
 */

/* ---------------------------------------------------------------------------------------------- */
/* Thresholds                                                                                     */

export interface ThresholdRow extends ThresholdBand {
  id: string;
  updatedAt: Date;
}

export function listThresholds(db: Db): Promise<ThresholdRow[]> {
  return db
    .select({
      id: psaThreshold.id,
      minAge: psaThreshold.minAge,
      maxAge: psaThreshold.maxAge,
      thresholdNgMl: psaThreshold.thresholdNgMl,
      updatedAt: psaThreshold.updatedAt,
    })
    .from(psaThreshold)
    .orderBy(asc(psaThreshold.minAge));
}

export type SaveThresholdsResult =
  { ok: true; changed: number } | { ok: false; fieldErrors: Record<string, string> };

/**
 * Saves the thresholds page: every band's threshold at once (blank: none), read from the form's
 * `values` against the bands as they are, locked. A bad field saves nothing. Returns how many
 * changed. Audited as thresholds.update with the count and each band's old and new threshold.
 */
export async function saveThresholds(
  db: Db,
  staff: StaffActor,
  values: Record<string, string>,
  now = new Date(),
): Promise<SaveThresholdsResult> {
  return db.transaction(async (tx): Promise<SaveThresholdsResult> => {
    assertCan(staff, "threshold:edit");
    const bands = await tx.select().from(psaThreshold).for("update");
    const read = readThresholdForm(
      bands.map((band) => band.id),
      values,
    );
    if (!read.ok) return { ok: false, fieldErrors: read.fieldErrors };
    let changed = 0;
    // Thresholds are clinical settings, not anyone's data: the log keeps each change, "40-49": "1.00 → 1.20".
    const changes: Record<string, string> = {};
    for (const band of bands) {
      if (!read.thresholds.has(band.id)) continue;
      const next = read.thresholds.get(band.id) ?? null;
      if (next === band.thresholdNgMl) continue;
      await tx
        .update(psaThreshold)
        .set({ thresholdNgMl: next, updatedAt: now, updatedBy: staff.id })
        .where(eq(psaThreshold.id, band.id));
      changes[`${band.minAge}-${band.maxAge}`] =
        `${band.thresholdNgMl ?? "none"} → ${next ?? "none"}`;
      changed++;
    }
    await recordAudit(tx, staff, {
      action: "thresholds.update",
      entityType: "psa_threshold",
      details: { bands: bands.length, changed, ...changes },
    });
    return { ok: true, changed };
  });
}

/* ---------------------------------------------------------------------------------------------- */
/* Import                                                                                         */

/** Which bookings an import's rows name, by reference or sample id; undefined when none. */
function namedBookings(rows: readonly RawImportRow[]) {
  const references = [
    ...new Set(
      rows
        .map((row) => (row.reference ? normaliseBookingReference(row.reference) : null))
        .filter((reference): reference is string => reference !== null),
    ),
  ];
  const sampleKeys = [
    ...new Set(rows.filter((row) => row.sampleId).map((row) => sampleIdKey(row.sampleId))),
  ];
  const sampleKeyOf = sql`upper(regexp_replace(btrim(${booking.sampleId}), '\\s+', ' ', 'g'))`;
  const conditions = [
    references.length > 0 ? inArray(booking.reference, references) : undefined,
    sampleKeys.length > 0 ? inArray(sampleKeyOf, sampleKeys) : undefined,
  ].filter((condition) => condition !== undefined);
  return conditions.length === 0 ? undefined : or(...conditions);
}

/**
 * The profiles of the people an import's rows name, share-locked until the import commits: their
 * dates of birth give the suggested flags. A date being changed at this moment is saved first, and
 * read here after it (each statement reads what is committed); one changed later waits for this
 * import, then suggests again for the results it wrote (suggestFlagsAgainForBirthDate).
 */
async function lockNamedProfiles(tx: Db, rows: readonly RawImportRow[]) {
  const named = namedBookings(rows);
  if (!named) return;
  await tx
    .select({ id: profile.id })
    .from(profile)
    .where(
      inArray(profile.userId, tx.select({ userId: booking.userId }).from(booking).where(named)),
    )
    .for("share");
}

/**
 * The bookings an import's rows name. `lockForCommit` share-locks them until the import commits, so
 * that a sample undone at the same moment (which locks its booking to update it, and refuses once a
 * result exists) either finishes first, and its booking no longer matches, or waits and is refused:
 * a result never lands on a booking whose sample was just taken back.
 */
async function lookupBookings(
  db: Db,
  rows: readonly RawImportRow[],
  { lockForCommit = false }: { lockForCommit?: boolean } = {},
) {
  const named = namedBookings(rows);
  const select = () =>
    db
      .select({
        bookingId: booking.id,
        reference: booking.reference,
        status: booking.status,
        sampleId: booking.sampleId,
        sampleTakenAt: booking.sampleTakenAt,
        userId: booking.userId,
        eventDate: event.eventDate,
        dateOfBirth: profile.dateOfBirth,
        resultId: testResult.id,
        releasedAt: testResult.releasedAt,
      })
      .from(booking)
      .innerJoin(event, eq(event.id, booking.eventId))
      .leftJoin(profile, eq(profile.userId, booking.userId))
      .leftJoin(testResult, eq(testResult.bookingId, booking.id))
      .where(named);
  const found = !named
    ? []
    : lockForCommit
      ? await select().for("share", { of: booking })
      : await select();
  const byReference = new Map<string, BookingCandidate>();
  const bySampleId = new Map<string, BookingCandidate[]>();
  const userOf = new Map<string, string>();
  for (const row of found) {
    const candidate: BookingCandidate = {
      bookingId: row.bookingId,
      reference: row.reference,
      status: row.status,
      dateOfBirth: row.dateOfBirth,
      eventDate: row.eventDate,
      result: row.resultId ? { id: row.resultId, released: row.releasedAt !== null } : null,
      sampleTaken: row.sampleTakenAt !== null,
    };
    userOf.set(row.bookingId, row.userId);
    byReference.set(row.reference, candidate);
    if (row.sampleId) {
      const key = sampleIdKey(row.sampleId);
      bySampleId.set(key, [...(bySampleId.get(key) ?? []), candidate]);
    }
  }
  const lookup: ImportLookup = { byReference, bySampleId };
  return { lookup, userOf };
}

export type CreateImportResult = { ok: true; id: string } | { ok: false; error: string };

/**
 * Reads an uploaded file, checks every row and keeps the rows with their errors for the preview.
 * Nothing is written to results yet. Audited as results.import.preview, with counts only.
 */
export async function createImport(
  db: Db,
  staff: StaffActor,
  file: { filename: string | null; text: string },
  now = new Date(),
): Promise<CreateImportResult> {
  assertCan(staff, "result:import");
  const read = readResultsCsv(file.text);
  if (!read.ok) return { ok: false, error: read.error };
  return db.transaction(async (tx) => {
    const [{ lookup }, bands] = await Promise.all([
      lookupBookings(tx, read.rows),
      listThresholds(tx),
    ]);
    const rows = checkImportRows(read.rows, lookup, bands, londonDate(now));
    const [made] = await tx
      .insert(resultImport)
      .values({
        uploadedBy: staff.id,
        filename: cleanUploadFilename(file.filename),
        rows,
        createdAt: now,
      })
      .returning({ id: resultImport.id });
    await recordAudit(tx, staff, {
      action: "results.import.preview",
      entityType: "result_import",
      entityId: made!.id,
      details: importCounts(rows),
    });
    return { ok: true, id: made!.id };
  });
}

export interface PreviewRow extends CheckedImportRow {
  patient: {
    name: string;
    reference: string;
    eventName: string;
    eventDate: string;
  } | null;
}

export interface ImportPreview {
  id: string;
  filename: string | null;
  createdAt: Date;
  committedAt: Date | null;
  rows: PreviewRow[];
  counts: ReturnType<typeof importCounts>;
}

/** Names and events of the bookings rows point to (for the preview). */
async function bookingPeople(db: Db, bookingIds: string[]) {
  if (bookingIds.length === 0) return new Map();
  const found = await db
    .select({
      bookingId: booking.id,
      reference: booking.reference,
      userId: booking.userId,
      firstName: profile.firstName,
      lastName: profile.lastName,
      accountName: user.name,
      eventName: event.name,
      eventDate: event.eventDate,
    })
    .from(booking)
    .innerJoin(event, eq(event.id, booking.eventId))
    .innerJoin(user, eq(user.id, booking.userId))
    .leftJoin(profile, eq(profile.userId, booking.userId))
    .where(inArray(booking.id, bookingIds));
  return new Map(found.map((row) => [row.bookingId, row]));
}

/**
 * One import with its rows, for the clinician who uploaded it only (anyone else, or an id that
 * is not one: null, which the page answers 404). Each person shown is audited as results.view.
 */
export async function viewImport(
  db: Db,
  staff: StaffActor,
  importId: string,
): Promise<ImportPreview | null> {
  assertCan(staff, "result:import");
  if (!isUuid(importId)) return null;
  const [found] = await db
    .select()
    .from(resultImport)
    .where(and(eq(resultImport.id, importId), eq(resultImport.uploadedBy, staff.id)));
  if (!found) return null;
  const rows = found.rows as CheckedImportRow[];
  const ids = [...new Set(rows.map((row) => row.bookingId).filter((id): id is string => !!id))];
  const people = await bookingPeople(db, ids);
  const subjects = [...new Set([...people.values()].map((person) => person.userId as string))];
  await recordAudit(
    db,
    staff,
    subjects.map((subjectUserId) => ({
      action: "results.view" as const,
      subjectUserId,
      entityType: "result_import",
      entityId: found.id,
    })),
  );
  return {
    id: found.id,
    filename: found.filename,
    createdAt: found.createdAt,
    committedAt: found.committedAt,
    counts: importCounts(rows),
    rows: rows.map((row) => {
      const person = row.bookingId ? people.get(row.bookingId) : undefined;
      // A refused row's age and suggested flag are not shown, so not sent either.
      const refused = row.errors.length > 0;
      return {
        ...row,
        age: refused ? null : row.age,
        suggestedFlag: refused ? null : row.suggestedFlag,
        patient: person
          ? {
              name: attendeeName(person),
              reference: person.reference,
              eventName: person.eventName,
              eventDate: person.eventDate,
            }
          : null,
      };
    }),
  };
}

/** The clinician's own recent imports (no personal data: names of files and counts). */
export async function listOwnImports(db: Db, staff: StaffActor, limit = 10) {
  assertCan(staff, "result:import");
  const found = await db
    .select()
    .from(resultImport)
    .where(eq(resultImport.uploadedBy, staff.id))
    .orderBy(desc(resultImport.createdAt))
    .limit(limit);
  return found.map((row) => ({
    id: row.id,
    filename: row.filename,
    createdAt: row.createdAt,
    committedAt: row.committedAt,
    counts: importCounts(row.rows as CheckedImportRow[]),
  }));
}

export type CommitResult =
  | { status: "committed"; imported: number; replaced: number; skipped: number }
  | { status: "already-committed" }
  | { status: "not-found" };

/**
 * Writes every good row to test_result in one transaction, skipping rows with errors; the import
 * is marked committed, so a second commit does nothing. The rows are checked again first: a
 * booking cancelled, or a result released, since the preview is skipped too. Audited as
 * results.import.commit (counts) and once per person whose result came in.
 */
export async function commitImport(
  db: Db,
  staff: StaffActor,
  importId: string,
  now = new Date(),
): Promise<CommitResult> {
  return db.transaction(async (tx): Promise<CommitResult> => {
    assertCan(staff, "result:import");
    if (!isUuid(importId)) return { status: "not-found" };
    const [found] = await tx
      .select()
      .from(resultImport)
      .where(and(eq(resultImport.id, importId), eq(resultImport.uploadedBy, staff.id)))
      .for("update");
    if (!found) return { status: "not-found" };
    if (found.committedAt) return { status: "already-committed" };

    const stored = found.rows as CheckedImportRow[];
    const raw: RawImportRow[] = stored.map(
      ({ line, reference, sampleId, psa, unit, sampleDate }) => ({
        line,
        reference,
        sampleId,
        psa,
        unit,
        sampleDate,
      }),
    );
    await lockNamedProfiles(tx, raw);
    const [{ lookup, userOf }, bands] = await Promise.all([
      lookupBookings(tx, raw, { lockForCommit: true }),
      listThresholds(tx),
    ]);
    const rows = checkImportRows(raw, lookup, bands, londonDate(now));
    const written: { resultId: string; bookingId: string }[] = [];
    let replaced = 0;
    for (const row of rows) {
      if (row.errors.length > 0 || !row.bookingId) continue;
      const values = {
        psaValue: keptPsaValue(row.psa),
        unit: row.normalisedUnit ?? PSA_UNIT,
        sampleDate: row.effectiveSampleDate,
        suggestedFlag: row.suggestedFlag,
        importedAt: now,
        importedBy: staff.id,
      };
      const [saved] = await tx
        .insert(testResult)
        .values({ bookingId: row.bookingId, ...values, updatedAt: now })
        .onConflictDoUpdate({
          target: testResult.bookingId,
          // A new value needs a fresh decision: nothing the clinician had chosen is kept. The
          // version moves on even if the clock has not, so a page opened before is refused.
          set: {
            ...values,
            flag: null,
            retestYears: null,
            comments: null,
            updatedAt: sql`greatest(${now.toISOString()}::timestamptz, ${testResult.updatedAt} + interval '1 millisecond')`,
          },
          setWhere: isNull(testResult.releasedAt),
        })
        .returning({ id: testResult.id });
      if (!saved) {
        row.errors.push("This booking's result was released before the import was committed");
        continue;
      }
      if (row.replaces) replaced++;
      written.push({ resultId: saved.id, bookingId: row.bookingId });
    }
    await tx
      .update(resultImport)
      .set({ committedAt: now, rows })
      .where(eq(resultImport.id, found.id));
    const skipped = rows.length - written.length;
    await recordAudit(tx, staff, [
      {
        action: "results.import.commit",
        entityType: "result_import",
        entityId: found.id,
        details: { rows: rows.length, imported: written.length, replaced, skipped },
      },
      ...written.map((item) => ({
        action: "results.import.commit" as const,
        subjectUserId: userOf.get(item.bookingId) ?? null,
        entityType: "test_result",
        entityId: item.resultId,
        details: { importId: found.id },
      })),
    ]);
    return { status: "committed", imported: written.length, replaced, skipped };
  });
}

/* ---------------------------------------------------------------------------------------------- */
/* Lists                                                                                          */

/** Awaiting release; released, newest first; released results whose flag is to be checked again. */
export type ResultListFilter = "awaiting" | "released" | "to-check";

export interface ResultListItem {
  id: string;
  patientName: string;
  reference: string;
  eventName: string;
  eventDate: string;
  psaValue: string | null;
  unit: string;
  suggestedFlag: ResultFlag | null;
  flag: ResultFlag | null;
  importedAt: Date | null;
  releasedAt: Date | null;
  correctedAt: Date | null;
  flagCheckSince: Date | null;
}

/** Which results each list shows (the dashboard counts the same). */
export const RESULTS_LISTED = {
  awaiting: and(isNull(testResult.releasedAt), isNotNull(testResult.psaValue)),
  released: isNotNull(testResult.releasedAt),
  "to-check": and(isNotNull(testResult.releasedAt), isNotNull(testResult.flagCheckSince)),
} satisfies Record<ResultListFilter, unknown>;

/**
 * Results awaiting release (imported, not released), oldest first; the most recently released; or
 * the released ones whose flag is to be checked again, longest waiting first.
 * One results.view audit row per person shown.
 */
export async function listResults(
  db: Db,
  staff: StaffActor,
  filter: ResultListFilter,
  limit = 200,
): Promise<ResultListItem[]> {
  assertCan(staff, "result:read");
  const where = RESULTS_LISTED[filter];
  const order = {
    awaiting: [asc(event.eventDate), asc(booking.reference)],
    released: [desc(testResult.releasedAt)],
    "to-check": [asc(testResult.flagCheckSince), asc(booking.reference)],
  }[filter];
  const found = await db
    .select({
      id: testResult.id,
      userId: booking.userId,
      firstName: profile.firstName,
      lastName: profile.lastName,
      accountName: user.name,
      reference: booking.reference,
      eventName: event.name,
      eventDate: event.eventDate,
      psaValue: testResult.psaValue,
      unit: testResult.unit,
      suggestedFlag: testResult.suggestedFlag,
      flag: testResult.flag,
      importedAt: testResult.importedAt,
      releasedAt: testResult.releasedAt,
      correctedAt: testResult.correctedAt,
      flagCheckSince: testResult.flagCheckSince,
    })
    .from(testResult)
    .innerJoin(booking, eq(booking.id, testResult.bookingId))
    .innerJoin(event, eq(event.id, booking.eventId))
    .innerJoin(user, eq(user.id, booking.userId))
    .leftJoin(profile, eq(profile.userId, booking.userId))
    .where(where)
    .orderBy(...order)
    .limit(limit);
  await recordAudit(
    db,
    staff,
    found.map((row) => ({
      action: "results.view" as const,
      subjectUserId: row.userId,
      entityType: "test_result",
      entityId: row.id,
      details: { list: filter },
    })),
  );
  return found.map(({ userId: _userId, firstName, lastName, accountName, ...row }) => ({
    ...row,
    // The suggestion is shown while a result awaits its flag, not once it is released.
    suggestedFlag: filter === "released" ? null : row.suggestedFlag,
    patientName: attendeeName({ firstName, lastName, accountName }),
  }));
}

/* ---------------------------------------------------------------------------------------------- */
/* One result                                                                                     */

export interface ResultDetail {
  id: string;
  psaValue: string | null;
  unit: string;
  flag: ResultFlag | null;
  retestYears: number | null;
  comments: string | null;
  sampleDate: string | null;
  suggestedFlag: ResultFlag | null;
  importedAt: Date | null;
  releasedAt: Date | null;
  releasedByName: string | null;
  correctedAt: Date | null;
  /** Since when a clinician is asked to check the released flag (his date of birth changed). */
  flagCheckSince: Date | null;
  /** His age when the flag he was given was last decided (null: unknown then). */
  flagDecidedAge: number | null;
  /** The version: changed by every write (import, release, correction). */
  updatedAt: Date;
  reference: string;
  sampleId: string | null;
  slotTime: string;
  eventName: string;
  eventDate: string;
  patientName: string;
  dateOfBirth: string | null;
  /** On the sample date, or the event's date. */
  age: number | null;
}

async function loadResult(db: Db, resultId: string) {
  const [found] = await db
    .select({
      result: testResult,
      userId: booking.userId,
      email: user.email,
      accountName: user.name,
      reference: booking.reference,
      sampleId: booking.sampleId,
      sampleTakenAt: booking.sampleTakenAt,
      slotTime: booking.slotTime,
      eventName: event.name,
      eventDate: event.eventDate,
      firstName: profile.firstName,
      lastName: profile.lastName,
      dateOfBirth: profile.dateOfBirth,
    })
    .from(testResult)
    .innerJoin(booking, eq(booking.id, testResult.bookingId))
    .innerJoin(event, eq(event.id, booking.eventId))
    .innerJoin(user, eq(user.id, booking.userId))
    .leftJoin(profile, eq(profile.userId, booking.userId))
    .where(eq(testResult.id, resultId));
  if (!found) return null;
  // His age at the sample as his date of birth stands: shown, and recorded with a flag decided.
  return {
    ...found,
    age: ageAtSample(found.dateOfBirth, found.result.sampleDate, found.eventDate),
  };
}

/** A result for the clinician's page, or null (404). Audited as result.view before it is returned. */
export async function viewResult(
  db: Db,
  staff: StaffActor,
  resultId: string,
): Promise<ResultDetail | null> {
  assertCan(staff, "result:read");
  if (!isUuid(resultId)) return null;
  const found = await loadResult(db, resultId);
  if (!found) return null;
  await recordAudit(db, staff, {
    action: "result.view",
    subjectUserId: found.userId,
    entityType: "test_result",
    entityId: found.result.id,
  });
  const { result } = found;
  let releasedByName: string | null = null;
  if (result.releasedBy) {
    const [by] = await db
      .select({ name: user.name })
      .from(user)
      .where(eq(user.id, result.releasedBy));
    releasedByName = by?.name ?? null;
  }
  return {
    id: result.id,
    psaValue: result.psaValue,
    unit: result.unit,
    flag: result.flag,
    retestYears: result.retestYears,
    comments: result.comments,
    sampleDate: result.sampleDate,
    suggestedFlag: result.suggestedFlag,
    importedAt: result.importedAt,
    releasedAt: result.releasedAt,
    releasedByName,
    correctedAt: result.correctedAt,
    flagCheckSince: result.flagCheckSince,
    flagDecidedAge: result.flagDecidedAge,
    updatedAt: result.updatedAt,
    reference: found.reference,
    sampleId: found.sampleId,
    slotTime: found.slotTime,
    eventName: found.eventName,
    eventDate: found.eventDate,
    patientName: attendeeName(found),
    dateOfBirth: found.dateOfBirth,
    age: found.age,
  };
}

/** The e-mails to patients: that there is something to read, and where. Never a value or a flag. */
export function resultEmail(kind: "ready" | "updated", firstName: string | null) {
  const link = `${config().publicBaseUrl}/medical-results`;
  const { medical } = organisation.phones;
  const lines = [
    `Hello${firstName ? ` ${firstName}` : ""},`,
    "",
    kind === "ready"
      ? "Your PSA test results are ready."
      : "Your PSA test results have been updated by our clinical team.",
    "",
    `To read them, sign in to your account and open your medical results: ${link}`,
    "",
    `If you have any questions about your results, call our ${medical.label.toLowerCase()} line on ${medical.display}.`,
    "",
    organisation.name,
  ];
  return {
    subject:
      kind === "ready"
        ? "Your PSA test results are ready"
        : "Your PSA test results have been updated",
    text: lines.join("\n"),
  };
}

/** The result with its patient, its row locked for the rest of the transaction. */
async function lockAndLoadResult(tx: Db, resultId: string) {
  const [locked] = await tx
    .select({ id: testResult.id })
    .from(testResult)
    .where(eq(testResult.id, resultId))
    .for("update");
  return locked ? loadResult(tx, resultId) : null;
}

export type ReleaseResult =
  { ok: true } | { ok: false; reason: "not-found" | "changed" | ReleaseRefusal };

/**
 * Sets the clinician's flag, retest interval and comments and releases the result to the patient,
 * in one transaction with its audit row (result.release) and the "results are ready" e-mail;
 * refused for a booking whose sample was never taken (releaseRefusal).
 * Refused ("changed") unless the result is still the version the clinician opened
 * (`decision.seen`, its `updatedAt`): a file imported since, or another clinician, may have
 * changed the value.
 */
export async function releaseResult(
  db: Db,
  staff: StaffActor,
  resultId: string,
  decision: ReleaseDecision,
  now = new Date(),
): Promise<ReleaseResult> {
  return db.transaction(async (tx): Promise<ReleaseResult> => {
    assertCan(staff, "result:release");
    if (!isUuid(resultId)) return { ok: false, reason: "not-found" };
    const found = await lockAndLoadResult(tx, resultId);
    if (!found) return { ok: false, reason: "not-found" };
    const refusal = releaseRefusal(found.result, found);
    if (refusal) return { ok: false, reason: refusal };
    if (!isSeenVersion(found.result.updatedAt, decision.seen))
      return { ok: false, reason: "changed" };
    await tx
      .update(testResult)
      .set({
        flag: decision.flag,
        retestYears: decision.flag === "green" ? decision.retestYears : null,
        comments: decision.comments,
        releasedAt: now,
        releasedBy: staff.id,
        flagDecidedAge: found.age,
        updatedAt: nextUpdatedAt(found.result.updatedAt, now),
      })
      .where(eq(testResult.id, resultId));
    await recordAudit(tx, staff, {
      action: "result.release",
      subjectUserId: found.userId,
      entityType: "test_result",
      entityId: resultId,
    });
    await enqueueEmail(tx, { to: found.email, ...resultEmail("ready", found.firstName) });
    return { ok: true };
  });
}

export type CorrectResult =
  | { ok: true; changed: string[]; told: boolean }
  | { ok: false; reason: "not-found" | "not-released" | "unchanged" | "changed" };

/**
 * Changes a released result. What the patient had seen is kept first in test_result_revision
 * (append-only: value, flag, comments, who released it, who replaced it and why). The audit row
 * (result.correct) names the fields changed and the reason chosen from the list, never the
 * values; `correctedAt` is set and the patient is told by e-mail (without the value), unless his
 * account has since been deleted (`told`). A changed value gets its suggested flag again; a new
 * flag or retest interval answers a check of the flag (`flagCheckSince`). Refused ("changed") unless the result is still the version the clinician
 * opened (`correction.seen`).
 */
export async function correctResult(
  db: Db,
  staff: StaffActor,
  resultId: string,
  correction: ResultCorrection,
  now = new Date(),
): Promise<CorrectResult> {
  return db.transaction(async (tx): Promise<CorrectResult> => {
    assertCan(staff, "result:correct");
    if (!isUuid(resultId)) return { ok: false, reason: "not-found" };
    const found = await lockAndLoadResult(tx, resultId);
    if (!found) return { ok: false, reason: "not-found" };
    const { result } = found;
    if (!result.releasedAt) return { ok: false, reason: "not-released" };
    if (!isSeenVersion(result.updatedAt, correction.seen)) return { ok: false, reason: "changed" };
    const next = {
      psaValue: correction.psaValue,
      flag: correction.flag,
      retestYears: correction.flag === "green" ? correction.retestYears : null,
      comments: correction.comments,
    };
    const changed = changedFields(result, next);
    if (changed.length === 0) return { ok: false, reason: "unchanged" };
    // A new flag or retest interval is a flag decided again, for his age now: it answers a check
    // asked for after his date of birth changed. Other changes leave it for "The flag stands".
    const flagDecided = changed.includes("flag") || changed.includes("retestYears");
    const flagCheckAnswered = result.flagCheckSince !== null && flagDecided;
    let suggestedFlag = result.suggestedFlag;
    if (changed.includes("psaValue")) {
      suggestedFlag = suggestFlag(next.psaValue, found.age, await listThresholds(tx));
    }
    // The version the patient had seen, kept before it is replaced (same transaction, row locked).
    await tx.insert(testResultRevision).values({
      testResultId: result.id,
      psaValue: result.psaValue,
      unit: result.unit,
      flag: result.flag,
      retestYears: result.retestYears,
      comments: result.comments,
      releasedAt: result.releasedAt,
      releasedBy: result.releasedBy,
      replacedAt: now,
      replacedBy: staff.id,
      reason: correction.reason,
    });
    await tx
      .update(testResult)
      .set({
        ...next,
        suggestedFlag,
        correctedAt: now,
        flagCheckSince: flagCheckAnswered ? null : result.flagCheckSince,
        flagDecidedAge: flagDecided ? found.age : result.flagDecidedAge,
        updatedAt: nextUpdatedAt(result.updatedAt, now),
      })
      .where(eq(testResult.id, resultId));
    await recordAudit(tx, staff, {
      action: "result.correct",
      subjectUserId: found.userId,
      entityType: "test_result",
      entityId: resultId,
      details: {
        fields: changed.join(","),
        reason: correction.reason,
        ...(flagCheckAnswered && { flagCheckAnswered: true }),
      },
    });
    // His account may have been deleted since release (the result is kept): no one to tell.
    const told = !isErasedAccount({ id: found.userId, email: found.email });
    if (told)
      await enqueueEmail(tx, { to: found.email, ...resultEmail("updated", found.firstName) });
    return { ok: true, changed, told };
  });
}

export type ConfirmFlagResult =
  { ok: true } | { ok: false; reason: "not-found" | "not-asked" | "changed" };

/**
 * A clinician answers the check asked for after his date of birth changed: the flag he was given
 * stands. Nothing the patient sees changes and he is not e-mailed; the audit row
 * (result.flag-confirm) records who decided. Refused ("changed") unless the result is still the
 * version the clinician opened.
 */
export async function confirmReleasedFlag(
  db: Db,
  staff: StaffActor,
  resultId: string,
  seen: string,
  now = new Date(),
): Promise<ConfirmFlagResult> {
  return db.transaction(async (tx): Promise<ConfirmFlagResult> => {
    assertCan(staff, "result:correct");
    if (!isUuid(resultId)) return { ok: false, reason: "not-found" };
    const found = await lockAndLoadResult(tx, resultId);
    if (!found) return { ok: false, reason: "not-found" };
    const { result } = found;
    if (!result.releasedAt || !result.flagCheckSince) return { ok: false, reason: "not-asked" };
    if (!isSeenVersion(result.updatedAt, seen)) return { ok: false, reason: "changed" };
    await tx
      .update(testResult)
      .set({
        flagCheckSince: null,
        flagDecidedAge: found.age,
        updatedAt: nextUpdatedAt(result.updatedAt, now),
      })
      .where(eq(testResult.id, resultId));
    await recordAudit(tx, staff, {
      action: "result.flag-confirm",
      subjectUserId: found.userId,
      entityType: "test_result",
      entityId: resultId,
    });
    return { ok: true };
  });
}

export type WithdrawResult =
  { ok: true } | { ok: false; reason: "not-found" | "changed" | "released" };

/**
 * Takes back an imported result that is not his: the sample was recorded at check-in against the
 * wrong man, so the laboratory's value belongs to someone else. Only before release (a released
 * result is corrected, never removed: he has seen it). The result row goes, and so does the
 * sample recorded for him (he is "arrived" again), so that the same file imported again cannot
 * put the value back on him and the tube can be recorded for the right man, whose result a new
 * import then brings. Audited with ids only (result.withdraw, and checkin.update for the sample).
 * Refused ("changed") unless the result is still the version the clinician opened.
 */
export async function withdrawResult(
  db: Db,
  staff: StaffActor,
  resultId: string,
  seen: string,
  now = new Date(),
): Promise<WithdrawResult> {
  return db.transaction(async (tx): Promise<WithdrawResult> => {
    assertCan(staff, "result:import");
    if (!isUuid(resultId)) return { ok: false, reason: "not-found" };
    const found = await lockAndLoadResult(tx, resultId);
    if (!found) return { ok: false, reason: "not-found" };
    if (found.result.releasedAt) return { ok: false, reason: "released" };
    if (!isSeenVersion(found.result.updatedAt, seen)) return { ok: false, reason: "changed" };
    const bookingId = found.result.bookingId;
    await tx.delete(testResult).where(eq(testResult.id, resultId));
    const [sampled] = await tx
      .select({
        eventId: booking.eventId,
        sampleId: booking.sampleId,
        sampleTakenAt: booking.sampleTakenAt,
      })
      .from(booking)
      .where(eq(booking.id, bookingId))
      .for("update");
    await tx
      .update(booking)
      .set({
        sampleId: null,
        sampleTakenAt: null,
        arrivedAt: sql`coalesce(${booking.arrivedAt}, ${booking.sampleTakenAt})`,
        updatedAt: now,
      })
      .where(eq(booking.id, bookingId));
    await recordAudit(tx, staff, [
      {
        action: "result.withdraw",
        subjectUserId: found.userId,
        entityType: "test_result",
        entityId: resultId,
        // The tube and its event: the notice after it names them (`lastWithdrawalBy`).
        details: {
          bookingId,
          eventId: sampled?.eventId ?? null,
          sampleId: sampled?.sampleId ?? null,
        },
      },
      ...(sampled?.sampleTakenAt
        ? [
            {
              action: "checkin.update" as const,
              subjectUserId: found.userId,
              entityType: "booking",
              entityId: bookingId,
              details: {
                eventId: sampled.eventId,
                intent: "undo",
                from: "sample_taken",
                to: "arrived",
                withdrawnResult: resultId,
              },
            },
          ]
        : []),
    ]);
    return { ok: true };
  });
}

/** How long after a withdrawal the results list names its tube and event. */
const WITHDRAWAL_NOTICE_MS = 15 * 60_000;

/**
 * This staff member's own latest withdrawal, in the last quarter of an hour: the tube it cleared
 * and the event it was taken at, for the notice that says which to record again. Read from the
 * audit log, not from the address, so that a link cannot make the notice say anything else.
 */
export async function lastWithdrawalBy(
  db: Db,
  staff: StaffActor,
  now = new Date(),
): Promise<{ sampleId: string | null; eventName: string; eventDate: string } | null> {
  const [last] = await db
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, "result.withdraw"),
        eq(auditLog.actorUserId, staff.id),
        gte(auditLog.at, new Date(now.getTime() - WITHDRAWAL_NOTICE_MS)),
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(1);
  const eventId = last?.details?.eventId;
  if (typeof eventId !== "string" || !isUuid(eventId)) return null;
  const [ev] = await db
    .select({ name: event.name, eventDate: event.eventDate })
    .from(event)
    .where(eq(event.id, eventId));
  if (!ev) return null;
  const sampleId = last!.details!.sampleId;
  return {
    sampleId: typeof sampleId === "string" ? sampleId : null,
    eventName: ev.name,
    eventDate: ev.eventDate,
  };
}

/**
 * His date of birth has changed (he corrected it, or staff did) `from` one date `to` another: each
 * of his results with a value gets the flag suggested for his age at its sample, with the
 * thresholds as they are now. Where his age at the sample changed, the result moves to a new
 * version, so a release, correction or confirmation opened for the man of the old age is refused.
 * A released result is not changed for him: where he is now in another age band than the one its
 * flag was decided for (`releasedFlagNeedsCheck`), it is marked for a clinician (`flagCheckSince`).
 * Run inside the transaction that changed the date, after it.
 */
export async function suggestFlagsAgainForBirthDate(
  tx: Db,
  userId: string,
  { from, to }: { from: string | null; to: string | null },
  now = new Date(),
): Promise<void> {
  const results = await tx
    .select({ result: testResult, eventDate: event.eventDate })
    .from(testResult)
    .innerJoin(booking, eq(booking.id, testResult.bookingId))
    .innerJoin(event, eq(event.id, booking.eventId))
    .where(and(eq(booking.userId, userId), isNotNull(testResult.psaValue)))
    .for("update", { of: testResult });
  if (results.length === 0) return;
  const bands = await listThresholds(tx);
  for (const { result, eventDate } of results) {
    const ageBefore = ageAtSample(from, result.sampleDate, eventDate);
    const ageNow = ageAtSample(to, result.sampleDate, eventDate);
    if (ageNow === ageBefore) continue;
    const suggestedFlag = suggestFlag(result.psaValue!, ageNow, bands);
    const check =
      result.releasedAt !== null &&
      releasedFlagNeedsCheck({
        decidedAge: result.flagDecidedAge,
        ageNow,
        bands,
        alreadyAsked: result.flagCheckSince !== null,
      });
    await tx
      .update(testResult)
      .set({
        suggestedFlag,
        flagCheckSince: check ? (result.flagCheckSince ?? now) : null,
        updatedAt: nextUpdatedAt(result.updatedAt, now),
      })
      .where(eq(testResult.id, result.id));
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* The patient's side                                                                             */

/**
 * When each of this person's released results was last corrected, by booking reference, for the
 * note on /medical-results. Only their own, only released ones.
 */
export async function correctionDates(db: Db, userId: string): Promise<Record<string, Date>> {
  const found = await db
    .select({ reference: booking.reference, correctedAt: testResult.correctedAt })
    .from(testResult)
    .innerJoin(booking, eq(booking.id, testResult.bookingId))
    .where(
      and(
        eq(booking.userId, userId),
        isNotNull(testResult.releasedAt),
        isNotNull(testResult.correctedAt),
      ),
    );
  return Object.fromEntries(found.map((row) => [row.reference, row.correctedAt!]));
}
