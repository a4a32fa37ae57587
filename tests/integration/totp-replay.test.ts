import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { usedTotpCode } from "#app/db/schema";
import { claimTotpCode } from "#app/services/two-factor.server";
import { testDatabaseForThisFile } from "#tests/support/database";
import { insertStaff } from "#tests/support/fixtures";

const database = testDatabaseForThisFile();

async function staffMember() {
  return (await insertStaff(database.db, ["clinician"])).id;
}

const AT = new Date("2026-11-22T10:00:00Z");
const seconds = (n: number) => new Date(AT.getTime() + n * 1000);

describe("an authenticator-app code signs in once", () => {
  it("refuses the same person's same code again within three minutes, then forgets it", async () => {
    const nurse = await staffMember();
    expect(await claimTotpCode(database.db, nurse, "492039", AT)).toBe(true);
    expect(await claimTotpCode(database.db, nurse, "492039", seconds(1))).toBe(false);
    expect(await claimTotpCode(database.db, nurse, "492039", seconds(179))).toBe(false);
    // Long after any code expires, the same six digits can come round again.
    expect(await claimTotpCode(database.db, nurse, "492039", seconds(181))).toBe(true);
  });

  it("is per person and per code", async () => {
    const [first, second] = [await staffMember(), await staffMember()];
    expect(await claimTotpCode(database.db, first, "111222", AT)).toBe(true);
    expect(await claimTotpCode(database.db, second, "111222", AT)).toBe(true);
    expect(await claimTotpCode(database.db, first, "333444", AT)).toBe(true);
  });

  it("keeps a hash of the code, not the code", async () => {
    const nurse = await staffMember();
    await claimTotpCode(database.db, nurse, "705518", AT);
    const rows = await database.db
      .select()
      .from(usedTotpCode)
      .where(eq(usedTotpCode.userId, nurse));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).toBe(crypto.createHash("sha256").update("705518").digest("hex"));
    expect(JSON.stringify(rows)).not.toContain("705518");
  });
});

// PGlite has one connection, so there the eight calls take turns and cannot race; on PostgreSQL
// (CI runs this file there too) they run at once on their own connections.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "one code at the same time (PostgreSQL only)",
  () => {
    it("lets exactly one of several requests with one code win", async () => {
      const nurse = await staffMember();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => claimTotpCode(database.db, nurse, "864201", AT)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  },
);
