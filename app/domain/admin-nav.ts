import { can, type Capability } from "./permissions";
import type { StaffRole } from "./roles";

/** The back office's sections, and what opening each needs; the nav shows a person only theirs. */
export const ADMIN_SECTIONS = [
  { href: "/admin", label: "Dashboard", capability: "dashboard:read" },
  { href: "/admin/events", label: "Events", capability: "event:edit" },
  { href: "/admin/products", label: "Products and prices", capability: "product:edit" },
  // Reachable whether or not a refund is owed: "has my refund gone?" is asked either way.
  { href: "/admin/refunds", label: "Refunds owed", capability: "event:cancel" },
  { href: "/admin/results", label: "Results", capability: "result:read" },
  { href: "/admin/enquiries", label: "Enquiries", capability: "enquiry:handle" },
  { href: "/admin/subscribers", label: "Subscribers", capability: "subscriber:export" },
  { href: "/admin/staff", label: "Staff", capability: "staff:manage" },
  { href: "/admin/audit", label: "Audit log", capability: "audit:read" },
] as const satisfies readonly { href: string; label: string; capability: Capability }[];

export function sectionsFor(staff: { roles: readonly StaffRole[] }) {
  return ADMIN_SECTIONS.filter((section) => can(staff, section.capability));
}
