import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, session, twoFactor, user, userRole } from "#app/db/schema";
import {
  acceptInvitation,
  findUsableInvitation,
  type CommandLineActor,
  inviteStaff,
  resetTwoFactor,
} from "#app/services/staff.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import { insertAccount, insertSession, insertStaff, uniqueEmail } from "#tests/support/fixtures";

const database = testDatabaseForThisFile();

const COMMAND_LINE: CommandLineActor = { id: null, email: null, clientAddress: "command line" };

async function invite(email: string) {
  const { link } = await inviteStaff(database.db, COMMAND_LINE, {
    email,
    roles: ["clinician"],
    baseUrl: "http://localhost:3000",
  });
  return new URL(link).searchParams.get("token")!;
}

/** Someone who signed up with this address and has not confirmed it yet. */
const patient = (email = uniqueEmail("someone", "example.org")) =>
  insertAccount(database.db, { name: "Someone", email, emailVerified: false });

/** The set-up link opened by whoever is signed in (`null`: nobody), who only presses "accept". */
const accept = (token: string, signedInUserId: string | null, clientAddress: string) =>
  acceptInvitation(database.db, {
    token,
    name: "",
    password: null,
    clientAddress,
    signedInUserId,
  });

async function rolesOf(userId: string) {
  const rows = await database.db
    .select({ role: userRole.role })
    .from(userRole)
    .where(eq(userRole.userId, userId));
  return rows.map((row) => row.role);
}

describe("a set-up link for an address that already has an account", () => {
  it("gives nothing to someone not signed in to that account, and stays usable", async () => {
    const email = uniqueEmail("nurse", "example.org");
    // Someone registered the address as a patient before the invitation (anyone can).
    const squatter = await patient(email);
    const token = await invite(email);
    const result = await accept(token, null, "192.0.2.1");
    expect(result).toEqual({ ok: false, reason: "sign-in-first" });
    const other = await patient();
    expect(await accept(token, other.id, "192.0.2.1")).toEqual({
      ok: false,
      reason: "sign-in-first",
    });
    expect(await rolesOf(squatter.id)).toEqual([]);
    expect(await findUsableInvitation(database.db, token)).not.toBeNull();
  });

  it("adds the roles when its owner is signed in, verifies the address, and records it", async () => {
    const email = uniqueEmail("clinician", "example.org");
    const owner = await patient(email);
    const token = await invite(email);
    const result = await accept(token, owner.id, "192.0.2.7");
    expect(result).toEqual({ ok: true, email, createdAccount: false });
    expect(await rolesOf(owner.id)).toEqual(["clinician"]);
    const [after] = await database.db.select().from(user).where(eq(user.id, owner.id));
    expect(after!.emailVerified).toBe(true);
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subjectUserId, owner.id));
    expect(audit.map((row) => [row.action, row.ipAddress])).toEqual([["staff.setup", "192.0.2.7"]]);
    // Once only.
    expect(await findUsableInvitation(database.db, token)).toBeNull();
  });
});

describe("resetting someone's two-factor sign-in", () => {
  it("turns it off, signs them out everywhere, and records who did it; never one's own", async () => {
    const { db } = database;
    const admin = await insertStaff(db, ["admin"], { clientAddress: "192.0.2.9" });
    // Two-factor sign-in on, and signed in with it.
    const nurse = await insertStaff(db, ["coordinator"]);
    await insertSession(db, nurse.id, { twoFactorVerified: true });
    const actor = admin.actor;

    expect(await resetTwoFactor(db, actor, admin.id)).toEqual({
      ok: false,
      reason: "ownTwoFactor",
    });
    expect(await resetTwoFactor(db, actor, nurse.id)).toEqual({ ok: true });

    const [after] = await db.select().from(user).where(eq(user.id, nurse.id));
    expect(after!.twoFactorEnabled).toBe(false);
    expect(await db.select().from(twoFactor).where(eq(twoFactor.userId, nurse.id))).toEqual([]);
    expect(await db.select().from(session).where(eq(session.userId, nurse.id))).toEqual([]);
    const audit = await db.select().from(auditLog).where(eq(auditLog.subjectUserId, nurse.id));
    expect(audit.map((row) => [row.action, row.actorEmail])).toEqual([
      ["staff.two-factor.reset", admin.email],
    ]);
  });

  it("is only for staff: a patient's account is not found", async () => {
    const { actor } = await insertStaff(database.db, ["admin"]);
    const someone = await patient();
    expect(await resetTwoFactor(database.db, actor, someone.id)).toEqual({
      ok: false,
      reason: "missing",
    });
  });
});
