import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, openDatabase } from "#app/db/client.server";
import { recordAudit } from "#app/services/audit.server";
import { inviteStaff } from "#app/services/staff.server";
import { startup } from "#server/app";
import { migratedScratchDatabase, TEST_SERVER_SECRET } from "#tests/support/database";
import { ADMIN_DATABASE_URL, createScratchDatabase } from "#tests/support/postgres";

/**
 * Finding 6 of issue 14: the site connected as the owner of `audit_log`, so it could
 * `ALTER TABLE audit_log DISABLE TRIGGER USER` and then rewrite or empty the log. Migrations now
 * run as the owner (MIGRATION_DATABASE_URL) and the running site's role may only add and read
 * audit rows. Roles belong to the whole Postgres server, so this file makes one with a unique name
 * and drops it afterwards.
 */
const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
const SKIPPED = POSTGRES
  ? ""
  : " (skipped: needs TEST_DATABASE_URL; roles and privileges exist only on a Postgres server)";

const siteRole = `mhat_site_${crypto.randomBytes(5).toString("hex")}`;
const sitePassword = crypto.randomBytes(12).toString("hex");
let scratch: Awaited<ReturnType<typeof migratedScratchDatabase>>;
let siteUrl: string;
let shutdown: (() => Promise<void>) | undefined;
const savedEnv = { ...process.env };

async function asAdmin(statement: string) {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh connection as the site's role, for one statement. */
async function asSite(statement: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: siteUrl });
  await client.connect();
  try {
    return await client.query(statement, params);
  } finally {
    await client.end();
  }
}

/** The statement's error message, or "done" when it went through. */
async function outcome(statement: string): Promise<string> {
  try {
    await asSite(statement);
    return "done";
  } catch (error) {
    return (error as Error).message;
  }
}

