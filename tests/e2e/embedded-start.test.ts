import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startBuiltServer } from "#tests/support/server";

/** The README's path: no DATABASE_URL, so the embedded PGlite is migrated and seeded at start-up. */
describe("start-up on the embedded database", () => {
  it("migrates, seeds, serves pages and keeps mail for the dev mailbox", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-pglite-"));
    const env = { PGLITE_DIR: dir, DATABASE_URL: "", SMTP_URL: "", NODE_ENV: "development" };
    const server = await startBuiltServer(env);
    try {
      expect(server.output()).toContain("Demo data seeded.");
      expect(server.output()).toContain("database: pglite");
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
      const form = new URLSearchParams({
        intent: "contact",
        "first-name": "Embedded",
        "last-name": "Tester",
        email: "embedded@example.com",
        "phone-number": "01632 960 010",
        message: "Checking the mailbox.",
      });
      const posted = await fetch(`${server.url}/about-us`, {
        method: "POST",
        body: form,
        headers: { origin: server.url },
      });
      expect(posted.status).toBe(200);
      const mailbox = await (await fetch(`${server.url}/dev/mailbox`)).text();
      expect(mailbox).toContain("Website enquiry from Embedded Tester");
    } finally {
      await server.stop();
    }

    // A restart finds the data and does not seed again.
    const again = await startBuiltServer(env);
    try {
      expect(again.output()).not.toContain("Demo data seeded.");
      const mailbox = await (await fetch(`${again.url}/dev/mailbox`)).text();
      expect(mailbox).toContain("Website enquiry from Embedded Tester");
    } finally {
      await again.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("has no dev mailbox in production", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-pglite-"));
    const server = await startBuiltServer({
      PGLITE_DIR: dir,
      DATABASE_URL: "",
      NODE_ENV: "production",
      APP_URL: "https://mhat.example.org",
      AUTH_SECRET: "a".repeat(40),
      SMTP_URL: "smtp://127.0.0.1:9",
    });
    try {
      expect(server.output()).not.toContain("Demo data seeded.");
      expect((await fetch(`${server.url}/dev/mailbox`)).status).toBe(404);
      expect((await fetch(`${server.url}/`)).headers.get("strict-transport-security")).toContain(
        "max-age",
      );
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
