import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  booking,
  enquiry,
  event,
  eventAccessCode,
  outboxEmail,
  psaThreshold,
  resultImport,
  screeningProduct,
  staffInvitation,
  testResult,
  user,
  userRole,
} from "#app/db/schema";
import { auditFilterSchema } from "#app/domain/audit-filter";
import { PermissionDenied } from "#app/domain/permissions";
import {
  cancelEvent,
  createEvent,
  createEventAccessCode,
  createProduct,
  publishEvent,
  revokeAccessCode,
  unpublishEvent,
  updateEvent,
  updateProduct,
} from "#app/services/admin-events.server";
import {
  exportLabCsv,
  printAttendees,
  recordCheckIn,
  viewAttendees,
} from "#app/services/attendees.server";
import { readAuditLogAsStaff } from "#app/services/audit-log.server";
import { sendConsentLink } from "#app/services/consent-link-mail.server";
import { listEnquiriesForStaff, setEnquiryHandled } from "#app/services/enquiries-admin.server";
import {
  commitImport,
  correctResult,
  createImport,
  listOwnImports,
  listResults,
  releaseResult,
  saveThresholds,
  viewImport,
  viewResult,
} from "#app/services/results-admin.server";
import {
  changeAccountActive,
  changeStaffRoles,
  inviteStaff,
  resetTwoFactor,
  revokeInvitation,
  viewStaff,
} from "#app/services/staff.server";
import { exportSubscribers } from "#app/services/subscriptions.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  eventForm,
  insertBooking,
  insertConsentFor,
  insertEvent,
  insertFreeEvent,
  insertPatient,
  insertStaff,
  type StaffMember,
} from "#tests/support/fixtures";

/**
 * Issue 14, item 13: every back-office service checks the acting staff member's capability
 * itself, so a second way in (a script, another page, a future API) cannot skip the page's guard.
 * Each service is called directly by someone whose role does not give the capability: it is
 * refused with PermissionDenied, changes nothing and writes no audit row.
 */

const database = testDatabaseForThisFile();

/** The event's day, 10 June 2026, at 11:00 London time: check-in is open. */
const EVENT_DATE = "2026-06-10";
const ON_THE_DAY = new Date("2026-06-10T10:00:00Z");
const LATER = new Date("2026-06-20T09:00:00Z");

/** A man with a confirmed booking at the event; his sample taken at check-in when given an id. */
async function patientWithBooking(eventId: string, sampleId: string | null) {
  const patient = await insertPatient(database.db);
  return insertBooking(database.db, {
    eventId,
    userId: patient.id,
    confirmedAt: new Date("2026-06-01T09:00:00Z"),
    sampleId,
    sampleTakenAt: sampleId ? new Date("2026-06-10T09:10:00Z") : null,
  });
}

/** The call is refused with PermissionDenied and adds no audit row by this person. */
async function expectRefused(actor: StaffActor, call: () => Promise<unknown>) {
  const before = await auditRows(database.db, { actorUserId: actor.id });
  await expect(call()).rejects.toBeInstanceOf(PermissionDenied);
  expect(await auditRows(database.db, { actorUserId: actor.id })).toEqual(before);
}

type StaffActor = StaffMember["actor"];
let admin: StaffActor;
let coordinator: StaffActor;
let clinician: StaffActor;
let eventStaff: StaffActor;
let productId: string;
let eventId: string;
beforeAll(async () => {
  const { db } = database;
  admin = (await insertStaff(db, ["admin"])).actor;
  coordinator = (await insertStaff(db, ["coordinator"])).actor;
  clinician = (await insertStaff(db, ["clinician"])).actor;
  eventStaff = (await insertStaff(db, ["event_staff"])).actor;
  const ev = await insertFreeEvent(db, { eventDate: EVENT_DATE });
  productId = ev.productId;
  eventId = ev.id;
});

