import { readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, setDatabase, type Database, type Db } from "#app/db/client.server";
import * as schema from "#app/db/schema";
import { loadServerSecret } from "#app/services/secrets.server";
import { createScratchDatabase } from "./postgres";

export type TestDatabase = Database & { kind: "pglite" | "postgres" };

/** The server secret of every integration test database (sessions, TOTP keys, access codes). */
export const TEST_SERVER_SECRET = "test-secret-test-secret-test-secret-0000";

/**
 * A migrated database to copy: made once per run by tests/integration/global-setup.ts. On
 * Postgres (TEST_DATABASE_URL set) a template database; otherwise the data directory of a
 * migrated in-memory PGlite, as a tar file.
 */
export async function migratedTemplate() {
  if (process.env.TEST_DATABASE_URL) {
    const template = await createScratchDatabase("mhat_template");
    const database = openDatabase({ url: template.url });
    await database.migrate();
    await database.close();
    // CREATE DATABASE … TEMPLATE refuses a template that anyone is still connected to.
    await template.settle();
    return { kind: "postgres" as const, name: template.name, drop: template.drop };
  }
  const client = new PGlite();
  await migrate(drizzle(client), { migrationsFolder: path.resolve("drizzle") });
  const dump = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
  await client.close();
  return { kind: "pglite" as const, dump };
}

/** An in-memory PGlite started from a data directory dumped by migratedTemplate(). */
function pgliteCopy(dumpFile: string): Database {
  const client = new PGlite({ loadDataDir: new Blob([readFileSync(dumpFile)]) });
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    driver: "pglite",
    migrate: async () => {
      await migrate(db as never, { migrationsFolder: path.resolve("drizzle") });
    },
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}

/**
 * A migrated, empty scratch database on the Postgres server (TEST_DATABASE_URL), for a test that
 * connects to it its own way (a larger pool, another role): a copy of the run's template when the
 * integration project's global set-up made one, migrated here otherwise. Drop it afterwards.
 */
export async function migratedScratchDatabase(prefix = "mhat_test") {
  const template = inject("testDatabaseTemplate");
  const postgresTemplate =
    template && "postgresTemplate" in template ? template.postgresTemplate : undefined;
  const scratch = await createScratchDatabase(prefix, postgresTemplate);
  if (!postgresTemplate) {
    const migrating = openDatabase({ url: scratch.url });
    await migrating.migrate();
    await migrating.close();
  }
  return scratch;
}

/**
 * A migrated, empty database of this test file's own: in-memory PGlite by default, or a scratch
 * database on the Postgres server when TEST_DATABASE_URL is set. Copied from the run's template
 * when the integration project's global set-up made one; migrated here otherwise.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const template = inject("testDatabaseTemplate");
  let database: TestDatabase;
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await migratedScratchDatabase();
    const opened = openDatabase({ url: scratch.url });
    database = {
      ...opened,
      kind: "postgres",
      async close() {
        await opened.close();
        await scratch.drop();
      },
    };
  } else if (template && "pgliteDump" in template) {
    database = { ...pgliteCopy(template.pgliteDump), kind: "pglite" };
  } else {
    const opened = openDatabase({ memory: true });
    await opened.migrate();
    database = { ...opened, kind: "pglite" };
  }
  await loadServerSecret(database.db, TEST_SERVER_SECRET);
  return database;
}

/**
 * This test file's own database, opened before its tests and closed after them. `database.db`
 * and `database.kind` read the open one. With `processWide`, it is also the database that code
 * reading the process's database (route loaders and actions) uses.
 */
export function testDatabaseForThisFile(options: { processWide?: boolean } = {}) {
  let opened: TestDatabase | undefined;
  beforeAll(async () => {
    opened = await openTestDatabase();
    if (options.processWide) setDatabase(opened);
  });
  afterAll(async () => {
    if (options.processWide) setDatabase(undefined);
    await opened?.close();
  });
  const current = () => {
    if (!opened) throw new Error("The test database opens in beforeAll: use it inside tests");
    return opened;
  };
  return {
    get db(): Db {
      return current().db;
    },
    get kind() {
      return current().kind;
    },
  };
}

/**
 * For the races on real PostgreSQL: this test file's own scratch database (a copy of the run's
 * migrated template), reached through a pool of `poolSize` connections so that that many
 * transactions really run side by side, with the server's secret loaded as start-up does. Opened
 * before the file's tests, dropped after them. Keep the pools of two files running at once under
 * the server's max_connections (100).
 */
export function racingPostgresForThisFile(poolSize: number): () => Db {
  let scratch: Awaited<ReturnType<typeof migratedScratchDatabase>> | undefined;
  let pool: pg.Pool | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    scratch = await migratedScratchDatabase();
    pool = new pg.Pool({ connectionString: scratch.url, max: poolSize });
    // An idle connection that the server drops must not end the test run as an uncaught error.
    pool.on("error", () => {});
    db = drizzlePostgres(pool, { schema }) as unknown as Db;
    await loadServerSecret(db, TEST_SERVER_SECRET);
  });
  afterAll(async () => {
    await pool?.end();
    await scratch?.drop();
  });
  return () => {
    if (!db) throw new Error("The racing database opens in beforeAll: use it inside tests");
    return db;
  };
}
