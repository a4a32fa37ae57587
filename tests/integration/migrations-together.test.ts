import { readdirSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server";
import { createScratchDatabase } from "#tests/support/postgres";

/**
 * Instances started together on a new database (the first deployment of several, or a scaled-up
 * group) each migrate at start-up. Without MIGRATION_DATABASE_URL they did so side by side, and
 * all but one failed creating tables the other had just made ("CREATE SCHEMA", "CREATE TABLE").
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("migrating (PostgreSQL only)", () => {
  it("lets three instances started at once on an empty database all migrate it", async () => {
    const scratch = await createScratchDatabase("mhat_migrate");
    const instances = [1, 2, 3].map(() => openDatabase({ url: scratch.url }));
    try {
      const outcomes = await Promise.allSettled(instances.map((instance) => instance.migrate()));
      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        "fulfilled",
        "fulfilled",
        "fulfilled",
      ]);
      // Each migration once: every file in drizzle/, recorded a single time.
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      const { rows } = await client.query<{ applied: number }>(
        "select count(*)::int as applied from drizzle.__drizzle_migrations",
      );
      await client.end();
      const files = readdirSync("drizzle").filter((name) => name.endsWith(".sql"));
      expect(rows[0]!.applied).toBe(files.length);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await scratch.drop();
    }
  });
});
