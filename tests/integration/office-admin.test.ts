import crypto from "node:crypto";
import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  auditLog,
  enquiry,
  newsletterSubscription,
  outboxEmail,
  staffInvitation,
  user,
  userRole,
} from "#app/db/schema";
import { auditFilterSchema, type AuditFilter } from "#app/domain/audit-filter";
import type { StaffRole } from "#app/domain/roles";
import { recordAudit } from "#app/services/audit.server";
import { readAuditLog, readAuditLogAsStaff } from "#app/services/audit-log.server";
import { listEnquiriesForStaff, setEnquiryHandled } from "#app/services/enquiries-admin.server";
import {
  changeAccountActive,
  changeStaffRoles,
  inviteStaff,
  inviteStaffMember,
  revokeInvitation,
  viewStaff,
} from "#app/services/staff.server";
import { sealNewsletterRequest } from "#app/services/newsletter-confirmation.server";
import {
  confirmNewsletterSubscription,
  countCurrentSubscribers,
  exportSubscribers,
} from "#app/services/subscriptions.server";
import {
  checkUnsubscribeToken,
  signUnsubscribeToken,
  unsubscribeLink,
  unsubscribeWithToken,
  verifyUnsubscribeToken,
} from "#app/services/unsubscribe.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import {
  auditRows,
  insertAccount,
  insertBooking,
  insertFreeEvent,
  insertPatient,
  insertStaff,
  uniqueEmail,
  uniqueId,
} from "#tests/support/fixtures";

// The /unsubscribe route's loader and action use the process-wide database.
const database = testDatabaseForThisFile({ processWide: true });

/** A staff member with these roles, as the back-office services are given them (`.actor`). */
const insertStaffMember = (roles: StaffRole[]) => insertStaff(database.db, roles);
/** Someone with an account and no staff role. */
const insertNonStaff = () => insertAccount(database.db);

/** What this person did, newest first. */
async function auditRowsFor(actorEmail: string) {
  return (await auditRows(database.db, { actorEmail })).reverse();
}