describe("results: a coordinator releasing or correcting a result is refused", () => {
  async function importedResult(released: boolean) {
    const row = await patientWithBooking(eventId, `CAP-${crypto.randomUUID().slice(0, 8)}`);
    const [result] = await database.db
      .insert(testResult)
      .values({
        bookingId: row.id,
        psaValue: "0.84",
        unit: "ng/ml",
        sampleDate: EVENT_DATE,
        importedAt: LATER,
        importedBy: clinician.id,
        updatedAt: LATER,
        ...(released ? { flag: "green", retestYears: 2, releasedAt: LATER } : {}),
      })
      .returning();
    return result!;
  }

  it("releasing: refused, the result stays unreleased, no e-mail, no audit row", async () => {
    const { db } = database;
    const result = await importedResult(false);
    const mailsBefore = (await db.select().from(outboxEmail)).length;
    await expectRefused(coordinator, () =>
      releaseResult(
        db,
        coordinator,
        result.id,
        { flag: "amber", retestYears: null, comments: null, seen: LATER.toISOString() },
        LATER,
      ),
    );
    const [after] = await db.select().from(testResult).where(eq(testResult.id, result.id));
    expect(after!.releasedAt).toBeNull();
    expect(after!.flag).toBeNull();
    expect((await db.select().from(outboxEmail)).length).toBe(mailsBefore);
  });

  it("correcting: refused, the released result is unchanged", async () => {
    const { db } = database;
    const result = await importedResult(true);
    await expectRefused(coordinator, () =>
      correctResult(
        db,
        coordinator,
        result.id,
        {
          psaValue: "9.99",
          flag: "red",
          retestYears: null,
          comments: null,
          reason: "entry-error",
          seen: LATER.toISOString(),
        },
        LATER,
      ),
    );
    const [after] = await db.select().from(testResult).where(eq(testResult.id, result.id));
    expect(after).toMatchObject({ psaValue: "0.84", flag: "green", correctedAt: null });
  });

  it("an admin cannot read results, import a file or change the thresholds", async () => {
    const { db } = database;
    const result = await importedResult(false);
    const importsBefore = await db.select().from(resultImport);
    await expectRefused(admin, () => listResults(db, admin, "awaiting"));
    await expectRefused(admin, () => viewResult(db, admin, result.id));
    await expectRefused(admin, () =>
      createImport(
        db,
        admin,
        { filename: "lab.csv", text: "reference,psa,unit\r\nMHAT-AAAA-BBBB,1.00,ng/ml\r\n" },
        LATER,
      ),
    );
    expect(await db.select().from(resultImport)).toEqual(importsBefore);
    await expectRefused(admin, () => listOwnImports(db, admin));
    const [band] = await db.select().from(psaThreshold).limit(1);
    await expectRefused(admin, () =>
      saveThresholds(db, admin, { [`threshold-${band!.id}`]: "9.00" }, LATER),
    );
    const [bandAfter] = await db.select().from(psaThreshold).where(eq(psaThreshold.id, band!.id));
    expect(bandAfter!.thresholdNgMl).toBe(band!.thresholdNgMl);
  });

  it("someone else's import cannot be viewed or committed by a coordinator", async () => {
    const { db } = database;
    const created = await createImport(
      db,
      clinician,
      { filename: "lab.csv", text: "reference,psa,unit\r\nMHAT-AAAA-BBBB,1.00,ng/ml\r\n" },
      LATER,
    );
    expect(created.ok).toBe(true);
    const importId = created.ok ? created.id : "";
    await expectRefused(coordinator, () => viewImport(db, coordinator, importId));
    await expectRefused(coordinator, () => commitImport(db, coordinator, importId, LATER));
    const [stored] = await db.select().from(resultImport).where(eq(resultImport.id, importId));
    expect(stored!.committedAt).toBeNull();
  });
});

describe("attendees: a clinician checking someone in is refused", () => {
  it("check-in: refused, the booking is unchanged, no audit row", async () => {
    const { db } = database;
    const row = await patientWithBooking(eventId, null);
    await expectRefused(clinician, () =>
      recordCheckIn(db, clinician, {
        eventId,
        command: { intent: "arrived", bookingId: row.id },
        now: ON_THE_DAY,
      }),
    );
    await expectRefused(clinician, () =>
      recordCheckIn(db, clinician, {
        eventId,
        command: { intent: "sample", bookingId: row.id, sampleId: "CAP-SAMPLE-1" },
        now: ON_THE_DAY,
      }),
    );
    const [after] = await db.select().from(booking).where(eq(booking.id, row.id));
    expect(after).toMatchObject({ arrivedAt: null, sampleId: null, sampleTakenAt: null });
  });

  it("the attendee list, the printable list and the lab CSV are refused to an admin", async () => {
    const { db } = database;
    await patientWithBooking(eventId, "CAP-LAB-1");
    await expectRefused(admin, () => viewAttendees(db, admin, { eventId, now: ON_THE_DAY }));
    await expectRefused(admin, () => printAttendees(db, admin, { eventId, now: ON_THE_DAY }));
    await expectRefused(admin, () => exportLabCsv(db, admin, { eventId, now: ON_THE_DAY }));
  });
});

