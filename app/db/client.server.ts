import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { log } from "#app/services/log.server";
import * as schema from "./schema";

/** Both drivers give the same query builder; services only ever see this type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** Applies every migration in drizzle/ that has not run yet. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(process.cwd(), "drizzle");

export type DatabaseOptions =
  | { url: string }
  | { pgliteDir: string }
  /** An in-memory PGlite, for tests. */
  | { memory: true };

export function openDatabase(options: DatabaseOptions): Database {
  if ("url" in options) {
    // A request waits at most 5 s for a connection, so an unreachable server means a prompt 503.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      connectionTimeoutMillis: 5000,
    });
    // An idle connection can die (a database restart, a dropped test database). node-postgres
    // re-emits that on the pool, and an unhandled 'error' event would end the process.
    pool.on("error", (error) => log.warn({ err: error }, "postgres: idle connection lost"));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      driver: "postgres",
      migrate: () => migratePg(db as never, { migrationsFolder }),
      ping: async () => void (await pool.query("select 1")),
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if ("pgliteDir" in options) {
    mkdirSync(options.pgliteDir, { recursive: true });
    client = new PGlite(options.pgliteDir);
  } else {
    client = new PGlite();
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    driver: "pglite",
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}

let current: Database | undefined;

/** The process-wide database, opened by the server at start-up. */
export function database(): Database {
  if (!current) throw new Error("The database has not been opened yet");
  return current;
}

export function db(): Db {
  return database().db;
}

export function setDatabase(value: Database | undefined) {
  current = value;
}
