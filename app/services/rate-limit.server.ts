import { and, eq, inArray, like, lt, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type { Db } from "#app/db/client.server";
import { noteDatabaseError } from "#app/db/health.server";
import { authRateLimit, rateLimitHit } from "#app/db/schema";
import { log } from "./log.server";

export interface RateLimitResult {
  allowed: boolean;
  hits: number;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
}

/**
 * No limit counts over a longer window than this, so a counter whose window began longer ago than
 * this is over, whatever its limit, and `pruneRateLimits` may delete it.
 */
export const LONGEST_RATE_LIMIT_WINDOW_MS = 24 * 60 * 60_000;

function windowStartOf(windowMs: number, now: Date): Date {
  if (windowMs > LONGEST_RATE_LIMIT_WINDOW_MS)
    throw new RangeError(`A rate limit's window is longer than a day (${windowMs} ms)`);
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
}

/**
 * Counts one attempt against `key` in a fixed window and says whether it is within `limit`.
 * One atomic upsert, so concurrent requests on any instance are all counted.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  now = new Date(),
): Promise<RateLimitResult> {
  const windowStart = windowStartOf(windowMs, now);
  const [row] = await db
    .insert(rateLimitHit)
    .values({ key, windowStart, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitHit.key,
      set: {
        hits: sql`CASE WHEN ${rateLimitHit.windowStart} = excluded.window_start THEN ${rateLimitHit.hits} + 1 ELSE 1 END`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({ hits: rateLimitHit.hits });
  const hits = row!.hits;
  return {
    allowed: hits <= limit,
    hits,
    retryAfterSeconds: Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000),
  };
}

/** How many hits `key` has in the current window, and when it ends, without counting one. */
export async function peekRateLimit(
  db: Db,
  key: string,
  windowMs: number,
  now = new Date(),
): Promise<{ hits: number; retryAfterSeconds: number }> {
  const windowStart = windowStartOf(windowMs, now);
  const [row] = await db
    .select({ hits: rateLimitHit.hits })
    .from(rateLimitHit)
    .where(and(eq(rateLimitHit.key, key), eq(rateLimitHit.windowStart, windowStart)));
  return {
    hits: row?.hits ?? 0,
    retryAfterSeconds: Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000),
  };
}

/** Forgets the counts of `key` and of every key under it (`key:…`): a limit its owner has lifted. */
export async function forgetRateLimits(db: Db, key: string): Promise<void> {
  const under = `${key.replace(/[\\%_]/g, "\\$&")}:%`;
  await db.delete(rateLimitHit).where(or(eq(rateLimitHit.key, key), like(rateLimitHit.key, under)));
}

/**
 * `hitRateLimit`'s count for the request limits, which every POST makes: as one statement, its own
 * transaction, whose commit does not wait for the disk (synchronous_commit off, for that
 * transaction only). A crash of the database server may forget the last moment's counts, nothing
 * more; waiting for the disk made every POST wait for a flush of the log. Never call it inside
 * another transaction: the setting would then hold for that transaction's own commit.
 */
async function countRequest(db: Db, key: string, windowMs: number, now: Date): Promise<number> {
  const windowStart = windowStartOf(windowMs, now);
  // Both drivers answer with the rows in `rows`.
  const { rows } = (await db.execute(sql`
    insert into ${rateLimitHit} (key, window_start, hits)
    select ${key}, ${windowStart.toISOString()}::timestamptz, 1
      from (select set_config('synchronous_commit', 'off', true)) as unflushed
    on conflict (key) do update set
      hits = case when ${rateLimitHit.windowStart} = excluded.window_start
        then ${rateLimitHit.hits} + 1 else 1 end,
      window_start = excluded.window_start
    returning hits`)) as unknown as { rows: { hits: number }[] };
  return Number(rows[0]!.hits);
}

/**
 * express-rate-limit's store on `rate_limit_hit`, so that the limits on every request (per
 * address, per window) are counted once for all the instances on one database, not once per
 * instance. Its keys are `prefix` + the limiter's key (the client's address), apart from the
 * services' own keys by the prefix. A database error lets the request through: the limiter is not
 * where an outage is answered (the database gate answers 503), and a refusal there would be a
 * plain-text 500 from Express.
 */
export class DatabaseRateLimitStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;

  constructor(
    readonly prefix: string,
    private readonly database: () => Db,
  ) {}

  init(options: Options) {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const now = new Date();
    const { hits } = await peekRateLimit(this.database(), this.prefix + key, this.windowMs, now);
    return hits > 0 ? { totalHits: hits, resetTime: this.resetTime(now) } : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const now = new Date();
    try {
      const hits = await countRequest(this.database(), this.prefix + key, this.windowMs, now);
      return { totalHits: hits, resetTime: this.resetTime(now) };
    } catch (error) {
      if (!noteDatabaseError(error))
        log.error({ err: error, code: "rate_limit_store_failed" }, "rate limit: not counted");
      return { totalHits: 1, resetTime: this.resetTime(now) };
    }
  }

  async decrement(key: string) {
    const windowStart = windowStartOf(this.windowMs, new Date());
    await this.database()
      .update(rateLimitHit)
      .set({ hits: sql`greatest(${rateLimitHit.hits} - 1, 0)` })
      .where(
        and(eq(rateLimitHit.key, this.prefix + key), eq(rateLimitHit.windowStart, windowStart)),
      );
  }

  async resetKey(key: string) {
    await this.database()
      .delete(rateLimitHit)
      .where(eq(rateLimitHit.key, this.prefix + key));
  }

  private resetTime(now: Date) {
    return new Date(windowStartOf(this.windowMs, now).getTime() + this.windowMs);
  }
}

/** Counters deleted a statement: a backlog goes in short statements, not one long one. */
const PRUNE_BATCH = 5000;

/**
 * Deletes the counters whose window is over for any limit, ours and better-auth's (its window is
 * a minute, app/services/auth.server.ts): one row would stay per client address, account or
 * recipient ever counted otherwise. A counter counted again meanwhile has moved on, and the
 * delete, which checks each row again once it may, leaves it.
 */
export async function pruneRateLimits(
  db: Db,
  now = new Date(),
  batch = PRUNE_BATCH,
): Promise<{ pruned: number }> {
  const over = new Date(now.getTime() - LONGEST_RATE_LIMIT_WINDOW_MS);
  const ours = await deleteInBatches(
    db,
    rateLimitHit,
    rateLimitHit.key,
    lt(rateLimitHit.windowStart, over),
    batch,
  );
  const betterAuths = await deleteInBatches(
    db,
    authRateLimit,
    authRateLimit.id,
    lt(authRateLimit.lastRequest, over.getTime()),
    batch,
  );
  return { pruned: ours + betterAuths };
}

/**
 * Deletes the rows of `table` that `where` picks, at most `batch` a statement (picked by their
 * primary key `id`), until a statement deletes fewer; how many it deleted in all.
 */
async function deleteInBatches(
  db: Db,
  table: PgTable,
  id: PgColumn,
  where: SQL,
  batch: number,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db
      .delete(table)
      .where(and(where, inArray(id, db.select({ id }).from(table).where(where).limit(batch))))
      .returning({ id });
    deleted += rows.length;
    if (rows.length < batch) return deleted;
  }
}
