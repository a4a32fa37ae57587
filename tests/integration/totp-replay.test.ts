import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usedTotpCode, user } from "#app/db/schema";
import { claimTotpCode } from "#app/services/two-factor.server";
import { openTestDatabase } from "#tests/support/database";

let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function staffMember() {
  const id = crypto.randomUUID();
  await database.db
    .insert(user)
    .values({ id, name: "Nurse", email: `${id}@example.org`, emailVerified: true });
  return id;
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

  // On PostgreSQL (CI runs this file there too) the eight run at once on their own connections;
  // PGlite has one connection, so there they take turns.
  it("lets exactly one of several requests with one code win", async () => {
    const nurse = await staffMember();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => claimTotpCode(database.db, nurse, "864201", AT)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
