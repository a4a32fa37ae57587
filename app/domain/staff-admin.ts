import { z } from "zod";
import { emailField } from "./fields";
import { STAFF_ROLES, type StaffRole } from "./roles";

import { STAFF_MESSAGES } from "./staff-messages";

export { STAFF_MESSAGES };

const anyRoles = z
  .array(z.enum(STAFF_ROLES, { error: STAFF_MESSAGES.roles }), { error: STAFF_MESSAGES.roles })
  .transform((list) => STAFF_ROLES.filter((role) => list.includes(role)));
const roles = anyRoles.refine((list) => list.length > 0, { error: STAFF_MESSAGES.roles });

/** Invite someone: an address and at least one role. Roles come from checkboxes (`getAll`). */
export const inviteSchema = z.object({
  email: emailField(STAFF_MESSAGES.email),
  roles,
});

const userId = z.string({ error: STAFF_MESSAGES.missing }).min(1).max(100);

/**
 * Change someone's roles. None at all ends their staff access but keeps their account, for their
 * own bookings and results (deactivating would shut them out of those too).
 */
export const rolesSchema = z.object({ userId, roles: anyRoles.default([]) });

export const accountSchema = z.object({ userId });

export const revokeSchema = z.object({ invitationId: z.uuid({ error: STAFF_MESSAGES.missing }) });

export type SelfLockout = "ownAdmin" | "ownAccount";

/**
 * An admin may not take away their own Admin role or deactivate themselves: otherwise the last
 * admin could lock the charity out of its own back office. Others' accounts are not limited here.
 */
export function selfLockoutProblem(
  actorId: string,
  targetId: string,
  change: { roles: readonly StaffRole[] } | { active: boolean },
): SelfLockout | null {
  if (actorId !== targetId) return null;
  if ("roles" in change) return change.roles.includes("admin") ? null : "ownAdmin";
  return change.active ? null : "ownAccount";
}
