import crypto from "node:crypto";
import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { account, session, staffInvitation, twoFactor, user, userRole } from "#app/db/schema";
import { organisation } from "#app/content/organisation";
import { assertCan, type StaffActor } from "#app/domain/permissions";
import { STAFF_ROLES, type StaffRole } from "#app/domain/roles";
import { selfLockoutProblem, type SelfLockout } from "#app/domain/staff-admin";
import { recordAudit } from "./audit.server";
import { hashPassword } from "./auth.server";
import { enqueueEmail } from "./email.server";

/** How long a set-up link works: a day from the command line, three days from an invitation. */
export const SETUP_LINK_HOURS = { commandLine: 24, invitation: 72 } as const;

export const SETUP_PATH = "/admin/setup";

function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export function setupLink(baseUrl: string, token: string): string {
  return `${baseUrl}${SETUP_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * `npm run create-admin`: whoever can run it holds the database already, so it needs no role. It
 * is the only actor without an id.
 */
export interface CommandLineActor {
  id: null;
  email: null;
  clientAddress: string;
}

/**
 * A one-time set-up link for `email` with `roles`. Only the token's hash is stored. From an admin
 * (who needs `staff:manage`) the link is e-mailed; from the command line it is returned to be
 * printed.
 */
export async function inviteStaff(
  db: Db,
  actor: StaffActor | CommandLineActor,
  input: { email: string; roles: readonly StaffRole[]; baseUrl: string },
  now = new Date(),
): Promise<{ link: string; expiresAt: Date }> {
  if (actor.id !== null) assertCan(actor, "staff:manage");
  const token = crypto.randomBytes(32).toString("base64url");
  const hours = actor.id ? SETUP_LINK_HOURS.invitation : SETUP_LINK_HOURS.commandLine;
  const expiresAt = new Date(now.getTime() + hours * 60 * 60_000);
  const email = input.email.trim().toLowerCase();
  const link = setupLink(input.baseUrl, token);
  await db.transaction(async (tx) => {
    const [invitation] = await tx
      .insert(staffInvitation)
      .values({
        email,
        roles: [...input.roles],
        tokenHash: hashToken(token),
        invitedBy: actor.id,
        expiresAt,
        createdAt: now,
      })
      .returning({ id: staffInvitation.id });
    await recordAudit(tx, actor, {
      action: "staff.invite",
      entityType: "staff_invitation",
      entityId: invitation!.id,
      details: { roles: input.roles.join(",") },
    });
    if (actor.id) {
      await enqueueEmail(tx, {
        to: email,
        subject: `You are invited to the ${organisation.shortName} back office`,
        text: [
          "Hello,",
          "",
          `You have been invited to help run ${organisation.name}'s screening events.`,
          `Open this link to set up your account (it works once, for ${hours} hours):`,
          "",
          link,
          "",
          "You will choose a password and set up an authenticator app on your phone.",
          "If you did not expect this, you can ignore this e-mail.",
          "",
          organisation.name,
        ].join("\n"),
      });
    }
  });
  return { link, expiresAt };
}

export interface UsableInvitation {
  id: string;
  email: string;
  roles: StaffRole[];
  hasAccount: boolean;
}

/** The invitation a set-up token belongs to, if it is unused, unrevoked and unexpired. */
export async function findUsableInvitation(
  db: Db,
  token: string,
  now = new Date(),
): Promise<UsableInvitation | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({
      id: staffInvitation.id,
      email: staffInvitation.email,
      roles: staffInvitation.roles,
      userId: user.id,
    })
    .from(staffInvitation)
    .leftJoin(user, eq(user.email, staffInvitation.email))
    .where(
      and(
        eq(staffInvitation.tokenHash, hashToken(token)),
        isNull(staffInvitation.acceptedAt),
        isNull(staffInvitation.revokedAt),
        gt(staffInvitation.expiresAt, now),
      ),
    );
  return row ? { id: row.id, email: row.email, roles: row.roles, hasAccount: !!row.userId } : null;
}

