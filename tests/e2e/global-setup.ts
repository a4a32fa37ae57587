import crypto from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import pg from "pg";
import { ADMIN_DATABASE_URL, createScratchDatabase } from "#tests/support/postgres";
import { startFakePayPal } from "#tests/support/fake-paypal";
import { fakePayPalEnv } from "#tests/support/fixtures/paypal";
import { startBuiltServer } from "#tests/support/server";
import { startSmtpSink } from "#tests/support/smtp-sink";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    mailFolder: string;
    databaseUrl: string;
    serverLogFile: string;
    fakePayPalUrl: string;
  }
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * One server for the e2e suite: the real build, a fresh Postgres database (so tests can read what
 * the server stored) and a local SMTP sink that writes every message to a folder.
 */
export default async function setup(project: TestProject) {
  if (!existsSync("build/server/index.js"))
    throw new Error("Run `npm run build` before the e2e tests.");
  const scratch = await createScratchDatabase("mhat_e2e");
  // The site runs as a role of its own, as production should: the owner (the scratch database's
  // user) migrates and grants, the site's role gets rows only and cannot rewrite the audit log.
  // Every journey below then proves it needs nothing more.
  const siteRole = `mhat_e2e_site_${crypto.randomBytes(4).toString("hex")}`;
  await adminQuery(`CREATE ROLE ${siteRole} LOGIN PASSWORD '${siteRole}'`);
  const siteUrl = new URL(scratch.url);
  siteUrl.username = siteRole;
  siteUrl.password = siteRole;
  const mailFolder = mkdtempSync(path.join(os.tmpdir(), "mhat-mail-"));
  const sink = await startSmtpSink({ folder: mailFolder });
  // Payments go to a local fake of PayPal's Orders and Payments APIs.
  const paypal = await startFakePayPal();
  const serverLogFile = path.join(mailFolder, "..", `${path.basename(mailFolder)}-server.log`);
  const server = await startBuiltServer(
    {
      DATABASE_URL: siteUrl.toString(),
      MIGRATION_DATABASE_URL: scratch.url,
      SMTP_URL: sink.url,
      STAFF_NOTIFY_EMAIL: "staff-inbox@example.org",
      OUTBOX_POLL_MS: "200",
      ...fakePayPalEnv(paypal),
      DEMO_DATA: "1",
      // No network here: every map tile is one transparent pixel.
      MAP_TILE_URL:
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
      // The suite submits forms many times from one address; the limiter itself has its own tests.
      RATE_LIMIT_FORMS_PER_WINDOW: "1000",
      RATE_LIMIT_POSTS_PER_WINDOW: "1000",
      RATE_LIMIT_HOLDS_PER_HOUR: "1000",
      RATE_LIMIT_SIGNUPS_PER_HOUR: "1000",
      // Tests write events and bookings straight into the database, past eventsChanged(), as
      // another instance would; every page must show them at once. The caches have their own
      // server in page-cache.test.ts.
      PAGE_CACHE_SECONDS: "0",
      EVENT_LIST_CACHE_MS: "0",
    },
    60_000,
    { logFile: serverLogFile },
  );

  project.provide("baseURL", server.url);
  project.provide("mailFolder", mailFolder);
  project.provide("databaseUrl", scratch.url);
  project.provide("serverLogFile", serverLogFile);
  project.provide("fakePayPalUrl", paypal.url);

  return async () => {
    await server.stop();
    await sink.close();
    await paypal.close();
    await scratch.drop();
    await adminQuery(`DROP ROLE IF EXISTS ${siteRole}`);
    rmSync(mailFolder, { recursive: true, force: true });
    rmSync(serverLogFile, { force: true });
  };
}