describe("event staff: check-in at the door, and nothing else of the coordinator's", () => {
  it("checks a man in and records his sample, as a coordinator would", async () => {
    const { db } = database;
    const row = await patientWithBooking(eventId, null);
    await insertConsentFor(db, row, EVENT_DATE);
    const sampleId = `CAP-DOOR-${crypto.randomUUID().slice(0, 8)}`;
    expect(
      await recordCheckIn(db, eventStaff, {
        eventId,
        command: { intent: "sample", bookingId: row.id, sampleId },
        now: ON_THE_DAY,
      }),
    ).toMatchObject({ outcome: "done", to: "sample_taken" });
    expect(await viewAttendees(db, eventStaff, { eventId, now: ON_THE_DAY })).not.toBeNull();
    expect(await printAttendees(db, eventStaff, { eventId, now: ON_THE_DAY })).not.toBeNull();
  });

  it("works on an event's list on its own day only: not before, not after", async () => {
    const { db } = database;
    const row = await patientWithBooking(eventId, null);
    const dayBefore = new Date("2026-06-09T10:00:00Z");
    for (const day of [dayBefore, LATER]) {
      await expectRefused(eventStaff, () => viewAttendees(db, eventStaff, { eventId, now: day }));
      await expectRefused(eventStaff, () => printAttendees(db, eventStaff, { eventId, now: day }));
      await expectRefused(eventStaff, () =>
        recordCheckIn(db, eventStaff, {
          eventId,
          command: { intent: "no-show", bookingId: row.id, from: "waiting" },
          now: day,
        }),
      );
      await expectRefused(eventStaff, () =>
        sendConsentLink(db, eventStaff, { eventId, bookingId: row.id, now: day }),
      );
    }
    const [after] = await db.select().from(booking).where(eq(booking.id, row.id));
    expect(after).toMatchObject({ noShowAt: null, arrivedAt: null });
    // A coordinator works on it any day.
    expect(await viewAttendees(db, coordinator, { eventId, now: LATER })).not.toBeNull();
  });

  it("cannot cancel the event, change it, its codes or a price, or take the lab's file", async () => {
    const { db } = database;
    await expectRefused(eventStaff, () => cancelEvent(db, eventStaff, eventId, ON_THE_DAY));
    const [stillOn] = await db.select().from(event).where(eq(event.id, eventId));
    expect(stillOn!.status).not.toBe("cancelled");
    await expectRefused(eventStaff, () => unpublishEvent(db, eventStaff, eventId));
    await expectRefused(eventStaff, () =>
      createEventAccessCode(db, eventStaff, eventId, {
        label: "At the door",
        maxUses: null,
        expiresOn: null,
      }),
    );
    await expectRefused(eventStaff, () =>
      updateProduct(db, eventStaff, productId, { name: "Free test", description: null, price: 0 }),
    );
    await expectRefused(eventStaff, () =>
      exportLabCsv(db, eventStaff, { eventId, now: ON_THE_DAY }),
    );
    await expectRefused(eventStaff, () => listResults(db, eventStaff, "awaiting"));
  });
});