export type AcceptResult =
  | { ok: true; email: string; createdAccount: boolean }
  | { ok: false; reason: "invalid" | "sign-in-first" };

class NotSignedInAsInvitee extends Error {}

/**
 * Uses a set-up link once: claims it, creates the account (or, for someone who already has one,
 * such as a patient, keeps it and its password) and grants the roles.
 */
export async function acceptInvitation(
  db: Db,
  input: {
    token: string;
    name: string;
    password: string | null;
    clientAddress: string;
    /** Who is signed in: someone who already has an account must be signed in to it. */
    signedInUserId: string | null;
  },
  now = new Date(),
): Promise<AcceptResult> {
  try {
    return await claimInvitation(db, input, now);
  } catch (error) {
    if (error instanceof NotSignedInAsInvitee) return { ok: false, reason: "sign-in-first" };
    throw error;
  }
}

async function claimInvitation(
  db: Db,
  input: Parameters<typeof acceptInvitation>[1],
  now: Date,
): Promise<AcceptResult> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(staffInvitation)
      .set({ acceptedAt: now })
      .where(
        and(
          eq(staffInvitation.tokenHash, hashToken(input.token)),
          isNull(staffInvitation.acceptedAt),
          isNull(staffInvitation.revokedAt),
          gt(staffInvitation.expiresAt, now),
        ),
      )
      .returning();
    if (!claimed) return { ok: false, reason: "invalid" } as const;

    let [existing] = await tx.select().from(user).where(eq(user.email, claimed.email));
    const createdAccount = !existing;
    if (existing) {
      // Anyone may register an address as a patient; only its owner, signed in with its
      // password, may turn that account into a staff one. (Throwing rolls the claim back.)
      if (existing.id !== input.signedInUserId) throw new NotSignedInAsInvitee();
      // The link reached the mailbox, so the address is verified too.
      await tx
        .update(user)
        .set({ emailVerified: true, updatedAt: now })
        .where(eq(user.id, existing.id));
    } else {
      if (!input.password) return { ok: false, reason: "invalid" } as const;
      // A staff account needs no patient profile: the user and its password, as better-auth keeps them.
      [existing] = await tx
        .insert(user)
        .values({
          id: crypto.randomUUID(),
          email: claimed.email,
          name: input.name,
          // The link reached this address, so it is verified.
          emailVerified: true,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await tx.insert(account).values({
        id: crypto.randomUUID(),
        userId: existing!.id,
        providerId: "credential",
        accountId: existing!.id,
        password: await hashPassword(input.password),
        createdAt: now,
        updatedAt: now,
      });
    }
    if (!existing) throw new Error("The staff account was not created");
    await tx
      .insert(userRole)
      .values(claimed.roles.map((role) => ({ userId: existing!.id, role, grantedAt: now })))
      .onConflictDoNothing();
    await recordAudit(
      tx,
      { id: existing.id, email: existing.email, clientAddress: input.clientAddress },
      {
        action: "staff.setup",
        subjectUserId: existing.id,
        entityType: "staff_invitation",
        entityId: claimed.id,
        details: { roles: claimed.roles.join(","), createdAccount },
      },
    );
    return { ok: true, email: claimed.email, createdAccount } as const;
  });
}

/** Replaces a person's roles; the audit log keeps what they were and what they became. */
async function setStaffRoles(
  db: Db,
  actor: StaffActor,
  userId: string,
  roles: readonly StaffRole[],
  now = new Date(),
): Promise<{ ok: boolean }> {
  return db.transaction(async (tx) => {
    const [person] = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId));
    if (!person) return { ok: false };
    const before = await tx
      .select({ role: userRole.role })
      .from(userRole)
      .where(eq(userRole.userId, userId));
    await tx.delete(userRole).where(eq(userRole.userId, userId));
    if (roles.length > 0)
      await tx.insert(userRole).values(roles.map((role) => ({ userId, role, grantedAt: now })));
    await recordAudit(tx, actor, {
      action: "staff.roles",
      subjectUserId: userId,
      entityType: "user",
      entityId: userId,
      details: { from: before.map((row) => row.role).join(","), to: roles.join(",") },
    });
    return { ok: true };
  });
}

