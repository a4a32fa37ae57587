import crypto from "node:crypto";
import pg from "pg";

/** The server the tests may create scratch databases on (trust auth on every machine here). */
export const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Creates an empty database for one test file or run, and drops it afterwards. */
export async function createScratchDatabase(prefix = "mhat_test") {
  const name = `${prefix}_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
      await client.connect();
      // A pool's end() resolves once it has asked its connections to close, not once they have.
      // Dropping WITH (FORCE) at that moment kills them mid-close, and the server's "terminating
      // connection" error then reaches a pool that may have no error listener left: an uncaught
      // error in whichever test file is running. So wait (briefly) for them to go first.
      for (let waited = 0; waited < 3000; waited += 50) {
        const { rows } = await client.query<{ open: number }>(
          "select count(*)::int as open from pg_stat_activity where datname = $1",
          [name],
        );
        if (rows[0]!.open === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
