import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { SetupError, type Config } from "#app/config.server";
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
  | {
      url: string;
      /**
       * The tables' owner, for migrations. When given, the role in `url` is then granted only what
       * the running site needs (see grantSitePrivileges); without it, `url` migrates as well.
       */
      migrationUrl?: string;
    }
  | { pgliteDir: string }
  /** An in-memory PGlite, for tests. */
  | { memory: true };

/** The database the settings name: Postgres (with its owner for migrations, if given) or PGlite. */
export function openConfiguredDatabase(
  settings: Pick<Config, "DATABASE_URL" | "MIGRATION_DATABASE_URL" | "PGLITE_DIR">,
): Database {
  return openDatabase(
    settings.DATABASE_URL
      ? { url: settings.DATABASE_URL, migrationUrl: settings.MIGRATION_DATABASE_URL }
      : { pgliteDir: settings.PGLITE_DIR },
  );
}

/**
 * Each instance opens at most 10 connections to a Postgres server: 8 for every request, and 2
 * kept for the booking lines (`onOneConnection`, `aheadOfTheQueue`), which would otherwise queue
 * for one behind a crowd of requests.
 */
const POOLED_CONNECTIONS = 8;
export const RESERVED_CONNECTIONS = 2;

/** The connections kept apart from each pool (`onOneConnection`). */
const reservedPools = new WeakMap<pg.Pool, pg.Pool>();

function newPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // An idle connection can die (a database restart, a dropped test database). node-postgres
  // re-emits that on the pool, and an unhandled 'error' event would end the process.
  pool.on("error", (error) => log.warn({ err: error }, "postgres: idle connection lost"));
  // A connection lent out but between queries (a transaction waiting on PayPal or on SMTP) has
  // no listener of the pool's: its loss would end the process. The transaction's next query
  // fails instead, and the transaction is rolled back by the server.
  pool.on("connect", (client) =>
    client.on("error", (error) =>
      log.warn({ err: error, code: "postgres_connection_lost" }, "postgres: connection lost"),
    ),
  );
  return pool;
}

export function openDatabase(options: DatabaseOptions): Database {
  if ("url" in options) {
    const { migrationUrl } = options;
    // A request waits at most 5 s for a connection, so an unreachable server means a prompt 503.
    const pool = newPool(options.url, POOLED_CONNECTIONS);
    // Kept apart for the booking lines (`onOneConnection`): opened when one needs it.
    const reserved = newPool(options.url, RESERVED_CONNECTIONS);
    reservedPools.set(pool, reserved);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      driver: "postgres",
      migrate: migrationUrl ? () => migrateAsOwner(migrationUrl, pool) : () => migrateInTurn(pool),
      ping: async () => void (await pool.query("select 1")),
      close: async () => {
        await Promise.all([pool.end(), reserved.end()]);
      },
    };
  }
  let client: PGlite;
  let unlock = () => {};
  if ("pgliteDir" in options) {
    unlock = lockEmbeddedDatabase(options.pgliteDir);
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
    close: async () => {
      await client.close();
      unlock();
    },
  };
}

/** Lock files this process holds, so that it too cannot open one folder twice. */
const heldLocks = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The embedded database's files can be opened by one process only: a second one (the site and
 * `npm run create-admin`, say) works on its own copy in memory, and what it writes is lost or
 * damages the first's. PGlite does not lock its folder, so a file beside it names the process
 * holding it; one left by a process that has gone is taken over. Returns the release.
 */