/** Stops an account signing in and ends its sessions at once; or lets it sign in again. */
async function setAccountActive(
  db: Db,
  actor: StaffActor,
  userId: string,
  active: boolean,
  now = new Date(),
): Promise<{ ok: boolean }> {
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(user)
      .set({ deactivatedAt: active ? null : now, updatedAt: now })
      .where(eq(user.id, userId))
      .returning({ id: user.id });
    if (!changed) return { ok: false };
    if (!active) await tx.delete(session).where(eq(session.userId, userId));
    await recordAudit(tx, actor, {
      action: active ? "staff.reactivate" : "staff.deactivate",
      subjectUserId: userId,
      entityType: "user",
      entityId: userId,
    });
    return { ok: true };
  });
}

/* ---------- The staff page (admin) ---------- */

export interface StaffMember {
  id: string;
  name: string;
  email: string;
  roles: StaffRole[];
  twoFactorEnabled: boolean;
  deactivatedAt: Date | null;
}

/** Everyone who holds a staff role, deactivated or not, by name. */
async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: userRole.role,
      twoFactorEnabled: user.twoFactorEnabled,
      deactivatedAt: user.deactivatedAt,
    })
    .from(user)
    .innerJoin(userRole, eq(userRole.userId, user.id))
    .orderBy(asc(user.name), asc(user.email));
  const people = new Map<string, StaffMember>();
  for (const row of rows) {
    const person = people.get(row.id) ?? {
      id: row.id,
      name: row.name,
      email: row.email,
      roles: [],
      twoFactorEnabled: row.twoFactorEnabled,
      deactivatedAt: row.deactivatedAt,
    };
    person.roles.push(row.role);
    people.set(row.id, person);
  }
  for (const person of people.values())
    person.roles = STAFF_ROLES.filter((role) => person.roles.includes(role));
  return [...people.values()];
}

export interface PendingInvitation {
  id: string;
  email: string;
  roles: StaffRole[];
  createdAt: Date;
  expiresAt: Date;
}

/** Invitations not yet used, revoked or expired, newest first. */
async function listPendingInvitations(db: Db, now: Date): Promise<PendingInvitation[]> {
  return db
    .select({
      id: staffInvitation.id,
      email: staffInvitation.email,
      roles: staffInvitation.roles,
      createdAt: staffInvitation.createdAt,
      expiresAt: staffInvitation.expiresAt,
    })
    .from(staffInvitation)
    .where(
      and(
        isNull(staffInvitation.acceptedAt),
        isNull(staffInvitation.revokedAt),
        gt(staffInvitation.expiresAt, now),
      ),
    )
    .orderBy(desc(staffInvitation.createdAt));
}

/**
 * The staff page: everyone holding a staff role and the invitations still pending. Showing it is
 * recorded in the audit log (staff.view, with the counts) before it is returned.
 */
export async function viewStaff(
  db: Db,
  actor: StaffActor,
  now = new Date(),
): Promise<{ people: StaffMember[]; invitations: PendingInvitation[] }> {
  assertCan(actor, "staff:manage");
  const [people, invitations] = await Promise.all([listStaff(db), listPendingInvitations(db, now)]);
  await recordAudit(db, actor, {
    action: "staff.view",
    entityType: "user",
    details: { staff: people.length, invitations: invitations.length },
  });
  return { people, invitations };
}

/** Whether an address already belongs to someone holding a staff role. */
async function isStaffEmail(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .innerJoin(userRole, eq(userRole.userId, user.id))
    .where(eq(user.email, email.trim().toLowerCase()))
    .limit(1);
  return !!row;
}

/**
 * The staff page's invitation: refused (alreadyStaff) for an address that already holds a staff
 * role, whose roles are changed on the list instead.
 */
