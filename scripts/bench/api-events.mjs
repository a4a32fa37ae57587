// GET /api/events with 1,000 upcoming events, beside a bare node:http server returning the same bytes.
// Usage: npm run build && node scripts/bench/api-events.mjs [--postgres] [--seconds 10] [--connections 10]
// Default: the embedded PGlite database. --postgres: a scratch database on 127.0.0.1:5432 (dropped afterwards).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { measure, option, startBareServer } from "../lib/load.mjs";
import { createScratchDatabase } from "../lib/scratch-postgres.mjs";
import { productionBenchEnv, startBuiltServer } from "../lib/start-server.mjs";

const args = process.argv.slice(2);
const usePostgres = args.includes("--postgres");
const seconds = Number(option(args, "seconds", "10"));
const connections = Number(option(args, "connections", "10"));
const EVENT_COUNT = 1000;

// 1,000 events spread over the coming year, all upcoming.
const INSERT_EVENTS = `
  with product as (insert into screening_product (name, price_pence) values ('PSA Blood Test', 2500) returning id)
  insert into event (name, description, product_id, payment_required, event_date, start_time, end_time, session_duration,
    total_spaces, category, is_public, contact_email, address_line_1, city, state, postcode, latitude, longitude)
  select 'Benchmark Screening ' || n, 'PSA screening for men aged 40 to 80.', product.id, n % 3 <> 0,
    current_date + 1 + (n % 365), '10:00', '14:00', 15, 60,
    (array['community','freemasons','corporate'])[1 + n % 3]::event_category, n % 10 <> 0, 'events@example.org',
    n || ' High Street', (array['Chelmsford','Ipswich','London','Colchester'])[1 + n % 4], 'Essex', 'CM1 1AA',
    51.5 + (n % 100) / 100.0, (n % 100) / 100.0
  from generate_series(1, ${EVENT_COUNT}) as n, product;
  -- Event n has n % 61 confirmed bookings, so the list counts real bookings (about 30,000).
  insert into "user" (id, name, email, email_verified)
  select 'bench-' || k, 'Bench ' || k, 'bench' || k || '@example.org', true
  from generate_series(1, 60) as k;
  insert into booking (reference, event_id, user_id, slot_time, status, price_pence, payment_required, payment_status)
  select 'BENCH-' || e.n || '-' || k, e.id, 'bench-' || k, '10:00', 'confirmed', 0, false, 'not_required'
  from (select id, row_number() over (order by name) as n from event) as e,
    generate_series(1, 60) as k
  where k <= e.n % 61`;

const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-bench-"));
const scratch = usePostgres ? await createScratchDatabase() : undefined;
const env = { ...productionBenchEnv(dir), ...(scratch ? { DATABASE_URL: scratch.url } : {}) };

// Start once to migrate, add the events, then start again to measure.
let server = await startBuiltServer(env);
if (usePostgres) {
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  await client.query(INSERT_EVENTS);
  await client.end();
} else {
  await server.stop();
  const db = new PGlite(dir);
  await db.exec(INSERT_EVENTS);
  await db.close();
  server = await startBuiltServer(env);
}

const url = `${server.url}/api/events`;
const sample = await fetch(url);
const body = Buffer.from(await sample.arrayBuffer());
const count = JSON.parse(body.toString()).events.length;
if (count !== EVENT_COUNT) throw new Error(`Expected ${EVENT_COUNT} events, got ${count}`);

const bare = await startBareServer(dir, {
  "/api/events": { type: sample.headers.get("content-type") ?? "application/json", body },
});

const run = (target) => measure({ url: target, connections, seconds });
try {
  console.log(
    `GET /api/events, ${EVENT_COUNT} events, ${(body.length / 1024).toFixed(0)} KB per answer, ${connections} connections, ${seconds} s each, database: ${usePostgres ? "postgres" : "pglite"}`,
  );
  const app = await run(url);
  const plain = await run(`${bare.url}/api/events`);
  const row = (label, result) =>
    console.log(
      label.padEnd(12),
      `${result.rps.toFixed(1)} req/s`.padEnd(14),
      `p99 ${result.p99} ms`.padEnd(12),
      `errors ${result.errors}`,
    );
  row("site", app);
  row("bare node", plain);
  console.log(`ratio: ${((app.rps / plain.rps) * 100).toFixed(1)}% of bare node`);
} finally {
  bare.stop();
  await server.stop();
  await scratch?.drop();
  rmSync(dir, { recursive: true, force: true });
}
