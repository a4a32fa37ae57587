// GET /api/events with 1,000 upcoming events, beside a bare node:http server returning the same bytes.
// Usage: npm run build && node scripts/bench/api-events.mjs [--postgres] [--seconds 10] [--connections 10]
// Default: the embedded PGlite database. --postgres: a scratch database on 127.0.0.1:5432 (dropped afterwards).
import crypto from "node:crypto";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import autocannon from "autocannon";
import pg from "pg";
import { productionBenchEnv, startBuiltServer } from "../lib/start-server.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const usePostgres = args.includes("--postgres");
const seconds = option("seconds", 10);
const connections = option("connections", 10);
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
let env = productionBenchEnv(dir);
let dropDatabase = async () => {};

if (usePostgres) {
  const admin = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
  await admin.connect();
  const name = `mhat_bench_${crypto.randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  env = { ...env, DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${name}` };
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/test" });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  };
}

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

const bare = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
  res.end(body);
});
await new Promise((resolve) => bare.listen(0, "127.0.0.1", resolve));
const bareUrl = `http://127.0.0.1:${bare.address().port}/api/events`;

const run = (target) => autocannon({ url: target, connections, duration: seconds });
try {
  console.log(
    `GET /api/events, ${EVENT_COUNT} events, ${(body.length / 1024).toFixed(0)} KB per answer, ${connections} connections, ${seconds} s each, database: ${usePostgres ? "postgres" : "pglite"}`,
  );
  const app = await run(url);
  const plain = await run(bareUrl);
  const row = (label, result) =>
    console.log(
      label.padEnd(12),
      `${result.requests.average.toFixed(1)} req/s`.padEnd(14),
      `p99 ${result.latency.p99} ms`.padEnd(12),
      `errors ${result.errors + result.non2xx}`,
    );
  row("site", app);
  row("bare node", plain);
  console.log(
    `ratio: ${((app.requests.average / plain.requests.average) * 100).toFixed(1)}% of bare node`,
  );
} finally {
  bare.close();
  await server.stop();
  await dropDatabase();
  rmSync(dir, { recursive: true, force: true });
}