describe("enquiries inbox", () => {
  async function insertEnquiry(minutesAgo: number, handled = false) {
    const [row] = await database.db
      .insert(enquiry)
      .values({
        firstName: `First-${uniqueId()}`,
        lastName: "Enquirer",
        email: uniqueEmail("enquirer"),
        phoneNumber: "01632 960 999",
        message: "Could you run an event for our club?",
        createdAt: new Date(Date.now() - minutesAgo * 60_000),
        handledAt: handled ? new Date() : null,
      })
      .returning();
    return row!;
  }

  it("lists unhandled enquiries first, newest first, and records the view with a count", async () => {
    const admin = await insertStaffMember(["admin"]);
    const older = await insertEnquiry(120);
    const newer = await insertEnquiry(5);
    const handled = await insertEnquiry(1, true);

    const unhandled = await listEnquiriesForStaff(database.db, admin.actor, "unhandled");
    const unhandledIds = unhandled.enquiries.map((row) => row.id);
    expect(unhandledIds).not.toContain(handled.id);
    expect(unhandledIds.indexOf(newer.id)).toBeLessThan(unhandledIds.indexOf(older.id));
    expect(unhandledIds.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(unhandled.unhandledCount).toBe(unhandled.enquiries.length);
    const shown = unhandled.enquiries.find((row) => row.id === newer.id)!;
    expect(shown).toMatchObject({
      name: `${newer.firstName} Enquirer`,
      email: newer.email,
      phoneNumber: "01632 960 999",
      message: "Could you run an event for our club?",
      handledAt: null,
    });

    const all = await listEnquiriesForStaff(database.db, admin.actor, "all");
    const allIds = all.enquiries.map((row) => row.id);
    // The handled one is the newest of the three, yet comes after every unhandled one.
    expect(allIds.indexOf(handled.id)).toBeGreaterThan(allIds.indexOf(older.id));
    const firstHandled = all.enquiries.findIndex((row) => row.handledAt !== null);
    expect(all.enquiries.slice(firstHandled).every((row) => row.handledAt !== null)).toBe(true);

    const views = await auditRowsFor(admin.email);
    expect(views.map((row) => row.action)).toEqual(["enquiries.view", "enquiries.view"]);
    expect(views[1]).toMatchObject({
      subjectUserId: null,
      actorUserId: admin.id,
      ipAddress: "203.0.113.7",
      details: { count: unhandled.enquiries.length, filter: "unhandled" },
    });
    expect(views[0]!.details).toEqual({ count: all.enquiries.length, filter: "all" });
  });

  it("marks an enquiry handled by the staff member, and back, auditing both", async () => {
    const coordinator = await insertStaffMember(["coordinator"]);
    const row = await insertEnquiry(30);
    const at = new Date("2026-05-01T09:30:00Z");

    expect(await setEnquiryHandled(database.db, coordinator.actor, row.id, true, at)).toBe(true);
    let [stored] = await database.db.select().from(enquiry).where(eq(enquiry.id, row.id));
    expect(stored).toMatchObject({ handledAt: at, handledBy: coordinator.id });
    const listed = await listEnquiriesForStaff(database.db, coordinator.actor, "all");
    expect(listed.enquiries.find((item) => item.id === row.id)?.handledByName).toBe(
      coordinator.name,
    );
    const gone = await listEnquiriesForStaff(database.db, coordinator.actor, "unhandled");
    expect(gone.enquiries.map((item) => item.id)).not.toContain(row.id);

    // Marking it again changes nothing and is not recorded twice.
    await setEnquiryHandled(database.db, coordinator.actor, row.id, true);
    [stored] = await database.db.select().from(enquiry).where(eq(enquiry.id, row.id));
    expect(stored!.handledAt).toEqual(at);

    expect(await setEnquiryHandled(database.db, coordinator.actor, row.id, false)).toBe(true);
    [stored] = await database.db.select().from(enquiry).where(eq(enquiry.id, row.id));
    expect(stored).toMatchObject({ handledAt: null, handledBy: null });

    const changes = (await auditRowsFor(coordinator.email)).filter(
      (entry) => entry.entityId === row.id,
    );
    expect(changes.map((entry) => entry.action)).toEqual(["enquiry.reopened", "enquiry.handled"]);
    expect(changes.every((entry) => entry.entityType === "enquiry")).toBe(true);

    expect(await setEnquiryHandled(database.db, coordinator.actor, crypto.randomUUID(), true)).toBe(
      false,
    );
  });
});

describe("subscribers export", () => {
  it("has the four columns, leaves out unsubscribed addresses and disarms formulas", async () => {
    const admin = await insertStaffMember(["admin"]);
    const current = uniqueEmail("current");
    const gone = uniqueEmail("gone");
    const formula = uniqueEmail("formula");
    await database.db.insert(newsletterSubscription).values([
      {
        name: "Zoë O'Neill, Jr",
        email: current,
        hearAboutEvents: true,
        createdAt: new Date("2026-06-30T23:30:00Z"),
      },
      { name: "Gone Away", email: gone, unsubscribedAt: new Date() },
      { name: '=HYPERLINK("http://evil.example","click")', email: formula, hearAboutEvents: false },
    ]);
    const expectedCount = (await database.db.select().from(newsletterSubscription)).filter(
      (row) => row.unsubscribedAt === null,
    ).length;
    expect(await countCurrentSubscribers(database.db)).toBe(expectedCount);

    const now = new Date("2026-03-31T23:30:00Z");
    const exported = await exportSubscribers(database.db, admin.actor, now);
    expect(exported.filename).toBe("newsletter-subscribers-2026-04-01.csv");
    const records = parse(exported.csv, { bom: true }) as string[][];
    expect(records[0]).toEqual(["name", "email", "hear about events", "subscribed date"]);
    const byEmail = new Map(records.slice(1).map((record) => [record[1], record]));
    expect(records.length - 1).toBe(expectedCount);
    expect(exported.count).toBe(expectedCount);
    expect(byEmail.get(current)).toEqual(["Zoë O'Neill, Jr", current, "yes", "2026-07-01"]);
    expect(byEmail.has(gone)).toBe(false);
    expect(byEmail.get(formula)?.[0]).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(byEmail.get(formula)?.[2]).toBe("no");

    const [entry] = await auditRowsFor(admin.email);
    expect(entry).toMatchObject({
      action: "subscribers.export",
      subjectUserId: null,
      details: { count: expectedCount },
    });
  });
});

describe("newsletter unsubscribe", () => {
  async function subscribe(email = uniqueEmail("reader")) {
    // As the owner does: opening the link from the confirmation e-mail.
    const token = sealNewsletterRequest(
      { name: "Reader", email, hearAboutEvents: true },
      new Date(),
    );
    await confirmNewsletterSubscription(database.db, token, "https://mhat.example");
    const [row] = await database.db
      .select()
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.email, email));
    return row!;
  }

  it("signs a token for one subscription that names no address and refuses tampering", async () => {
    const first = await subscribe();
    const second = await subscribe();
    const token = signUnsubscribeToken(first.id);
    expect(token).not.toContain(first.email);
    expect(token).not.toContain("@");
    expect(verifyUnsubscribeToken(token)).toBe(first.id);

    // One character of the MAC changed.
    const last = token.at(-1)!;
    const tampered = token.slice(0, -1) + (last === "A" ? "B" : "A");
    expect(verifyUnsubscribeToken(tampered)).toBeNull();
    // Another subscription's id with this one's MAC.
    const swapped = `${second.id}${token.slice(token.indexOf("."))}`;
    expect(verifyUnsubscribeToken(swapped)).toBeNull();
    // A MAC made with another secret.
    const forged = `${first.id}.${crypto.createHmac("sha256", "guess").update(`newsletter-unsubscribe|${first.id}`).digest("base64url")}`;
    expect(verifyUnsubscribeToken(forged)).toBeNull();
    for (const junk of ["", "nonsense", ".", `${first.id}.`, "x".repeat(500)])
      expect(verifyUnsubscribeToken(junk)).toBeNull();

    expect(await checkUnsubscribeToken(database.db, tampered)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await checkUnsubscribeToken(database.db, null)).toEqual({
      ok: false,
      reason: "missing",
    });
    // Properly signed, but for nothing that exists.
    expect(
      await checkUnsubscribeToken(database.db, signUnsubscribeToken(crypto.randomUUID())),
    ).toEqual({ ok: false, reason: "unknown" });

    const link = new URL(unsubscribeLink("https://mhat.example/", first.id));
    expect(link.origin + link.pathname).toBe("https://mhat.example/unsubscribe");
    expect(link.searchParams.get("token")).toBe(token);
  });

  it("sends a new subscriber the unsubscribe link, and only once", async () => {
    const email = uniqueEmail("welcome");
    const row = await subscribe(email);
    await subscribe(email);
    const mails = await database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email));
    expect(mails).toHaveLength(1);
    const url = /https:\/\/mhat\.example\/unsubscribe\?token=\S+/.exec(mails[0]!.text)?.[0];
    expect(url).toBeDefined();
    const token = new URL(url!).searchParams.get("token");
    expect(verifyUnsubscribeToken(token)).toBe(row.id);
    expect(mails[0]!.text).not.toContain("Reader");
    // The same link goes in the List-Unsubscribe header, for the mail program's own button.
    expect(mails[0]!.listUnsubscribe).toBe(url);
  });

  it("GET changes nothing; POST unsubscribes; invalid links get 400 or 404, not 500", async () => {
    const { loader, action } = await import("#app/routes/site/unsubscribe");
    const row = await subscribe();
    const token = signUnsubscribeToken(row.id);
    const url = `http://localhost/unsubscribe?token=${encodeURIComponent(token)}`;
    const args = (request: Request) =>
      ({ request, params: {}, context: { clientAddress: "127.0.0.1" } }) as never;

    const shown = (await loader(args(new Request(url)))) as unknown as {
      data: { state: string };
      init: ResponseInit | null;
    };
    expect(shown.data.state).toBe("confirm");
    let [stored] = await database.db
      .select()
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.id, row.id));
    expect(stored!.unsubscribedAt).toBeNull();

    const posted = (await action(
      args(
        new Request("http://localhost/unsubscribe", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token }),
        }),
      ),
    )) as unknown as { data: { state: string }; init: ResponseInit | null };
    expect(posted.data.state).toBe("done");
    [stored] = await database.db
      .select()
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.id, row.id));
    expect(stored!.unsubscribedAt).toBeInstanceOf(Date);
    expect(await countCurrentSubscribers(database.db)).toBe(
      (await database.db.select().from(newsletterSubscription)).filter((s) => !s.unsubscribedAt)
        .length,
    );

    const bad = (await loader(
      args(new Request(`http://localhost/unsubscribe?token=${encodeURIComponent(token)}x`)),
    )) as unknown as { data: { state: string }; init: ResponseInit | null };
    expect(bad.data.state).toBe("refused");
    expect(bad.init?.status).toBe(400);
    const unknown = (await loader(
      args(
        new Request(
          `http://localhost/unsubscribe?token=${encodeURIComponent(signUnsubscribeToken(crypto.randomUUID()))}`,
        ),
      ),
    )) as unknown as { data: { state: string }; init: ResponseInit | null };
    expect(unknown.init?.status).toBe(404);
    const missing = (await loader(
      args(new Request("http://localhost/unsubscribe")),
    )) as unknown as {
      init: ResponseInit | null;
    };
    expect(missing.init?.status).toBe(400);
  });

  it("accepts RFC 8058 one-click: a POST to the link with List-Unsubscribe=One-Click", async () => {
    const { action } = await import("#app/routes/site/unsubscribe");
    const row = await subscribe();
    const link = unsubscribeLink("http://localhost", row.id);
    for (const contentType of ["application/x-www-form-urlencoded", "multipart/form-data"]) {
      const body =
        contentType === "multipart/form-data"
          ? (() => {
              const form = new FormData();
              form.set("List-Unsubscribe", "One-Click");
              return form;
            })()
          : "List-Unsubscribe=One-Click";
      const request = new Request(link, {
        method: "POST",
        ...(typeof body === "string" ? { headers: { "content-type": contentType } } : {}),
        body,
      });
      const result = (await action({
        request,
        params: {},
        context: { clientAddress: "127.0.0.1" },
      } as never)) as unknown as { data: { state: string } };
      expect(result.data.state).toBe("done");
    }
    const [stored] = await database.db
      .select()
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.id, row.id));
    expect(stored!.unsubscribedAt).toBeInstanceOf(Date);
  });

  it("unsubscribing twice keeps the first time; subscribing again clears it and says so by mail", async () => {
    const email = uniqueEmail("again");
    const row = await subscribe(email);
    const token = signUnsubscribeToken(row.id);
    const first = new Date("2026-02-01T10:00:00Z");
    expect(await unsubscribeWithToken(database.db, token, first)).toMatchObject({
      ok: true,
      unsubscribed: true,
    });
    await unsubscribeWithToken(database.db, token, new Date("2026-02-02T10:00:00Z"));
    let [stored] = await database.db
      .select()
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.id, row.id));
    expect(stored!.unsubscribedAt).toEqual(first);

    await subscribe(email);
    [stored] = await database.db
      .select()
      .from(newsletterSubscription)
      .where(eq(newsletterSubscription.id, row.id));
    expect(stored!.unsubscribedAt).toBeNull();
    const mails = await database.db.select().from(outboxEmail).where(eq(outboxEmail.to, email));
    expect(mails).toHaveLength(2);
  });
});

