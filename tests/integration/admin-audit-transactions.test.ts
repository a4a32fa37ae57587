import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditLog, event, eventAccessCode, session, userRole } from "#app/db/schema";
import type { AuditAction } from "#app/domain/audit";
import type { StaffRole } from "#app/domain/roles";
import {
  createEvent,
  createEventAccessCode,
  publishEvent,
  revokeAccessCode,
  unpublishEvent,
  updateEvent,
} from "#app/services/admin-events.server";
import { acceptSecondFactor } from "#app/services/session.server";
import { changeStaffRoles, viewStaff } from "#app/services/staff.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  eventForm as validEventForm,
  insertEvent,
  insertFreeEvent,
  insertProduct,
  insertSession,
  insertStaff,
} from "#tests/support/fixtures";

/**
 * Issue 14, item 16: a back-office change and its audit row commit together or not at all, as
 * docs/ARCHITECTURE.md says. The audit calls that sat in routes (events new and edit, the staff
 * page, two-factor enrolment) are made by the services, in the change's transaction. To prove it,
 * a trigger makes the audit insert fail for one action: the change must be rolled back with it.
 */

// acceptSecondFactor uses the process-wide database.
const database = testDatabaseForThisFile({ processWide: true });

/** From now until the test ends, inserting an audit row with `action` fails. */
async function auditInsertFailsFor(action: AuditAction) {
  await database.db.execute(sql`
    create or replace function test_refuse_audit() returns trigger language plpgsql as $$
    begin
      if new.action = ${sql.raw(`'${action}'`)} then
        raise exception 'test: audit insert refused';
      end if;
      return new;
    end $$`);
  await database.db.execute(sql`
    create trigger test_refuse_audit before insert on audit_log
    for each row execute function test_refuse_audit()`);
}
afterEach(async () => {
  await database.db.execute(sql`drop trigger if exists test_refuse_audit on audit_log`);
});

/** A staff member acting from 203.0.113.50, as the back-office services are given them. */
async function staffMember(roles: StaffRole[]) {
  return (await insertStaff(database.db, roles, { clientAddress: "203.0.113.50" })).actor;
}

/** Nine days before the events below (10 June 2026). */
const NOW = new Date("2026-06-01T09:00:00Z");

/** A valid form for a private, free event. */
const eventForm = (productId: string, changes: Record<string, string> = {}) =>
  validEventForm(productId, { paymentRequired: "no", visibility: "private", ...changes });

describe("events: each change writes its audit row in its own transaction", () => {
  it("creating, editing, publishing and unpublishing are audited by the service", async () => {
    const { db } = database;
    const coordinator = await staffMember(["coordinator"]);
    const product = await insertProduct(db, 0);
    const created = await createEvent(db, coordinator, eventForm(product.id), NOW);
    if (!created.ok) throw new Error(`not created: ${JSON.stringify(created)}`);
    expect(await auditRows(db, { action: "event.create", entityId: created.id })).toMatchObject([
      { actorUserId: coordinator.id, ipAddress: "203.0.113.50", entityType: "event" },
    ]);

    const edited = await updateEvent(
      db,
      coordinator,
      created.id,
      eventForm(product.id, { name: "Halstead Evening" }),
      NOW,
    );
    expect(edited.ok).toBe(true);
    expect(await auditRows(db, { action: "event.update", entityId: created.id })).toHaveLength(1);
    expect(await publishEvent(db, coordinator, created.id, NOW)).toMatchObject({ ok: true });
    expect(await auditRows(db, { action: "event.publish", entityId: created.id })).toHaveLength(1);
    expect(await unpublishEvent(db, coordinator, created.id, NOW)).toMatchObject({ ok: true });
    expect(await auditRows(db, { action: "event.unpublish", entityId: created.id })).toHaveLength(
      1,
    );
  });

  it("a refused change writes no audit row", async () => {
    const { db } = database;
    const coordinator = await staffMember(["coordinator"]);
    const ended = await insertFreeEvent(db, { eventDate: "2026-05-01", status: "draft" });
    expect(await publishEvent(db, coordinator, ended.id, NOW)).toMatchObject({ ok: false });
    expect(await auditRows(db, { action: "event.publish", entityId: ended.id })).toEqual([]);
  });

  it("creating: when its audit row cannot be written, no event is created", async () => {
    const { db } = database;
    const coordinator = await staffMember(["coordinator"]);
    const product = await insertProduct(db, 0);
    const name = `Unaudited Screening ${crypto.randomUUID().slice(0, 8)}`;
    await auditInsertFailsFor("event.create");
    await expect(
      createEvent(db, coordinator, eventForm(product.id, { name }), NOW),
    ).rejects.toThrow();
    expect(await db.select().from(event).where(eq(event.name, name))).toEqual([]);
  });

  it("editing: when its audit row cannot be written, the event keeps its details", async () => {
    const { db } = database;
    const coordinator = await staffMember(["coordinator"]);
    const product = await insertProduct(db, 0);
    const ev = await insertEvent(db, product.id, { name: "Before", status: "draft" });
    await auditInsertFailsFor("event.update");
    await expect(
      updateEvent(db, coordinator, ev.id, eventForm(product.id, { name: "After" }), NOW),
    ).rejects.toThrow();
    const [after] = await db.select().from(event).where(eq(event.id, ev.id));
    expect(after!.name).toBe("Before");
  });

  it("access codes: made and revoked with their audit rows, or not at all", async () => {
    const { db } = database;
    const coordinator = await staffMember(["coordinator"]);
    const ev = await insertFreeEvent(db, { isPublic: false });
    const input = { label: "Lodge", maxUses: null, expiresOn: null };

    await auditInsertFailsFor("access-code.create");
    await expect(createEventAccessCode(db, coordinator, ev.id, input)).rejects.toThrow();
    const codes = () => db.select().from(eventAccessCode).where(eq(eventAccessCode.eventId, ev.id));
    expect(await codes()).toEqual([]);
    await db.execute(sql`drop trigger if exists test_refuse_audit on audit_log`);

    const made = await createEventAccessCode(db, coordinator, ev.id, input);
    if (!made?.ok) throw new Error("not made");
    expect(await auditRows(db, { action: "access-code.create", entityId: ev.id })).toHaveLength(1);

    await auditInsertFailsFor("access-code.revoke");
    await expect(revokeAccessCode(db, coordinator, ev.id, made.id, NOW)).rejects.toThrow();
    expect((await codes())[0]!.revokedAt).toBeNull();
  });
});

