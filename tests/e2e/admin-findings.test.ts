import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { query, serverDatabaseForThisFile } from "./support";
import { signedInStaff } from "./staff-support";

const server = serverDatabaseForThisFile();

/**
 * Issue 14, item 9: two back-office posts that did the wrong thing quietly. Each is sent as a
 * script would send it, to the built server, and checked against the database.
 */

describe("a thresholds post without its band fields", () => {
  it("answers 400 with a message for each band, and no threshold becomes NULL", async () => {
    const bands = () =>
      query<{ id: string; threshold_ng_ml: string | null }>(
        "select id, threshold_ng_ml from psa_threshold order by min_age",
      );
    const before = await bands();
    expect(before.length).toBeGreaterThan(0);
    const { jar: clinician } = await signedInStaff(server.db, ["clinician"]);

    const response = await clinician.post("/admin/results/thresholds", { intent: "save" });
    expect(response.status).toBe(400);
    const page = await response.text();
    // The page shows each band's message beside its field and in the summary.
    expect(page.match(/This threshold was not sent/g)?.length).toBeGreaterThanOrEqual(
      before.length,
    );
    expect(await bands()).toEqual(before);
  });
});

describe("revoking another event's access code", () => {
  /** A private event of our own, made here so that no other test's data is needed. */
  async function privateEvent(name: string) {
    const [product] = await query<{ id: string }>(
      "select id from screening_product order by name limit 1",
    );
    const [made] = await query<{ id: string }>(
      `insert into event (name, product_id, event_date, start_time, end_time, session_duration,
         total_spaces, places_per_slot, category, address_line_1, city, postcode, status, is_public)
       values ($1, $2, current_date + 30, '10:00', '12:00', 20, 10, 1, 'community',
         'Station Road', 'Braintree', 'CM7 5AL', 'published', false) returning id`,
      [`${name} ${crypto.randomUUID().slice(0, 8)}`, product!.id],
    );
    return made!.id;
  }

  it("answers 404, leaves the code working and writes no audit row", async () => {
    const owner = await privateEvent("Coggeshall Lodge Screening");
    const other = await privateEvent("Kelvedon Lodge Screening");
    const [code] = await query<{ id: string }>(
      `insert into event_access_code (event_id, code_hash, label) values ($1, $2, 'Lodge')
       returning id`,
      [owner, crypto.randomUUID()],
    );
    const revokeRows = () =>
      query("select id from audit_log where action = 'access-code.revoke' and entity_id = $1", [
        other,
      ]);
    const { jar: coordinator } = await signedInStaff(server.db, ["coordinator"]);

    const response = await coordinator.post(`/admin/events/${other}`, {
      intent: "revoke-code",
      codeId: code!.id,
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("location")).toBeNull();
    expect(await revokeRows()).toEqual([]);
    const [stored] = await query<{ revoked_at: Date | null }>(
      "select revoked_at from event_access_code where id = $1",
      [code!.id],
    );
    expect(stored!.revoked_at).toBeNull();

    // Its own event revokes it, once, with one audit row.
    const own = await coordinator.post(`/admin/events/${owner}`, {
      intent: "revoke-code",
      codeId: code!.id,
    });
    expect(own.status).toBe(302);
    expect(own.headers.get("location")).toContain("saved=revoked");
    expect(
      await query(
        "select id from audit_log where action = 'access-code.revoke' and entity_id = $1",
        [owner],
      ),
    ).toHaveLength(1);
  });
});
