import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startBuiltServer } from "#tests/support/server";

/**
 * Finding 9 of issue 14: `npm run create-admin` while the site held the embedded database printed
 * a link that never worked (each process had its own copy of the database). It now refuses while
 * the site runs, and its link starts as the site's e-mailed links do: APP_URL, or localhost:PORT.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-create-admin-"));
const embedded = { PGLITE_DIR: dir, DATABASE_URL: "", DEMO_DATA: "0", NODE_ENV: "development" };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function createAdmin(
  email: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/create-admin.mjs", "--email", email], {
      env: { ...process.env, ...embedded, APP_URL: "", PORT: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const linkIn = (output: string) => /^(https?:\/\/\S+\/admin\/setup\?token=\S+)$/m.exec(output)?.[1];

describe("npm run create-admin on the embedded database (finding 9)", () => {
  it("refuses while the site holds the database, saying to stop it first", async () => {
    const server = await startBuiltServer(embedded);
    try {
      const { code, stdout, stderr } = await createAdmin("while.running@example.org", {});
      expect(linkIn(stdout)).toBeUndefined();
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr).toMatch(/in use by another process .*stop the site/i);
      expect(stderr).not.toMatch(/^\s+at /m);
      expect(code).toBe(1);
      // The site is unharmed and still serving.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("with the site stopped, prints a link starting with APP_URL that the site then opens", async () => {
    const { code, stdout } = await createAdmin("first.admin@example.org", {
      APP_URL: "https://mhat.example.org/",
    });
    expect(code).toBe(0);
    const link = linkIn(stdout)!;
    expect(link).toMatch(/^https:\/\/mhat\.example\.org\/admin\/setup\?token=/);

    const server = await startBuiltServer(embedded);
    try {
      const opened = new URL(link);
      const page = await (await fetch(`${server.url}${opened.pathname}${opened.search}`)).text();
      expect(page).toContain("Set up your staff account");
      expect(page).not.toContain("This set-up link has expired or has already been used");
    } finally {
      await server.stop();
    }
  });

  it("without APP_URL, the link starts with http://localhost and PORT, as the site's e-mailed links do", async () => {
    const { code, stdout } = await createAdmin("second.admin@example.org", { PORT: "4321" });
    expect(code).toBe(0);
    expect(linkIn(stdout)).toMatch(/^http:\/\/localhost:4321\/admin\/setup\?token=/);
  });
});