describe("staff management", () => {
  it("lists staff with their roles, two-factor and status, and pending invitations only", async () => {
    const admin = await insertStaffMember(["admin"]);
    const both = await insertStaffMember(["clinician", "coordinator"]);
    await database.db.update(user).set({ deactivatedAt: new Date() }).where(eq(user.id, both.id));
    const patient = await insertNonStaff();

    const { people } = await viewStaff(database.db, admin.actor);
    const byId = new Map(people.map((person) => [person.id, person]));
    expect(byId.get(admin.id)).toMatchObject({
      email: admin.email,
      roles: ["admin"],
      twoFactorEnabled: true,
      deactivatedAt: null,
    });
    expect(byId.get(both.id)?.roles).toEqual(["coordinator", "clinician"]);
    expect(byId.get(both.id)?.deactivatedAt).toBeInstanceOf(Date);
    expect(byId.has(patient.id)).toBe(false);
    // Someone already on staff is not invited again (whatever the capitals); a patient can be.
    const again = { roles: ["clinician"] as StaffRole[], baseUrl: "http://localhost" };
    expect(
      await inviteStaffMember(database.db, admin.actor, {
        ...again,
        email: admin.email.toUpperCase(),
      }),
    ).toEqual({ ok: false, reason: "alreadyStaff" });
    expect(
      await inviteStaffMember(database.db, admin.actor, { ...again, email: patient.email }),
    ).toEqual({ ok: true });

    const invitee = uniqueEmail("invitee", "example.org");
    await inviteStaff(database.db, admin.actor, {
      email: invitee,
      roles: ["coordinator"],
      baseUrl: "http://localhost",
    });
    const expired = uniqueEmail("expired", "example.org");
    await inviteStaff(
      database.db,
      admin.actor,
      { email: expired, roles: ["clinician"], baseUrl: "http://localhost" },
      new Date(Date.now() - 10 * 24 * 60 * 60_000),
    );
    const pending = (await viewStaff(database.db, admin.actor)).invitations;
    const invitation = pending.find((row) => row.email === invitee);
    expect(invitation).toMatchObject({ roles: ["coordinator"] });
    expect(pending.some((row) => row.email === expired)).toBe(false);

    expect(await revokeInvitation(database.db, admin.actor, invitation!.id)).toBe(true);
    expect(await revokeInvitation(database.db, admin.actor, invitation!.id)).toBe(false);
    const [revoked] = await database.db
      .select()
      .from(staffInvitation)
      .where(eq(staffInvitation.id, invitation!.id));
    expect(revoked!.revokedAt).toBeInstanceOf(Date);
    const [entry] = await auditRowsFor(admin.email);
    expect(entry).toMatchObject({
      action: "staff.invite.revoke",
      entityType: "staff_invitation",
      entityId: invitation!.id,
    });
    const { invitations } = await viewStaff(database.db, admin.actor);
    expect(invitations.some((row) => row.email === invitee)).toBe(false);
  });

  it("refuses to let an admin remove their own Admin role or deactivate themselves", async () => {
    const admin = await insertStaffMember(["admin", "clinician"]);
    const me = admin.actor;

    expect(await changeStaffRoles(database.db, me, admin.id, ["clinician"])).toEqual({
      ok: false,
      reason: "ownAdmin",
    });
    expect(await changeAccountActive(database.db, me, admin.id, false)).toEqual({
      ok: false,
      reason: "ownAccount",
    });
    const roles = await database.db
      .select({ role: userRole.role })
      .from(userRole)
      .where(eq(userRole.userId, admin.id));
    expect(roles.map((row) => row.role).sort()).toEqual(["admin", "clinician"]);
    const [stillActive] = await database.db.select().from(user).where(eq(user.id, admin.id));
    expect(stillActive!.deactivatedAt).toBeNull();
    expect(await auditRowsFor(admin.email)).toHaveLength(0);

    // Keeping Admin while changing the rest is allowed.
    expect(await changeStaffRoles(database.db, me, admin.id, ["admin", "coordinator"])).toEqual({
      ok: true,
    });
  });

  it("changes another person's roles and access, but never a patient's", async () => {
    const admin = await insertStaffMember(["admin"]);
    const colleague = await insertStaffMember(["coordinator"]);
    const patient = await insertNonStaff();
    const me = admin.actor;

    expect(await changeStaffRoles(database.db, me, colleague.id, ["clinician"])).toEqual({
      ok: true,
    });
    const roles = await database.db
      .select({ role: userRole.role })
      .from(userRole)
      .where(eq(userRole.userId, colleague.id));
    expect(roles.map((row) => row.role)).toEqual(["clinician"]);

    expect(await changeAccountActive(database.db, me, colleague.id, false)).toEqual({ ok: true });
    let [stored] = await database.db.select().from(user).where(eq(user.id, colleague.id));
    expect(stored!.deactivatedAt).toBeInstanceOf(Date);
    expect(await changeAccountActive(database.db, me, colleague.id, true)).toEqual({ ok: true });
    [stored] = await database.db.select().from(user).where(eq(user.id, colleague.id));
    expect(stored!.deactivatedAt).toBeNull();

    expect(await changeStaffRoles(database.db, me, patient.id, ["admin"])).toEqual({
      ok: false,
      reason: "missing",
    });
    expect(await changeAccountActive(database.db, me, patient.id, false)).toEqual({
      ok: false,
      reason: "missing",
    });
    expect(
      await database.db.select().from(userRole).where(eq(userRole.userId, patient.id)),
    ).toHaveLength(0);

    const actions = (await auditRowsFor(admin.email)).map((row) => row.action);
    expect(actions).toEqual(["staff.reactivate", "staff.deactivate", "staff.roles"]);
  });
});