describe.skipIf(!POSTGRES)(
  `the audit log against the site's own database role (finding 6)${SKIPPED}`,
  () => {
    beforeAll(async () => {
      // A copy of the run's migrated template: the owner's migration at start-up finds nothing
      // to do and grants. Migrating an empty database is the test of several instances below.
      scratch = await migratedScratchDatabase("mhat_roles");
      await asAdmin(`CREATE ROLE ${siteRole} LOGIN PASSWORD '${sitePassword}'`);
      const url = new URL(scratch.url);
      url.username = siteRole;
      url.password = sitePassword;
      siteUrl = url.toString();
      // The real start-up path, configured as the README says: the owner migrates, the site runs.
      Object.assign(process.env, {
        NODE_ENV: "test",
        DATABASE_URL: siteUrl,
        MIGRATION_DATABASE_URL: scratch.url,
        DEMO_DATA: "0",
        SMTP_URL: "",
        AUTH_SECRET: TEST_SERVER_SECRET,
      });
      shutdown = (await startup()).shutdown;
    });

    afterAll(async () => {
      await shutdown?.();
      process.env = savedEnv;
      await scratch?.drop();
      await asAdmin(`DROP ROLE IF EXISTS ${siteRole}`);
    });

    it("runs as its own role, not as the owner of the tables", async () => {
      const { rows } = await asSite(
        "select current_user as me, tableowner from pg_tables where tablename = 'audit_log'",
      );
      expect(rows[0]).toEqual({ me: siteRole, tableowner: new URL(ADMIN_DATABASE_URL).username });
    });

    it("can add audit rows and read them", async () => {
      await recordAudit(
        db(),
        { id: null, email: null, clientAddress: "192.0.2.10" },
        { action: "staff.invite", entityType: "test", entityId: "role-check" },
      );
      const { rows } = await asSite("select action from audit_log where entity_id = 'role-check'");
      expect(rows).toEqual([{ action: "staff.invite" }]);
    });

    it("cannot turn off the audit log's triggers", async () => {
      expect(await outcome("ALTER TABLE audit_log DISABLE TRIGGER USER")).toMatch(
        /must be owner of table audit_log/,
      );
      expect(await outcome("ALTER TABLE audit_log DISABLE TRIGGER ALL")).toMatch(
        /must be owner of table audit_log/,
      );
      const { rows } = await asSite(
        "select tgname, tgenabled from pg_trigger where tgrelid = 'audit_log'::regclass and not tgisinternal order by tgname",
      );
      expect(rows).toEqual([
        { tgname: "audit_log_no_truncate", tgenabled: "O" },
        { tgname: "audit_log_no_update_or_delete", tgenabled: "O" },
      ]);
    });

    it.each([
      ["UPDATE", "UPDATE audit_log SET action = 'rewritten'"],
      ["DELETE", "DELETE FROM audit_log"],
      ["TRUNCATE", "TRUNCATE audit_log"],
    ])(
      "is refused %s on the audit log by its privileges, not only by the trigger",
      async (verb, statement) => {
        // A row of this test's own, so that what it finds afterwards is not another test's.
        const entry = `role-check-${verb}-${crypto.randomBytes(4).toString("hex")}`;
        await asSite("insert into audit_log (action, entity_id) values ('audit.view', $1)", [
          entry,
        ]);
        // The attack: turn the trigger off first, then change the rows.
        await outcome("ALTER TABLE audit_log DISABLE TRIGGER USER");
        expect(await outcome(statement)).toMatch(/permission denied for table audit_log/);
        const { rows } = await asSite("select action from audit_log where entity_id = $1", [entry]);
        expect(rows).toEqual([{ action: "audit.view" }]);
      },
    );

    it("cannot change or remove earlier versions of results, the other append-only table", async () => {
      for (const statement of [
        "ALTER TABLE test_result_revision DISABLE TRIGGER USER",
        "UPDATE test_result_revision SET reason = 'rewritten'",
        "DELETE FROM test_result_revision",
        "TRUNCATE test_result_revision",
      ]) {
        expect(await outcome(statement), statement).toMatch(
          /must be owner of table test_result_revision|permission denied for table test_result_revision/,
        );
      }
      expect(await outcome("select count(*) from test_result_revision")).toBe("done");
    });

    it("can still do its normal work on the other tables", async () => {
      const { link } = await inviteStaff(
        db(),
        { id: null, email: null, clientAddress: "command line" },
        { email: "role.check@example.org", roles: ["admin"], baseUrl: "http://127.0.0.1" },
      );
      expect(link).toMatch(/\/admin\/setup\?token=/);
      const inserted = await asSite(
        "insert into enquiry (first_name, last_name, email, phone_number, message) values ('A', 'B', 'a@example.org', '01632 960000', 'hi') returning id",
      );
      const id = inserted.rows[0].id as string;
      expect(await outcome(`select * from enquiry where id = '${id}' for update`)).toBe("done");
      expect(await outcome(`update enquiry set handled_at = now() where id = '${id}'`)).toBe(
        "done",
      );
      expect(await outcome(`delete from enquiry where id = '${id}'`)).toBe("done");
    });

    it("migrates and grants once when several instances start at once", async () => {
      // Empty: the instances migrate it.
      const fresh = await createScratchDatabase("mhat_roles");
      const url = new URL(fresh.url);
      url.username = siteRole;
      url.password = sitePassword;
      const instances = [1, 2, 3].map(() =>
        openDatabase({ url: url.toString(), migrationUrl: fresh.url }),
      );
      try {
        await Promise.all(instances.map((instance) => instance.migrate()));
        const site = new pg.Client({ connectionString: url.toString() });
        await site.connect();
        try {
          await site.query("insert into audit_log (action) values ('together')");
          await expect(site.query("delete from audit_log")).rejects.toThrow(/permission denied/);
        } finally {
          await site.end();
        }
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await fresh.drop();
      }
    });

    it("cannot change the tables themselves", async () => {
      expect(await outcome("ALTER TABLE booking DISABLE TRIGGER ALL")).toMatch(/must be owner/);
      expect(await outcome("DROP TABLE enquiry")).toMatch(/must be owner/);
      expect(await outcome("TRUNCATE enquiry")).toMatch(/permission denied/);
      expect(await outcome("CREATE TABLE intruder (id int)")).toMatch(/permission denied/);
    });
  },
);
