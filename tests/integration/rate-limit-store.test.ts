import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseRateLimitStore } from "#app/services/rate-limit.server";
import { rateLimits } from "#server/security";
import { testDatabaseForThisFile } from "#tests/support/database";

/**
 * The request limits (server/security.ts) count in the database, so that two instances of the
 * site on one database share them: here two Express apps, as two instances would be, each with
 * its own limiters and stores, on one database.
 */
const database = testDatabaseForThisFile();

const FORMS_PER_WINDOW = 4;
const POSTS_PER_WINDOW = 6;

async function instance() {
  const app = express();
  // The client's address from X-Forwarded-For, as with TRUST_PROXY, so each test is its own client.
  app.set("trust proxy", "loopback");
  app.use(
    ...rateLimits({
      formsPerWindow: FORMS_PER_WINDOW,
      postsPerWindow: POSTS_PER_WINDOW,
      store: (prefix) => new DatabaseRateLimitStore(prefix, () => database.db),
    }),
  );
  app.all("/{*path}", (_req, res) => res.send("ok"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let a: Awaited<ReturnType<typeof instance>>;
let b: Awaited<ReturnType<typeof instance>>;
beforeAll(async () => {
  a = await instance();
  b = await instance();
});
afterAll(async () => {
  await a.close();
  await b.close();
});

/** A post from `client`, as a proxy in front would name it. */
const post = (base: string, path: string, client: string) =>
  fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": client },
    body: "a=1",
  });

/** The windows are fixed (from the minute); a test starts clear of a window's end. */
async function clearOfWindowEnd() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 3000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

describe("the request limits on two instances", () => {
  it("refuses the public-form post on B once A and B together have taken the limit", async () => {
    const statuses: number[] = [];
    // Alternately, so that neither instance alone reaches the limit.
    await clearOfWindowEnd();
    for (let n = 0; n < FORMS_PER_WINDOW; n++)
      statuses.push((await post(n % 2 ? b.url : a.url, "/news", "192.0.2.1")).status);
    expect(statuses).toEqual(Array(FORMS_PER_WINDOW).fill(200));
    const refused = await post(b.url, "/news", "192.0.2.1");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit")).toContain("public-forms");
    expect((await post(a.url, "/news", "192.0.2.1")).status).toBe(429);
    // Another address has its own count.
    expect((await post(a.url, "/news", "192.0.2.9")).status).toBe(200);
  });

  it("counts every one of many posts at once on both", async () => {
    await clearOfWindowEnd();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => post(n % 2 ? b.url : a.url, "/other", "192.0.2.2")),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(POSTS_PER_WINDOW);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - POSTS_PER_WINDOW);
  });

  it("leaves the connection's commits waiting for the disk as before (its own count's does not)", async () => {
    await post(a.url, "/other", "192.0.2.3");
    // On PGlite the one connection the count just used; on Postgres, one of the pool's.
    const { rows } = (await database.db.execute(
      sql`select current_setting('synchronous_commit') as setting`,
    )) as unknown as { rows: { setting: string }[] };
    expect(rows[0]!.setting).toBe("on");
  });
});
