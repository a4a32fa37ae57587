import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startBuiltServer } from "#tests/support/server";

/**
 * Finding 9 of issue 14, the settings: `LOG_LEVEL=verbose` crashed inside pino with a stack trace,
 * `TRUST_PROXY=true` crashed and `TRUST_PROXY=1` (the example in .env.example) trusted nothing.
 * Every configuration problem is now one line naming the setting, and exit code 1.
 */

const folders: string[] = [];
function embeddedDatabase() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-config-"));
  folders.push(dir);
  return { PGLITE_DIR: dir, DATABASE_URL: "", DEMO_DATA: "0", NODE_ENV: "development" };
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Runs the built server with these settings until it exits by itself. */
function runServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["server/index.js"], {
      env: { ...process.env, ...embeddedDatabase(), PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.resume();
    // A server that starts instead of refusing would run for ever: stop it, and the test fails.
    const guard = setTimeout(() => child.kill("SIGKILL"), 45_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(guard);
      resolve({ code, stderr });
    });
  });
}

describe("a bad setting stops start-up with one clear line (finding 9: LOG_LEVEL=verbose crashed in pino)", () => {
  it.each([
    ["LOG_LEVEL", "verbose"],
    ["TRUST_PROXY", "sometimes"],
    ["TRUST_PROXY", "10.0.0.0/99"],
    ["PORT", "eighty"],
    ["HOST", "not a host!"],
    ["HOLD_MINUTES", "0"],
    ["DATABASE_URL", "mysql://root@127.0.0.1/mhat"],
    ["MIGRATION_DATABASE_URL", "postgres://owner@127.0.0.1/mhat"],
    ["APP_URL", "www.example.org"],
    ["PAYPAL_ENV", "live"],
  ])("%s=%s: exit code 1 and one line naming it, without a stack", async (name, value) => {
    const { code, stderr } = await runServer({ [name]: value });
    const lines = stderr.trim().split("\n");
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Configuration: ${name} `));
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(code).toBe(1);
  });

  it("names every bad setting, one line each", async () => {
    const { code, stderr } = await runServer({ LOG_LEVEL: "verbose", PORT: "eighty" });
    const lines = stderr.trim().split("\n").sort();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Configuration: LOG_LEVEL /);
    expect(lines[1]).toMatch(/^Configuration: PORT /);
    expect(code).toBe(1);
  });
});

describe("TRUST_PROXY (finding 9: TRUST_PROXY=1 trusted nothing, TRUST_PROXY=true crashed)", () => {
  /**
   * Behind one proxy, X-Forwarded-For names the client, so each client address has its own rate
   * limit: two posts from one address use up its allowance, and another address still gets in.
   */
  async function postsCountPerForwardedAddress(trustProxy: string) {
    const server = await startBuiltServer({
      ...embeddedDatabase(),
      TRUST_PROXY: trustProxy,
      RATE_LIMIT_POSTS_PER_WINDOW: "2",
    });
    const post = (forwardedFor: string) =>
      fetch(`${server.url}/no-such-page`, {
        method: "POST",
        headers: {
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": forwardedFor,
        },
        body: "a=1",
      }).then((response) => response.status);
    try {
      const first = [await post("203.0.113.7"), await post("203.0.113.7")];
      expect(first).not.toContain(429);
      expect(await post("203.0.113.7")).toBe(429);
      expect(await post("198.51.100.8")).not.toBe(429);
    } finally {
      await server.stop();
    }
  }

  it("TRUST_PROXY=1 believes the proxy's X-Forwarded-For", async () => {
    await postsCountPerForwardedAddress("1");
  });

  it("TRUST_PROXY=true starts and believes it too", async () => {
    await postsCountPerForwardedAddress("true");
  });
});