describe("staff: the list's reading and every change are audited by the service", () => {
  it("the staff list is recorded before it is returned: no audit row, no list", async () => {
    const { db } = database;
    const admin = await staffMember(["admin"]);
    await auditInsertFailsFor("staff.view");
    await expect(viewStaff(db, admin)).rejects.toThrow();
    await db.execute(sql`drop trigger if exists test_refuse_audit on audit_log`);
    const shown = await viewStaff(db, admin);
    expect(shown.people.some((person) => person.id === admin.id)).toBe(true);
    const [row] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "staff.view"), eq(auditLog.actorUserId, admin.id)));
    expect(row).toMatchObject({ entityType: "user", ipAddress: "203.0.113.50" });
  });

  it("changing roles: when its audit row cannot be written, the roles stay as they were", async () => {
    const { db } = database;
    const admin = await staffMember(["admin"]);
    const colleague = await staffMember(["clinician"]);
    await auditInsertFailsFor("staff.roles");
    await expect(changeStaffRoles(db, admin, colleague.id, ["admin"])).rejects.toThrow();
    const roles = await db.select().from(userRole).where(eq(userRole.userId, colleague.id));
    expect(roles.map((row) => row.role)).toEqual(["clinician"]);
  });
});

describe("two-factor enrolment: turning it on is audited with the session it marks", () => {
  /** A session as better-auth has just set it, and the Set-Cookie header that carries it. */
  async function freshSession(userId: string) {
    const { token } = await insertSession(database.db, userId);
    const headers = new Headers();
    headers.append("Set-Cookie", `better-auth.session_token=${token}.signature; Path=/; HttpOnly`);
    return { token, headers };
  }

  async function verified(token: string) {
    const [row] = await database.db.select().from(session).where(eq(session.token, token));
    return row!.twoFactorVerified;
  }

  it("records staff.two-factor in the transaction that marks the session", async () => {
    const { db } = database;
    const nurse = await staffMember(["coordinator"]);
    const { token, headers } = await freshSession(nurse.id);
    const outcome = await acceptSecondFactor(headers, {
      appCode: "123456",
      clientAddress: "203.0.113.50",
      enrolled: nurse,
    });
    expect(outcome).toBe("accepted");
    expect(await verified(token)).toBe(true);
    expect(await auditRows(db, { action: "staff.two-factor", entityId: nurse.id })).toMatchObject([
      { actorUserId: nurse.id, subjectUserId: nurse.id, ipAddress: "203.0.113.50" },
    ]);
  });

  it("when its audit row cannot be written, the session is not marked", async () => {
    const nurse = await staffMember(["coordinator"]);
    const { token, headers } = await freshSession(nurse.id);
    await auditInsertFailsFor("staff.two-factor");
    await expect(
      acceptSecondFactor(headers, {
        appCode: "654321",
        clientAddress: "203.0.113.50",
        enrolled: nurse,
      }),
    ).rejects.toThrow();
    expect(await verified(token)).toBe(false);
  });
});