describe("events: a clinician changing events, products or access codes is refused", () => {
  /** A valid form for a private, free event a month after the others. */
  const form = (changes: Record<string, string> = {}) =>
    eventForm(productId, {
      paymentRequired: "no",
      eventDate: "2026-07-10",
      visibility: "private",
      ...changes,
    });

  it("create, edit, publish and unpublish: refused, nothing saved", async () => {
    const { db } = database;
    const before = await db.select({ id: event.id }).from(event);
    await expectRefused(clinician, () =>
      createEvent(db, clinician, form(), new Date("2026-06-01T09:00:00Z")),
    );
    expect(await db.select({ id: event.id }).from(event)).toEqual(before);

    const draft = await insertEvent(db, productId, { eventDate: "2026-07-10", status: "draft" });
    await expectRefused(clinician, () =>
      updateEvent(db, clinician, draft.id, form({ name: "Renamed" })),
    );
    await expectRefused(clinician, () => publishEvent(db, clinician, draft.id));
    const [after] = await db.select().from(event).where(eq(event.id, draft.id));
    expect(after).toMatchObject({ name: draft.name, status: "draft" });

    const published = await insertEvent(db, productId, {
      eventDate: "2026-07-10",
      status: "published",
    });
    await expectRefused(clinician, () => unpublishEvent(db, clinician, published.id));
    const [stillPublished] = await db.select().from(event).where(eq(event.id, published.id));
    expect(stillPublished!.status).toBe("published");
  });

  it("access codes: making and revoking are refused", async () => {
    const { db } = database;
    const made = await createEventAccessCode(db, coordinator, eventId, {
      label: "Lodge",
      maxUses: null,
      expiresOn: null,
    });
    expect(made).toMatchObject({ ok: true });
    const codesBefore = await db.select().from(eventAccessCode);
    await expectRefused(clinician, () =>
      createEventAccessCode(db, clinician, eventId, {
        label: "Sneaky",
        maxUses: null,
        expiresOn: null,
      }),
    );
    await expectRefused(clinician, () =>
      revokeAccessCode(db, clinician, eventId, made && made.ok ? made.id : ""),
    );
    expect(await db.select().from(eventAccessCode)).toEqual(codesBefore);
  });

  it("products: making and changing are refused", async () => {
    const { db } = database;
    const before = await db.select().from(screeningProduct);
    await expectRefused(clinician, () =>
      createProduct(db, clinician, { name: "Free test", description: null, price: 0 }),
    );
    await expectRefused(clinician, () =>
      updateProduct(db, clinician, productId, { name: "Free test", description: null, price: 0 }),
    );
    expect(await db.select().from(screeningProduct)).toEqual(before);
  });
});

describe("people: only admins manage staff, subscribers and the audit log", () => {
  it("a coordinator cannot invite, change roles, deactivate, reset two-factor or revoke", async () => {
    const { db } = database;
    const colleague = await insertStaff(db, ["clinician"]);
    const [invitation] = await db
      .insert(staffInvitation)
      .values({
        email: `invited-${crypto.randomUUID().slice(0, 8)}@example.org`,
        roles: ["clinician"],
        tokenHash: crypto.randomUUID(),
        invitedBy: admin.id,
        expiresAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    const invitationsBefore = await db.select().from(staffInvitation);

    await expectRefused(coordinator, () =>
      inviteStaff(db, coordinator, {
        email: "someone@example.org",
        roles: ["admin"],
        baseUrl: "http://localhost:3000",
      }),
    );
    await expectRefused(coordinator, () =>
      changeStaffRoles(db, coordinator, colleague.id, ["admin"]),
    );
    await expectRefused(coordinator, () =>
      changeAccountActive(db, coordinator, colleague.id, false),
    );
    await expectRefused(coordinator, () => resetTwoFactor(db, coordinator, colleague.id));
    await expectRefused(coordinator, () => revokeInvitation(db, coordinator, invitation!.id));
    await expectRefused(coordinator, () => viewStaff(db, coordinator));

    expect(await db.select().from(staffInvitation)).toEqual(invitationsBefore);
    const roles = await db.select().from(userRole).where(eq(userRole.userId, colleague.id));
    expect(roles.map((row) => row.role)).toEqual(["clinician"]);
    const [account] = await db.select().from(user).where(eq(user.id, colleague.id));
    expect(account!.deactivatedAt).toBeNull();
  });

  it("a coordinator cannot export subscribers or read the audit log", async () => {
    const { db } = database;
    await expectRefused(coordinator, () => exportSubscribers(db, coordinator));
    const filter = auditFilterSchema.parse({});
    await expectRefused(coordinator, () => readAuditLogAsStaff(db, coordinator, filter));
  });

  it("a clinician cannot read or handle enquiries", async () => {
    const { db } = database;
    const [row] = await db
      .insert(enquiry)
      .values({
        firstName: "Enid",
        lastName: "Enquirer",
        email: "enquirer@example.com",
        phoneNumber: "01632 960 999",
        message: "Could you run an event for our club?",
      })
      .returning();
    await expectRefused(clinician, () => listEnquiriesForStaff(db, clinician, "all"));
    await expectRefused(clinician, () => setEnquiryHandled(db, clinician, row!.id, true));
    const [after] = await db.select().from(enquiry).where(eq(enquiry.id, row!.id));
    expect(after!.handledAt).toBeNull();
  });
});
