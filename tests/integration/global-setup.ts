import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migratedTemplate } from "#tests/support/database";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated database each integration file copies: see tests/support/database.ts. */
    testDatabaseTemplate: { pgliteDump: string } | { postgresTemplate: string };
  }
}

/**
 * Migrates a database once per run; each integration file then opens its own copy of it
 * (PGlite: a dump of the data directory; Postgres: a template database), instead of starting an
 * empty database and migrating it again.
 */
export default async function setup(project: TestProject) {
  const template = await migratedTemplate();
  if (template.kind === "postgres") {
    project.provide("testDatabaseTemplate", { postgresTemplate: template.name });
    return () => template.drop();
  }
  const folder = mkdtempSync(path.join(os.tmpdir(), "mhat-pglite-template-"));
  const pgliteDump = path.join(folder, "migrated.tar");
  writeFileSync(pgliteDump, template.dump);
  project.provide("testDatabaseTemplate", { pgliteDump });
  return () => rmSync(folder, { recursive: true, force: true });
}