describe("audit log reader", () => {
  const filter = (input: Record<string, string>): AuditFilter => {
    const parsed = auditFilterSchema.safeParse(input);
    if (!parsed.success) throw new Error("bad filter in test");
    return parsed.data;
  };

  it("filters by action, actor, subject (id, e-mail, ID or booking reference) and London dates", async () => {
    const reader = await insertStaffMember(["admin"]);
    const other = await insertStaffMember(["clinician"]);
    const patient = await insertPatient(database.db);
    const bystander = await insertNonStaff();
    const portalReference = patient.reference;
    const screening = await insertFreeEvent(database.db);
    const { reference: bookingReference } = await insertBooking(database.db, {
      eventId: screening.id,
      userId: patient.id,
    });

    const rows: (typeof auditLog.$inferInsert)[] = [
      // 30 June 23:30 UTC is 1 July 00:30 in London.
      { at: new Date("2026-06-30T23:30:00Z"), action: "result.view", subjectUserId: patient.id },
      { at: new Date("2026-06-30T22:30:00Z"), action: "result.view", subjectUserId: patient.id },
      {
        at: new Date("2026-07-02T10:00:00Z"),
        action: "attendees.view",
        subjectUserId: bystander.id,
      },
      { at: new Date("2026-07-03T10:00:00Z"), action: "result.release", subjectUserId: patient.id },
    ];
    await database.db.insert(auditLog).values(
      rows.map((row) => ({
        ...row,
        actorUserId: other.id,
        actorEmail: other.email,
        ipAddress: "198.51.100.4",
        entityType: "test_result",
        entityId: "r1",
        details: { count: 1 },
      })),
    );

    const mine = (input: Record<string, string>) =>
      readAuditLog(database.db, filter({ actor: other.email, ...input }));

    const everything = await mine({});
    expect(everything.total).toBe(4);
    // Newest first.
    expect(everything.rows.map((row) => row.at.toISOString())).toEqual([
      "2026-07-03T10:00:00.000Z",
      "2026-07-02T10:00:00.000Z",
      "2026-06-30T23:30:00.000Z",
      "2026-06-30T22:30:00.000Z",
    ]);
    expect(everything.rows[0]).toMatchObject({
      actorEmail: other.email,
      subjectName: patient.name,
      subjectEmail: patient.email,
      ipAddress: "198.51.100.4",
      details: { count: 1 },
    });

    expect((await mine({ action: "result.view" })).rows).toHaveLength(2);
    expect((await mine({ action: "staff.roles" })).rows).toHaveLength(0);
    expect((await readAuditLog(database.db, filter({ actor: reader.email }))).total).toBe(0);

    for (const subject of [
      patient.id,
      patient.email.toUpperCase(),
      portalReference.toLowerCase(),
      `ID: ${portalReference}`,
      bookingReference.replace(/-/g, " ").toLowerCase(),
    ]) {
      const found = await mine({ subject });
      expect(found.subjectUserIds, subject).toEqual([patient.id]);
      expect(found.rows.map((row) => row.action).sort(), subject).toEqual([
        "result.release",
        "result.view",
        "result.view",
      ]);
    }
    const nobody = await mine({ subject: "nobody@example.org" });
    expect(nobody).toMatchObject({ rows: [], total: 0, subjectUserIds: [] });

    // 1 July in London: from 30 June 23:00 UTC to 1 July 23:00 UTC.
    const july1 = await mine({ from: "2026-07-01", to: "2026-07-01" });
    expect(july1.rows.map((row) => row.at.toISOString())).toEqual(["2026-06-30T23:30:00.000Z"]);
    const fromJuly2 = await mine({ from: "2026-07-02" });
    expect(fromJuly2.rows).toHaveLength(2);
    const toJune30 = await mine({ to: "2026-06-30" });
    expect(toJune30.rows.map((row) => row.at.toISOString())).toEqual(["2026-06-30T22:30:00.000Z"]);
  });

  it("pages 50 at a time, newest first", async () => {
    const busy = await insertStaffMember(["admin"]);
    const start = Date.parse("2026-01-01T09:00:00Z");
    await database.db.insert(auditLog).values(
      Array.from({ length: 53 }, (_, index) => ({
        at: new Date(start + index * 60_000),
        actorUserId: busy.id,
        actorEmail: busy.email,
        action: "staff.view",
        details: { n: index },
      })),
    );
    const first = await readAuditLog(database.db, filter({ actor: busy.email }));
    expect(first).toMatchObject({ total: 53, page: 1, pageCount: 2 });
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.details).toEqual({ n: 52 });
    const second = await readAuditLog(database.db, filter({ actor: busy.email, page: "2" }));
    expect(second.rows.map((row) => row.details?.n)).toEqual([2, 1, 0]);
    // A page past the end shows the last one.
    const beyond = await readAuditLog(database.db, filter({ actor: busy.email, page: "9" }));
    expect(beyond.page).toBe(2);
  });

  it("records each reading, with the person when one person's trail was asked for", async () => {
    const admin = await insertStaffMember(["admin"]);
    const patient = await insertNonStaff();
    await readAuditLogAsStaff(database.db, admin.actor, filter({}));
    await readAuditLogAsStaff(
      database.db,
      admin.actor,
      filter({ subject: patient.email, action: "result.view" }),
    );
    const [second, first] = await auditRowsFor(admin.email);
    expect(first).toMatchObject({
      action: "audit.view",
      subjectUserId: null,
      ipAddress: "203.0.113.7",
      details: { page: 1, filtered: false },
    });
    expect(second).toMatchObject({
      action: "audit.view",
      subjectUserId: patient.id,
      details: { page: 1, shown: 0, filtered: true },
    });
    // Nothing typed into the filters is kept.
    expect(JSON.stringify(second!.details)).not.toContain(patient.email);
  });
});

describe("the audit log is append-only in the database", () => {
  it("refuses UPDATE and DELETE, whatever the code does", async () => {
    const admin = await insertStaffMember(["admin"]);
    await recordAudit(database.db, admin.actor, { action: "audit.view" });
    await expect(database.db.execute(sql`update audit_log set action = 'x'`)).rejects.toThrow();
    await expect(
      database.db.execute(sql`delete from audit_log where actor_email = ${admin.email}`),
    ).rejects.toThrow();
    const rows = await auditRowsFor(admin.email);
    expect(rows.map((row) => row.action)).toEqual(["audit.view"]);
  });
});
