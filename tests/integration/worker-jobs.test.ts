import { describe, expect, it } from "vitest";
import {
  startBookingWorker,
  WORKER_JOBS,
  type WorkerJob,
} from "#app/services/booking/reconcile.server";
import { authRateLimit, rateLimitHit } from "#app/db/schema";
import { hitRateLimit, pruneRateLimits } from "#app/services/rate-limit.server";
import { testDatabaseForThisFile } from "#tests/support/database";

const database = testDatabaseForThisFile();

describe("the booking worker's jobs", () => {
  it("runs every job in turn on each pass, and a job that fails does not stop the next", async () => {
    const ran: string[] = [];
    const jobs: WorkerJob[] = [
      {
        code: "first",
        async run() {
          ran.push("first");
          throw new Error("this job failed");
        },
      },
      {
        code: "second",
        async run(_db, now) {
          ran.push(`second ${now instanceof Date}`);
          return { done: 1 };
        },
      },
    ];
    const worker = startBookingWorker({ db: database.db, intervalMs: 3_600_000, jobs });
    try {
      await worker.runOnce();
      await worker.runOnce();
    } finally {
      await worker.stop();
    }
    expect(ran).toEqual(["first", "second true", "first", "second true"]);
  });

  it("has a job for each kind of work, each with its own log code", () => {
    const codes = WORKER_JOBS.map((job) => job.code);
    expect(codes).toContain("refunds_retried");
    expect(codes).toContain("reminders_sent");
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe("pruning the limits' counters", () => {
  const NOW = new Date("2026-06-01T09:00:00Z");
  const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000);
  const keys = async () =>
    (await database.db.select({ key: rateLimitHit.key }).from(rateLimitHit))
      .map((row) => row.key)
      .filter((key) => key.startsWith("prune-test:"))
      .sort();

  it("deletes the counters whose window began over a day ago, and keeps the rest counting", async () => {
    await database.db.insert(rateLimitHit).values([
      { key: "prune-test:old", windowStart: hoursAgo(25), hits: 3 },
      { key: "prune-test:hour", windowStart: hoursAgo(0), hits: 9 },
    ]);
    // Counted again today: its window moves on, so it stays.
    await database.db
      .insert(rateLimitHit)
      .values({ key: "prune-test:back", windowStart: hoursAgo(30), hits: 5 });
    await hitRateLimit(database.db, "prune-test:back", 10, 15 * 60_000, NOW);

    // better-auth's own counters: the last request's time in milliseconds.
    await database.db.insert(authRateLimit).values([
      {
        id: crypto.randomUUID(),
        key: "prune-test:auth-old",
        count: 4,
        lastRequest: hoursAgo(25).getTime(),
      },
      { id: crypto.randomUUID(), key: "prune-test:auth-now", count: 1, lastRequest: NOW.getTime() },
    ]);

    const job = WORKER_JOBS.find((candidate) => candidate.code === "rate_limits_pruned")!;
    expect(await job.run(database.db, NOW)).toEqual({ pruned: 2 });
    expect(
      (await database.db.select({ key: authRateLimit.key }).from(authRateLimit))
        .map((row) => row.key)
        .filter((key) => key.startsWith("prune-test:")),
    ).toEqual(["prune-test:auth-now"]);
    expect(await keys()).toEqual(["prune-test:back", "prune-test:hour"]);
    // The counter of this hour still limits: its nine hits are there.
    expect((await hitRateLimit(database.db, "prune-test:hour", 10, 60 * 60_000, NOW)).hits).toBe(
      10,
    );
    expect(await job.run(database.db, NOW)).toEqual({ pruned: 0 });
  });

  it("deletes a backlog a few counters at a time, every one of them", async () => {
    await database.db.insert(rateLimitHit).values([
      ...Array.from({ length: 7 }, (_, n) => ({
        key: `prune-batch:backlog-${n}`,
        windowStart: hoursAgo(48 + n),
        hits: 1,
      })),
      { key: "prune-batch:today", windowStart: hoursAgo(1), hits: 1 },
    ]);
    await database.db.insert(authRateLimit).values(
      Array.from({ length: 5 }, (_, n) => ({
        id: crypto.randomUUID(),
        key: `prune-batch:auth-backlog-${n}`,
        count: 1,
        lastRequest: hoursAgo(30 + n).getTime(),
      })),
    );
    // Three a statement: 7 + 5 old counters in all, however the batches fall.
    expect(await pruneRateLimits(database.db, NOW, 3)).toEqual({ pruned: 12 });
    const left = async (table: typeof rateLimitHit | typeof authRateLimit) =>
      (await database.db.select({ key: table.key }).from(table))
        .map((row) => row.key)
        .filter((key) => key.startsWith("prune-batch:"));
    expect(await left(rateLimitHit)).toEqual(["prune-batch:today"]);
    expect(await left(authRateLimit)).toEqual([]);
  });

  it("refuses a limit counted over more than a day, which pruning would cut short", async () => {
    await expect(
      hitRateLimit(database.db, "prune-test:long", 1, 2 * 24 * 3_600_000, NOW),
    ).rejects.toThrow(RangeError);
  });
});
