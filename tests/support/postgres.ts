import crypto from "node:crypto";
import pg from "pg";

/** The server the tests may create scratch databases on (trust auth on every machine here). */
export const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Waits (briefly) until nobody is connected to a database. A pool's end() resolves once it has
 * asked its connections to close, not once they have.
 */
async function waitForConnectionsToClose(client: pg.Client, name: string) {
  for (let waited = 0; waited < 3000; waited += 50) {
    const { rows } = await client.query<{ open: number }>(
      "select count(*)::int as open from pg_stat_activity where datname = $1",
      [name],
    );
    if (rows[0]!.open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Creates an empty database for one test file or run, and drops it afterwards. With `template`,
 * the new database is a copy of that one (which nobody may be connected to at that moment).
 */
export async function createScratchDatabase(prefix = "mhat_test", template?: string) {
  const name = `${prefix}_${crypto.randomBytes(6).toString("hex")}`;
  await asAdmin((client) =>
    client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`),
  );
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    /** Resolves once nobody is connected any more, so that it can serve as a template. */
    settle: () => asAdmin((client) => waitForConnectionsToClose(client, name)),
    drop: () =>
      asAdmin(async (client) => {
        // Dropping WITH (FORCE) while a closing pool's connections are still open kills them
        // mid-close, and the server's "terminating connection" error then reaches a pool that may
        // have no error listener left: an uncaught error in whichever test file is running. So
        // wait for them to go first.
        await waitForConnectionsToClose(client, name);
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}
