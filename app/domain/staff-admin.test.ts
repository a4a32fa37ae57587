import { describe, expect, it } from "vitest";
import { parseForm } from "./forms";
import { inviteSchema, rolesSchema, selfLockoutProblem, STAFF_MESSAGES } from "./staff-admin";

describe("selfLockoutProblem", () => {
  it("stops an admin removing their own Admin role", () => {
    expect(selfLockoutProblem("me", "me", { roles: ["coordinator"] })).toBe("ownAdmin");
    expect(selfLockoutProblem("me", "me", { roles: ["admin", "clinician"] })).toBeNull();
  });

  it("stops an admin deactivating themselves", () => {
    expect(selfLockoutProblem("me", "me", { active: false })).toBe("ownAccount");
    expect(selfLockoutProblem("me", "me", { active: true })).toBeNull();
  });

  it("does not limit changes to other people", () => {
    expect(selfLockoutProblem("me", "you", { roles: ["clinician"] })).toBeNull();
    expect(selfLockoutProblem("me", "you", { active: false })).toBeNull();
  });
});

describe("staff forms", () => {
  it("needs an address and at least one known role", () => {
    const empty = parseForm(inviteSchema, { email: "", roles: [] });
    expect(empty.ok || empty.fieldErrors).toEqual({
      email: STAFF_MESSAGES.email,
      roles: STAFF_MESSAGES.roles,
    });
    const unknown = parseForm(inviteSchema, { email: "a@example.org", roles: ["owner"] });
    expect(unknown.ok || unknown.fieldErrors).toEqual({ roles: STAFF_MESSAGES.roles });
  });

  it("lower-cases the address and keeps roles in their usual order, once each", () => {
    const parsed = parseForm(inviteSchema, {
      email: " New.Person@Example.org",
      roles: ["clinician", "admin", "clinician"],
    });
    expect(parsed.ok && parsed.data).toEqual({
      email: "new.person@example.org",
      roles: ["admin", "clinician"],
    });
  });

  it("reads a change of roles for one person, where none at all ends their staff access", () => {
    expect(parseForm(rolesSchema, { userId: "u1", roles: ["coordinator"] }).ok).toBe(true);
    const none = parseForm(rolesSchema, { userId: "u1", roles: [] });
    expect(none.ok && none.data.roles).toEqual([]);
    expect(parseForm(rolesSchema, { userId: "u1", roles: ["owner"] }).ok).toBe(false);
    expect(parseForm(rolesSchema, { roles: ["coordinator"] }).ok).toBe(false);
  });

  it("still needs at least one role to invite someone", () => {
    const parsed = parseForm(inviteSchema, { email: "new.person@example.org", roles: [] });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.fieldErrors.roles).toBe(STAFF_MESSAGES.roles);
  });
});
