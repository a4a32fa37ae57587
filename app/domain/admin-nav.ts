import type { StaffRole } from "./roles";

/** The back office's sections, and who may open each; the nav shows a person only theirs. */
export const ADMIN_SECTIONS = [
  { href: "/admin", label: "Dashboard", roles: ["admin", "coordinator", "clinician"] },
  { href: "/admin/events", label: "Events", roles: ["admin", "coordinator"] },
  { href: "/admin/products", label: "Products and prices", roles: ["admin", "coordinator"] },
  { href: "/admin/results", label: "Results", roles: ["clinician"] },
  { href: "/admin/enquiries", label: "Enquiries", roles: ["admin", "coordinator"] },
  { href: "/admin/subscribers", label: "Subscribers", roles: ["admin"] },
  { href: "/admin/staff", label: "Staff", roles: ["admin"] },
  { href: "/admin/audit", label: "Audit log", roles: ["admin"] },
] as const satisfies readonly { href: string; label: string; roles: readonly StaffRole[] }[];

/** Who may use each area's pages and actions (guards pass these to requireStaff). */
export const AREA_ROLES = {
  dashboard: ["admin", "coordinator", "clinician"],
  events: ["admin", "coordinator"],
  attendees: ["coordinator"],
  results: ["clinician"],
  enquiries: ["admin", "coordinator"],
  subscribers: ["admin"],
  staff: ["admin"],
  audit: ["admin"],
} as const satisfies Record<string, readonly StaffRole[]>;

export function sectionsFor(roles: readonly StaffRole[]) {
  return ADMIN_SECTIONS.filter((section) =>
    (section.roles as readonly StaffRole[]).some((role) => roles.includes(role)),
  );
}
