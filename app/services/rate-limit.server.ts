import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { rateLimitHit } from "#app/db/schema";

export interface RateLimitResult {
  allowed: boolean;
  hits: number;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
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
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
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
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .select({ hits: rateLimitHit.hits })
    .from(rateLimitHit)
    .where(and(eq(rateLimitHit.key, key), eq(rateLimitHit.windowStart, windowStart)));
  return {
    hits: row?.hits ?? 0,
    retryAfterSeconds: Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000),
  };
}
