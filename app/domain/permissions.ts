import type { StaffRole } from "./roles";

/**
 * What each staff role may do in the back office, as capabilities ("<thing>:<verb>"). This one
 * table drives the navigation, the route guards and the services' own checks, so a page, a second
 * way in and anything written later all ask the same question: `can(staff, "result:release")`.
 */
export const CAPABILITIES = [
  /** the dashboard: counts only, no one's details */
  "dashboard:read",
  /** the upcoming events' names, days and places taken (the dashboard's table), drafts included */
  "event:read",
  /** the events list, create, edit, publish and unpublish */
  "event:edit",
  /** cancel an event (everyone booked is told and refunded), and retry its refunds */
  "event:cancel",
  /**
   * cancel one man's booked place when he asks us to (by phone or letter): the policy's refund,
   * or everything he paid
   */
  "booking:cancel",
  /** move one man's booked place to another time (its event's, or a like event's) when he asks */
  "booking:move",
  /** make and revoke a private event's access codes */
  "access-code:manage",
  /** screening products and their prices */
  "product:edit",
  /** an event's attendees with their personal details, on screen and printed */
  "attendee:read",
  /** arrived, no-show, sample taken */
  "attendee:check-in",
  /** correct a booked man's date of birth and NHS number (the laboratory matches on them) */
  "attendee:correct-details",
  /** an event's attendees (list, print, check-in, consent link) on any day, not only its own */
  "attendee:any-day",
  /** e-mail someone booked a signed link to the consent form (/test-consent) */
  "consent-link:send",
  /** the laboratory's CSV of names, dates of birth, NHS numbers and sample ids */
  "lab-csv:export",
  /** results awaiting release and released, one result's page */
  "result:read",
  /** upload the laboratory's file, preview and commit it */
  "result:import",
  /** flag a result and release it to the patient */
  "result:release",
  /** change a released result */
  "result:correct",
  /** the age thresholds that suggest a flag */
  "threshold:edit",
  /** read the contact form's enquiries and mark them handled */
  "enquiry:handle",
  /** download the newsletter subscribers */
  "subscriber:export",
  /** invite staff, change roles, deactivate, reset two-factor sign-in */
  "staff:manage",
  /** read the audit log */
  "audit:read",
] as const;

export type Capability = (typeof CAPABILITIES)[number];

/** Each role's capabilities: the README's "Back office" section, as data. */
export const ROLE_CAPABILITIES: Record<StaffRole, readonly Capability[]> = {
  admin: [
    "dashboard:read",
    "event:read",
    "event:edit",
    "event:cancel",
    "access-code:manage",
    "product:edit",
    "enquiry:handle",
    "subscriber:export",
    "staff:manage",
    "audit:read",
  ],
  coordinator: [
    "dashboard:read",
    "event:read",
    "event:edit",
    "event:cancel",
    "access-code:manage",
    "product:edit",
    "attendee:read",
    "attendee:check-in",
    "attendee:correct-details",
    "attendee:any-day",
    "booking:cancel",
    "booking:move",
    "consent-link:send",
    "lab-csv:export",
    "enquiry:handle",
  ],
  clinician: [
    "dashboard:read",
    "event:read",
    "result:read",
    "result:import",
    "result:release",
    "result:correct",
    "threshold:edit",
  ],
  // On the day: today's events from the dashboard, their lists and check-in, on that day only
  // (`assertEventDay`). A tablet left in a hall can neither cancel an event (and refund
  // everyone), change a price, nor read the records of other days, nor the coming events' names.
  event_staff: [
    "dashboard:read",
    "attendee:read",
    "attendee:check-in",
    "attendee:correct-details",
    "consent-link:send",
  ],
};

/** The staff member acting, as services need them: who (for the audit log) and their roles. */
export interface StaffActor {
  id: string;
  email: string | null;
  /** Where the request came from, for the audit log. */
  clientAddress: string | null;
  roles: readonly StaffRole[];
}

/** Whether someone holding these roles may do this. No role, no capability. */
export function can(staff: { roles: readonly StaffRole[] }, capability: Capability): boolean {
  return staff.roles.some((role) => ROLE_CAPABILITIES[role]?.includes(capability) ?? false);
}

/** A service was asked to act for someone without the capability; routes answer it with 403. */
export class PermissionDenied extends Error {
  override readonly name = "PermissionDenied";
  constructor(readonly capability: Capability) {
    super(`Not permitted: ${capability}`);
  }
}

/**
 * Whether `staff` may work on the attendees of an event on `eventDate` when it is `today` (both
 * London days, "yyyy-MM-dd"): on any day with `attendee:any-day`, otherwise on that day only.
 */
export function mayWorkOnEventDay(
  staff: { roles: readonly StaffRole[] },
  eventDate: string,
  today: string,
): boolean {
  return eventDate === today || can(staff, "attendee:any-day");
}

/** Throws PermissionDenied unless `staff` may work on an event on `eventDate` today. */
export function assertEventDay(
  staff: { roles: readonly StaffRole[] },
  eventDate: string,
  today: string,
): void {
  if (!mayWorkOnEventDay(staff, eventDate, today)) throw new PermissionDenied("attendee:any-day");
}

/** Throws PermissionDenied unless `staff` may do this: the first line of every back-office change. */
export function assertCan(staff: { roles: readonly StaffRole[] }, capability: Capability): void {
  if (!can(staff, capability)) throw new PermissionDenied(capability);
}
