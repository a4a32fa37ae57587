import { describe, expect, it } from "vitest";
import { sectionsFor } from "./admin-nav";
import {
  assertCan,
  assertEventDay,
  can,
  CAPABILITIES,
  mayWorkOnEventDay,
  PermissionDenied,
  ROLE_CAPABILITIES,
  type Capability,
} from "./permissions";
import { STAFF_ROLES, type StaffRole } from "./roles";

const as = (...roles: StaffRole[]) => ({ roles });

/**
 * Who may do what, written out from the README's "Back office" section: events for admins and
 * coordinators (the dashboard's upcoming events for clinicians too), attendees and check-in for coordinators and event staff (the lab's file for
 * coordinators only), results for clinicians, people, the subscribers and the audit log for admins.
 */
const EXPECTED: Record<Capability, readonly StaffRole[]> = {
  "dashboard:read": ["admin", "coordinator", "clinician", "event_staff"],
  "event:read": ["admin", "coordinator", "clinician"],
  "event:edit": ["admin", "coordinator"],
  "event:cancel": ["admin", "coordinator"],
  "booking:cancel": ["coordinator"],
  "booking:move": ["coordinator"],
  "access-code:manage": ["admin", "coordinator"],
  "product:edit": ["admin", "coordinator"],
  "attendee:read": ["coordinator", "event_staff"],
  "attendee:check-in": ["coordinator", "event_staff"],
  "attendee:correct-details": ["coordinator", "event_staff"],
  "attendee:any-day": ["coordinator"],
  "consent-link:send": ["coordinator", "event_staff"],
  "lab-csv:export": ["coordinator"],
  "result:read": ["clinician"],
  "result:import": ["clinician"],
  "result:release": ["clinician"],
  "result:correct": ["clinician"],
  "threshold:edit": ["clinician"],
  "enquiry:handle": ["admin", "coordinator"],
  "subscriber:export": ["admin"],
  "staff:manage": ["admin"],
  "audit:read": ["admin"],
};

describe("can", () => {
  it.each(CAPABILITIES)("%s: each role may or may not, as the README says", (capability) => {
    for (const role of STAFF_ROLES)
      expect(can(as(role), capability), `${role} ${capability}`).toBe(
        EXPECTED[capability].includes(role),
      );
  });

  it("a clinician releases and corrects results but checks nobody in", () => {
    expect(can(as("clinician"), "result:release")).toBe(true);
    expect(can(as("clinician"), "result:correct")).toBe(true);
    expect(can(as("clinician"), "attendee:check-in")).toBe(false);
  });

  it("a coordinator checks people in but releases no result", () => {
    expect(can(as("coordinator"), "attendee:check-in")).toBe(true);
    expect(can(as("coordinator"), "result:release")).toBe(false);
  });

  it("event staff check people in, but change no event, price or money, and export nothing", () => {
    expect(can(as("event_staff"), "attendee:check-in")).toBe(true);
    for (const capability of [
      "event:edit",
      "event:cancel",
      "product:edit",
      "access-code:manage",
      "lab-csv:export",
      "result:read",
    ] as const)
      expect(can(as("event_staff"), capability), capability).toBe(false);
  });

  it("someone with no staff role may do nothing", () => {
    for (const capability of CAPABILITIES) expect(can(as(), capability)).toBe(false);
  });

  it("two roles give what either gives", () => {
    const both = as("coordinator", "clinician");
    expect(can(both, "attendee:check-in")).toBe(true);
    expect(can(both, "result:release")).toBe(true);
    expect(can(both, "staff:manage")).toBe(false);
  });

  it("every capability in the table is a known one", () => {
    for (const list of Object.values(ROLE_CAPABILITIES))
      for (const capability of list) expect(CAPABILITIES).toContain(capability);
  });
});

describe("assertCan", () => {
  it("passes quietly when allowed", () => {
    expect(() => assertCan(as("clinician"), "result:release")).not.toThrow();
  });

  it("throws PermissionDenied naming the capability when not", () => {
    let thrown: unknown;
    try {
      assertCan(as("coordinator"), "result:release");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PermissionDenied);
    expect((thrown as PermissionDenied).capability).toBe("result:release");
  });
});

describe("sectionsFor (the navigation reads the same table)", () => {
  const labels = (...roles: StaffRole[]) => sectionsFor(as(...roles)).map((s) => s.label);

  it("shows each role only its sections", () => {
    expect(labels("admin")).toEqual([
      "Dashboard",
      "Events",
      "Products and prices",
      "Refunds owed",
      "Enquiries",
      "Subscribers",
      "Staff",
      "Audit log",
    ]);
    expect(labels("coordinator")).toEqual([
      "Dashboard",
      "Events",
      "Products and prices",
      "Refunds owed",
      "Enquiries",
    ]);
    expect(labels("clinician")).toEqual(["Dashboard", "Results"]);
    expect(labels()).toEqual([]);
  });
});

describe("mayWorkOnEventDay", () => {
  const today = "2026-06-10";
  it("lets event staff work on an event's list on its own day only", () => {
    expect(mayWorkOnEventDay(as("event_staff"), "2026-06-10", today)).toBe(true);
    expect(mayWorkOnEventDay(as("event_staff"), "2026-06-09", today)).toBe(false);
    expect(mayWorkOnEventDay(as("event_staff"), "2026-06-11", today)).toBe(false);
    expect(() => assertEventDay(as("event_staff"), "2026-06-09", today)).toThrow(PermissionDenied);
  });
  it("lets a coordinator work on any day's", () => {
    expect(mayWorkOnEventDay(as("coordinator"), "2026-05-01", today)).toBe(true);
    expect(mayWorkOnEventDay(as("event_staff", "coordinator"), "2026-07-01", today)).toBe(true);
  });
});
