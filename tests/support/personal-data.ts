import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";

/**
 * Where in the whole database any of `needles` (a name, an e-mail address, a phone or NHS number,
 * an address line) still appears: every table of the public schema, each row read as text, case
 * ignored. Answers `{ table: rows }` for the tables that hold one, so that a test can say exactly
 * which tables may (`retained_result`, during its retention) and which must not.
 */
export async function tablesHolding(
  db: Db,
  needles: readonly string[],
): Promise<Record<string, number>> {
  const tables = (await db.execute(
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  )) as unknown as { rows: { table_name: string }[] };
  const patterns = needles.filter(Boolean).map((needle) => `%${needle.toLowerCase()}%`);
  const found: Record<string, number> = {};
  for (const { table_name: table } of tables.rows) {
    const counted = (await db.execute(
      sql`select count(*)::int as count from ${sql.identifier(table)} as t
          where lower(t::text) like any(${sql.param(patterns)}::text[])`,
    )) as unknown as { rows: { count: number }[] };
    const count = Number(counted.rows[0]?.count ?? 0);
    if (count > 0) found[table] = count;
  }
  return found;
}

/** A valid NHS number (modulus 11 check digit) of ten digits, different on each call. */
export function validNhsNumber(): string {
  for (;;) {
    const first = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
    const sum = first.reduce((total, digit, index) => total + digit * (10 - index), 0);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return [...first, check === 11 ? 0 : check].join("");
  }
}