export function lockEmbeddedDatabase(dir: string): () => void {
  const lockFile = `${path.resolve(dir)}.lock`;
  mkdirSync(path.dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, `${process.pid}\n`, { flag: "wx" });
      heldLocks.add(lockFile);
      return () => {
        heldLocks.delete(lockFile);
        try {
          if (readFileSync(lockFile, "utf8").trim() === String(process.pid)) unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number.parseInt(readFileSync(lockFile, "utf8"), 10);
    // An empty file is one being written this instant: in use. Our own pid without our own lock
    // is a file left by an earlier run that had the same pid (pid 1 in a container).
    const inUse =
      Number.isNaN(holder) ||
      heldLocks.has(lockFile) ||
      (holder !== process.pid && isRunning(holder));
    if (inUse)
      throw new SetupError(
        `The embedded database in ${dir} is in use by another process (${Number.isNaN(holder) ? "starting" : `pid ${holder}`}): stop the site first, or use DATABASE_URL. If no such process runs, delete ${lockFile}.`,
      );
    unlinkSync(lockFile);
  }
  throw new SetupError(`The embedded database in ${dir} could not be locked (${lockFile}).`);
}

/** Held while one instance migrates and grants, so instances starting together take turns. */
const MIGRATION_LOCK = 0x4d484154_4d49; // "MHATMI"

/**
 * Migrates on one of the pool's connections, holding the migration lock: instances started
 * together on a new database would otherwise each create the tables, and all but one fail.
 */
async function migrateInTurn(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client, { schema }) as never, { migrationsFolder });
    await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    client.release();
  } catch (error) {
    // Closed rather than given back: the session, and the lock with it, ends.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

/**
 * Migrates as the owner, then gives the site's own role (the pool's) exactly what it needs. The
 * owner's session holds an advisory lock throughout: two GRANTs on one table at once can fail
 * ("tuple concurrently updated"), and two migrations at once would both try to create tables.
 */
async function migrateAsOwner(ownerUrl: string, sitePool: pg.Pool) {
  const { rows } = await sitePool.query<{ role: string }>("select current_user as role");
  const siteRole = rows[0]!.role;
  const owner = new pg.Client({ connectionString: ownerUrl, connectionTimeoutMillis: 5000 });
  await owner.connect();
  try {
    await owner.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(drizzlePg(owner, { schema }) as never, { migrationsFolder });
    await grantSitePrivileges(owner, siteRole);
  } finally {
    // Ending the session releases the lock.
    await owner.end();
  }
}

/**
 * The site reads and writes rows and nothing more: no TRUNCATE, no ALTER (only an owner can turn a
 * trigger off). Tables guarded by the append-only trigger (the audit log, earlier versions of
 * results) it may only add to and read. Run after every migration, so new tables are covered,
 * in one transaction, so a running instance never sees the privileges half-changed.
 */
async function grantSitePrivileges(owner: pg.Client, siteRole: string) {
  const { rows: me } = await owner.query<{ role: string }>("select current_user as role");
  if (me[0]!.role === siteRole) {
    log.warn(
      "MIGRATION_DATABASE_URL and DATABASE_URL name the same role: the audit log is protected only by its trigger",
    );
    return;
  }
  const role = owner.escapeIdentifier(siteRole);
  const { rows: appendOnly } = await owner.query<{ name: string }>(
    `select distinct c.relname as name
       from pg_trigger t
       join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_proc p on p.oid = t.tgfoid
      where n.nspname = 'public' and p.proname = 'audit_log_refuse_change' and not t.tgisinternal
      order by 1`,
  );
  await owner.query("begin");
  try {
    await owner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${role}`);
    await owner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${role}`);
    await owner.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
    await owner.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`,
    );
    await owner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
    for (const { name } of appendOnly) {
      await owner.query(
        `REVOKE UPDATE, DELETE ON TABLE public.${owner.escapeIdentifier(name)} FROM ${role}`,
      );
    }
    await owner.query("commit");
  } catch (error) {
    await owner.query("rollback");
    throw error;
  }
  // The owner itself, a superuser or a member of the owner's role keeps every right regardless.
  const { rows } = await owner.query<{ unprotected: boolean }>(
    "select has_table_privilege($1, 'public.audit_log', 'UPDATE') as unprotected",
    [siteRole],
  );
  if (rows[0]?.unprotected) {
    log.warn(
      { role: siteRole },
      "DATABASE_URL's role can still change the audit log (it owns the tables, is a superuser or is a member of the owner's role): give the site a role of its own",
    );
  } else {
    log.info(
      { role: siteRole, appendOnly: appendOnly.map((row) => row.name) },
      "database privileges granted",
    );
  }
}

/**
 * Whether `db` works on a Postgres server (a pool of connections, perhaps beside other instances)
 * rather than the embedded database (one connection, one process).
 */
export function onPostgresServer(db: Db): boolean {
  return (db as { $client?: unknown }).$client instanceof pg.Pool;
}

/** The Db over each pool of kept connections (`aheadOfTheQueue`). */
const reservedDbs = new WeakMap<pg.Pool, Db>();

/**
 * A Db over the connections kept apart from `db`'s pool, for a few short statements that should
 * not wait behind a crowd's (a booking line's reads); `db` itself where there are none (the
 * embedded database, the tests' own pools). Never for a transaction or a long read: at most one
 * of the two is ever held for long (by a line's turns, `onOneConnection`).
 */
export function aheadOfTheQueue(db: Db): Db {
  const pool = (db as { $client?: unknown }).$client;
  const reserved = pool instanceof pg.Pool ? reservedPools.get(pool) : undefined;
  if (!reserved) return db;
  let reservedDb = reservedDbs.get(reserved);
  if (!reservedDb) {
    reservedDb = drizzlePg(reserved, { schema }) as unknown as Db;
    reservedDbs.set(reserved, reservedDb);
  }
  return reservedDb;
}

/** The Db over each pooled connection lent by `onOneConnection`, made once per connection. */
const connectionDbs = new WeakMap<pg.PoolClient, Db>();

/**
 * Runs `task` with a Db over one connection, kept for it until it settles: its queries and
 * transactions then go straight to that connection instead of queueing for one, behind every
 * other request's, each time. The connection is one of those kept apart from `db`'s pool
 * (RESERVED_CONNECTIONS; so the task does not wait behind a crowd for it either), or of the pool
 * itself for a database opened without them (the tests' own pools). On the embedded database,
 * whose one connection everything shares anyway, `task` gets `db` itself. A task that fails gives
 * its connection up (closed, not returned), in case the failure was the connection's.
 */
export async function onOneConnection<T>(db: Db, task: (db: Db) => Promise<T>): Promise<T> {
  const pool = (db as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return task(db);
  const client = await (reservedPools.get(pool) ?? pool).connect();
  let connectionDb = connectionDbs.get(client);
  if (!connectionDb) {
    connectionDb = drizzlePg(client, { schema }) as unknown as Db;
    connectionDbs.set(client, connectionDb);
  }
  try {
    const result = await task(connectionDb);
    client.release();
    return result;
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
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
