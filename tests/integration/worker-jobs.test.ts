import { describe, expect, it } from "vitest";
import {
  startBookingWorker,
  WORKER_JOBS,
  type WorkerJob,
} from "#app/services/booking/reconcile.server";
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
