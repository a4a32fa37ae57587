import { openDatabase, type Database } from "#app/db/client.server";
import { loadServerSecret } from "#app/services/secrets.server";
import { createScratchDatabase } from "./postgres";

/**
 * A migrated, empty database for one test file: in-memory PGlite by default, or a scratch
 * database on the Postgres server when TEST_DATABASE_URL is set.
 */
export async function openTestDatabase(): Promise<Database & { kind: string }> {
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchDatabase();
    const database = openDatabase({ url: scratch.url });
    await database.migrate();
    await loadServerSecret(database.db, "test-secret-test-secret-test-secret-0000");
    return {
      ...database,
      kind: "postgres",
      async close() {
        await database.close();
        await scratch.drop();
      },
    };
  }
  const database = openDatabase({ memory: true });
  await database.migrate();
  await loadServerSecret(database.db, "test-secret-test-secret-test-secret-0000");
  return { ...database, kind: "pglite" };
}
