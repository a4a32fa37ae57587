import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_DATABASE_URL, createScratchDatabase } from "#tests/support/postgres";
import { startBuiltServer } from "#tests/support/server";
import { startTcpProxy } from "#tests/support/tcp-proxy";

/**
 * The database goes away while the site runs: pages and the API answer 503 with a friendly page
 * (not 500), and the site recovers by itself when the database is back. The server reaches
 * Postgres through a proxy the test can cut.
 */
let server: Awaited<ReturnType<typeof startBuiltServer>>;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;

beforeAll(async () => {
  scratch = await createScratchDatabase("mhat_outage");
  const admin = new URL(ADMIN_DATABASE_URL);
  proxy = await startTcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
  const viaProxy = new URL(scratch.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  server = await startBuiltServer({ DATABASE_URL: viaProxy.toString(), DEMO_DATA: "1" });
});

afterAll(async () => {
  await server?.stop();
  await proxy?.close();
  await scratch?.drop();
});

describe("a database outage", () => {
  it("gives 503 on pages and the API while it lasts, and the site comes back afterwards", async () => {
    expect((await fetch(`${server.url}/book-event-main`)).status).toBe(200);
    const kept = await fetch(`${server.url}/about-us`);
    expect(kept.headers.get("cache-control")).toMatch(/^public/);

    await proxy.cut();
    // A page the server keeps for every visitor needs no database: it stays up.
    expect((await fetch(`${server.url}/about-us`)).status).toBe(200);
    // A search nobody has made yet needs the database.
    const page = await fetch(`${server.url}/book-event-main?location=Outage`);
    expect(page.status).toBe(503);
    const text = await page.text();
    expect(text).toMatch(/not available just now|something went wrong/i);
    expect(text).not.toMatch(/ECONNREFUSED|at .*\.js:\d+/);

    const api = await fetch(`${server.url}/api/events?location=Outage`);
    expect(api.status).toBe(503);
    expect(await api.json()).toHaveProperty("error");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(503);
    // Static files do not need the database.
    expect((await fetch(`${server.url}/favicon.svg`)).status).toBe(200);

    await proxy.restore();
    await expect
      .poll(async () => (await fetch(`${server.url}/book-event-main`)).status, {
        timeout: 15_000,
        interval: 500,
      })
      .toBe(200);
    expect((await fetch(`${server.url}/api/events`)).status).toBe(200);
  });
});