export async function inviteStaffMember(
  db: Db,
  actor: StaffActor,
  input: { email: string; roles: readonly StaffRole[]; baseUrl: string },
  now = new Date(),
): Promise<{ ok: true } | { ok: false; reason: "alreadyStaff" }> {
  return db.transaction(async (tx) => {
    assertCan(actor, "staff:manage");
    if (await isStaffEmail(tx, input.email)) return { ok: false, reason: "alreadyStaff" } as const;
    await inviteStaff(tx, actor, input, now);
    return { ok: true } as const;
  });
}

/** Stops an unused invitation's link working. False when there is no such pending invitation. */
export async function revokeInvitation(
  db: Db,
  actor: StaffActor,
  invitationId: string,
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => {
    assertCan(actor, "staff:manage");
    const [revoked] = await tx
      .update(staffInvitation)
      .set({ revokedAt: now })
      .where(
        and(
          eq(staffInvitation.id, invitationId),
          isNull(staffInvitation.acceptedAt),
          isNull(staffInvitation.revokedAt),
        ),
      )
      .returning({ id: staffInvitation.id });
    if (!revoked) return false;
    await recordAudit(tx, actor, {
      action: "staff.invite.revoke",
      entityType: "staff_invitation",
      entityId: revoked.id,
    });
    return true;
  });
}

export type StaffChangeResult =
  { ok: true } | { ok: false; reason: "missing" | "ownTwoFactor" | SelfLockout };

async function holdsAnyRole(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: userRole.userId })
    .from(userRole)
    .where(eq(userRole.userId, userId))
    .limit(1);
  return !!row;
}

/**
 * The staff page's change of roles: only for staff (not patients), and never one that takes the
 * acting admin's own Admin role away (see selfLockoutProblem).
 */
export async function changeStaffRoles(
  db: Db,
  actor: StaffActor,
  userId: string,
  roles: readonly StaffRole[],
  now = new Date(),
): Promise<StaffChangeResult> {
  return db.transaction(async (tx): Promise<StaffChangeResult> => {
    assertCan(actor, "staff:manage");
    const problem = selfLockoutProblem(actor.id, userId, { roles });
    if (problem) return { ok: false, reason: problem };
    if (!(await holdsAnyRole(tx, userId))) return { ok: false, reason: "missing" };
    const done = await setStaffRoles(tx, actor, userId, roles, now);
    return done.ok ? { ok: true } : { ok: false, reason: "missing" };
  });
}

/** The staff page's deactivate and reactivate: staff only, and never the acting admin themselves. */
export async function changeAccountActive(
  db: Db,
  actor: StaffActor,
  userId: string,
  active: boolean,
  now = new Date(),
): Promise<StaffChangeResult> {
  return db.transaction(async (tx): Promise<StaffChangeResult> => {
    assertCan(actor, "staff:manage");
    const problem = selfLockoutProblem(actor.id, userId, { active });
    if (problem) return { ok: false, reason: problem };
    if (!(await holdsAnyRole(tx, userId))) return { ok: false, reason: "missing" };
    const done = await setAccountActive(tx, actor, userId, active, now);
    return done.ok ? { ok: true } : { ok: false, reason: "missing" };
  });
}

/**
 * For staff who lost their phone and their recovery codes: an admin turns their two-factor sign-in
 * off and signs them out everywhere. Their next sign-in (with their password) sets it up again,
 * because every back-office page asks for it. Never the acting admin's own.
 */
export async function resetTwoFactor(
  db: Db,
  actor: StaffActor,
  userId: string,
  now = new Date(),
): Promise<StaffChangeResult> {
  return db.transaction(async (tx): Promise<StaffChangeResult> => {
    assertCan(actor, "staff:manage");
    if (actor.id === userId) return { ok: false, reason: "ownTwoFactor" };
    if (!(await holdsAnyRole(tx, userId))) return { ok: false, reason: "missing" };
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx
      .update(user)
      .set({ twoFactorEnabled: false, updatedAt: now })
      .where(eq(user.id, userId));
    await tx.delete(session).where(eq(session.userId, userId));
    await recordAudit(tx, actor, {
      action: "staff.two-factor.reset",
      subjectUserId: userId,
      entityType: "user",
      entityId: userId,
    });
    return { ok: true };
  });
}
