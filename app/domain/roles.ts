/**
 * Staff roles. Everyone with an account is a patient; staff hold one or more of these as well.
 * - admin: invites staff, changes roles, reads the audit log.
 * - coordinator: runs events, attendees and check-in.
 * - clinician: imports, flags and releases results.
 * - event_staff: checks people in on the day (a nurse or volunteer with a tablet at the door),
 *   and nothing that changes an event, its prices or anyone's money.
 */
export const STAFF_ROLES = ["admin", "coordinator", "clinician", "event_staff"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}

/** Staff sign in again after this long, whatever they are doing; patients' sessions last a week. */
export const STAFF_SESSION_HOURS = 8;

export const ROLE_LABELS: Record<StaffRole, string> = {
  admin: "Admin",
  coordinator: "Coordinator",
  clinician: "Clinician",
  event_staff: "Event staff (check-in)",
};
