// N signed-in people race for M places of one event through the real HTTP endpoint,
// POST /api/appointments ({ eventId, slotTime } → 201 { reference, holdExpiresAt } or 409).
// Usage: npm run build && node scripts/bench/booking-contention.mjs [--clients 1000] [--places 100]
//          [--instances 1] [--proxy] [--profile DIR]
// Runs the built server in production mode on a scratch database on 127.0.0.1:5432 (dropped afterwards).
// With --instances 2 (or more), that many servers on the one database behind HAProxy (Debian's,
// scripts/lib/haproxy.mjs), as the README's production deployment; --proxy puts HAProxy in front
// of a single instance too, to tell the proxy's own cost from the second instance's gain.
// --profile DIR (one instance): a CPU profile of the server during the race (DIR/server.cpuprofile),
// the SQL statements it sent (DIR/statements.json, see scripts/lib/server-probe.mjs) and what the database's
// connections were doing (pg_stat_activity, sampled every 50 ms), each summed up here.
//
// The people are written straight into the database (user, profile and a better-auth session each)
// and each request carries that session's signed cookie, made with the server's AUTH_SECRET exactly
// as better-auth signs it. Signing up 1,000 people through /signup would spend minutes on argon2
// (46 MiB per hash, by design) and measure sign-up, not booking. The cookie is checked on /portal
// before the race, so a wrong cookie stops the script instead of producing 1,000 refusals.
import crypto from "node:crypto";
import http from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { probeEnv, startProfiling, stopProfiling, summariseProfile } from "../lib/cpu-profile.mjs";
import { startHaproxy } from "../lib/haproxy.mjs";
import { createScratchDatabase } from "../lib/scratch-postgres.mjs";
import { freePort, startBuiltServer } from "../lib/start-server.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const CLIENTS = option("clients", 1000);
const PLACES = option("places", 100);
const INSTANCES = option("instances", 1);
const PROXIED = INSTANCES > 1 || args.includes("--proxy");
const PROFILE_DIR = args.includes("--profile")
  ? path.resolve(args[args.indexOf("--profile") + 1] ?? "booking-profile")
  : null;
if (PROFILE_DIR && INSTANCES > 1) {
  console.error("--profile measures one instance.");
  process.exit(1);
}
const AUTH_SECRET = "bench-only-secret-bench-only-secret-0000";
const SLOTS = ["10:00", "10:15", "10:30", "10:45", "11:00", "11:15", "11:30", "11:45"];

if (!existsSync("build/server/index.js")) {
  console.error("No build found: run `npm run build` first.");
  process.exit(1);
}

const scratch = await createScratchDatabase();
const databaseUrl = new URL(scratch.url);

/** better-auth's signed cookie value: token "." base64(HMAC-SHA-256(secret, token)), URI-encoded. */
const signed = (token) =>
  encodeURIComponent(
    `${token}.${crypto.createHmac("sha256", AUTH_SECRET).update(token).digest("base64")}`,
  );

const percentile = (sorted, p) =>
  sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** The servers, and where the clients send their requests: the proxy, or the one server. */
let servers = [];
let proxy;
let server;
const proxyFolder = PROXIED ? mkdtempSync(path.join(os.tmpdir(), "mhat-bench-proxy-")) : null;
const db = new pg.Client({ connectionString: databaseUrl.toString() });
try {
  const proxyPort = PROXIED ? await freePort() : 0;
  const env = {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl.toString(),
    DEMO_DATA: "0",
    AUTH_SECRET,
    SMTP_URL: "smtp://127.0.0.1:9",
    // Production refuses the simulated provider; holding a place never calls PayPal.
    PAYPAL_CLIENT_ID: "bench-client-id",
    PAYPAL_CLIENT_SECRET: "bench-client-secret",
    PAYPAL_ENV: "sandbox",
    PAYPAL_API_BASE: "http://127.0.0.1:9",
    // Behind the proxy, the public address is the proxy's, and the client's address its header's.
    ...(PROXIED ? { APP_URL: `http://127.0.0.1:${proxyPort}`, TRUST_PROXY: "1" } : {}),
    ...(PROFILE_DIR ? probeEnv(PROFILE_DIR) : {}),
  };
  // One after the other: the first migrates the new database.
  for (let n = 0; n < INSTANCES; n++) servers.push(await startBuiltServer(env));
  if (PROXIED) {
    proxy = await startHaproxy({
      port: proxyPort,
      backends: servers.map((instance, n) => ({
        name: `instance${n + 1}`,
        port: Number(new URL(instance.url).port),
      })),
      folder: proxyFolder,
    });
    server = { url: proxy.url };
  } else {
    server = servers[0];
  }
  await db.connect();

  // One event with M places, ten days ahead (bookable), and enough room in every slot that the
  // event's own limit is the one the crowd runs into.
  const {
    rows: [event],
  } = await db.query(
    `with product as (insert into screening_product (name, price_pence) values ('PSA Blood Test', 2500) returning id)
     insert into event (name, product_id, payment_required, event_date, start_time, end_time, session_duration,
       total_spaces, places_per_slot, category, address_line_1, city, postcode)
     select 'Contention Benchmark', product.id, true, current_date + 10, '10:00', '12:00', 15,
       $1, $1, 'community', '1 Bench Street', 'Chelmsford', 'CM1 1AA'
     from product returning id`,
    [PLACES],
  );

  const people = Array.from({ length: CLIENTS }, (_, index) => ({
    id: `bench-${index}`,
    token: crypto.randomBytes(24).toString("base64url"),
  }));
  const ids = people.map((person) => person.id);
  await db.query(
    `insert into "user" (id, name, email, email_verified)
     select id, 'Bench ' || id, id || '@example.com', true from unnest($1::text[]) as id`,
    [ids],
  );
  await db.query(
    `insert into profile (id, user_id, reference, first_name, last_name, phone, email, home_address_line_1,
       home_postcode, home_country, date_of_birth)
     select 'profile-' || id, id, 'MHATBENCH' || n, 'Bench', id, '01632 960 100', id || '@example.com',
       '1 Bench Street', 'CM1 1AA', 'United Kingdom', '1965-01-01'
     from unnest($1::text[]) with ordinality as t(id, n)`,
    [ids],
  );
  await db.query(
    `insert into session (id, expires_at, token, user_id)
     select 'session-' || id, now() + interval '1 day', token, id
     from unnest($1::text[], $2::text[]) as t(id, token)`,
    [ids, people.map((person) => person.token)],
  );

  const cookieName = "__Host-mhat.session_token"; // production cookie name (server/auth settings)
  const headersFor = (person) => ({
    cookie: `${cookieName}=${signed(person.token)}`,
    origin: server.url,
    "content-type": "application/json",
    accept: "application/json",
  });

  // The cookie must open a signed-in page before the race means anything.
  const portal = await fetch(`${server.url}/portal`, {
    headers: headersFor(people[0]),
    redirect: "manual",
  });
  if (portal.status !== 200) {
    throw new Error(`The session cookie was not accepted: GET /portal answered ${portal.status}.`);
  }
  const probe = await fetch(`${server.url}/api/appointments`, {
    method: "POST",
    headers: { origin: server.url, "content-type": "application/json" },
    body: JSON.stringify({ eventId: event.id, slotTime: SLOTS[0] }),
    redirect: "manual",
  });
  if (probe.status === 404 || probe.status === 405) {
    throw new Error("POST /api/appointments does not exist in this build yet.");
  }

  /**
   * Each client posts from an address of its own (127.0.0.0/8 is all loopback), as people on the
   * internet do: the per-address limits are production's, and each address has its own counters.
   */
  const addressOf = (index) => `127.30.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
  const postFrom = (localAddress, url, { headers, body }) =>
    new Promise((resolve, reject) => {
      const request = http.request(url, { method: "POST", headers, localAddress }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode, headers: response.headers, body: text }),
        );
      });
      request.on("error", reject);
      request.end(body);
    });

  /** Fires every request at once; returns the outcome counts, statuses and latencies. */
  async function race(requestFor) {
    const outcomes = { booked: 0, refused: 0, errors: 0 };
    const statuses = new Map();
    const servedBy = new Map();
    const latencies = [];
    /** When each status was answered first and last, in ms from the start. */
    const answered = new Map();
    const started = performance.now();
    await Promise.all(
      people.map(async (person, index) => {
        const begin = performance.now();
        try {
          const response = await postFrom(
            addressOf(index),
            `${server.url}/api/appointments`,
            requestFor(person, index),
          );
          const { body } = response;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const at = performance.now() - started;
          const span = answered.get(response.status) ?? { first: at, last: at };
          answered.set(response.status, {
            first: Math.min(span.first, at),
            last: Math.max(span.last, at),
          });
          const instance = response.headers["x-served-by"];
          if (instance) servedBy.set(instance, (servedBy.get(instance) ?? 0) + 1);
          if (response.status === 201 && JSON.parse(body).reference) outcomes.booked++;
          else if (response.status === 409) outcomes.refused++;
          else outcomes.errors++;
        } catch {
          statuses.set("network", (statuses.get("network") ?? 0) + 1);
          outcomes.errors++;
        } finally {
          latencies.push(performance.now() - begin);
        }
      }),
    );
    const wall = performance.now() - started;
    latencies.sort((a, b) => a - b);
    return { outcomes, statuses, servedBy, latencies, wall, answered };
  }
  const describe = ({ statuses, servedBy, latencies, wall }) =>
    `min ${(latencies[0] ?? 0).toFixed(0)} ms, p10 ${percentile(latencies, 10).toFixed(0)} ms, ` +
    `p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, ` +
    `all ${latencies.length} answered in ${wall.toFixed(0)} ms ` +
    `(${((latencies.length / wall) * 1000).toFixed(0)} req/s); ` +
    `statuses ${[...statuses].map(([status, count]) => `${status}×${count}`).join(", ")}` +
    (servedBy.size
      ? `; served by ${[...servedBy].map(([name, count]) => `${name}×${count}`).join(", ")}`
      : "");

  const layout =
    INSTANCES > 1
      ? `${INSTANCES} instances behind HAProxy`
      : PROXIED
        ? "1 instance behind HAProxy"
        : "1 instance";
  console.log(
    `POST /api/appointments: ${CLIENTS} clients at once for ${PLACES} places (postgres, production build, ${layout})`,
  );
  // What the stack costs without booking: the same requests without a session, refused (401)
  // before any booking code runs. Also warms the server up.
  const pids = servers.map((instance) => instance.pid);
  const baselineCpu = await cpuTimes(db, pids);
  const baseline = await race(() => ({
    headers: { origin: server.url, "content-type": "application/json" },
    body: JSON.stringify({ eventId: event.id, slotTime: SLOTS[0] }),
  }));
  console.log(`baseline, no session (401): ${describe(baseline)}`);
  console.log(`  ${describeCpu(baselineCpu, await cpuTimes(db, pids))}`);

  const profiling = PROFILE_DIR ? await startProbe(servers[0].pid, databaseUrl) : null;
  const cpuBefore = await cpuTimes(db, pids);
  const result = await race((person, index) => ({
    headers: headersFor(person),
    body: JSON.stringify({ eventId: event.id, slotTime: SLOTS[index % SLOTS.length] }),
  }));
  const cpuAfter = await cpuTimes(db, pids);
  if (profiling) await profiling.finish(CLIENTS);
  const { outcomes } = result;
  console.log(`booking race: ${describe(result)}`);
  console.log(
    `  answered: ${[...result.answered]
      .map(
        ([status, { first, last }]) =>
          `${status} from ${first.toFixed(0)} to ${last.toFixed(0)} ms`,
      )
      .join(", ")}`,
  );
  console.log(`  ${describeCpu(cpuBefore, cpuAfter)}`);
  const {
    rows: [held],
  } = await db.query(
    `select count(*)::int as count from booking where event_id = $1 and status in ('held', 'awaiting_payment', 'confirmed')`,
    [event.id],
  );
  console.log(
    `booked ${outcomes.booked}, refused (409) ${outcomes.refused}, errors ${outcomes.errors}; ` +
      `places held in the database: ${held.count} of ${PLACES}`,
  );
  const expected = Math.min(CLIENTS, PLACES);
  if (held.count !== outcomes.booked || held.count > PLACES || outcomes.booked !== expected) {
    console.error(`UNEXPECTED: expected exactly ${expected} places taken`);
    process.exitCode = 1;
  }
} finally {
  await db.end().catch(() => {});
  await proxy?.stop();
  await Promise.all(servers.map((instance) => instance.stop()));
  if (proxyFolder) rmSync(proxyFolder, { recursive: true, force: true });
  await scratch.drop();
}

/**
 * Starts the server's profiler and statement count (scripts/lib/server-probe.mjs) and samples
 * pg_stat_activity; `finish` stops all three and prints what they found.
 */
async function startProbe(pid, url) {
  const watcher = new pg.Client({ connectionString: url.toString() });
  await watcher.connect();
  const states = new Map();
  let samples = 0;
  let watching = true;
  const watching$ = (async () => {
    while (watching) {
      const { rows } = await watcher.query(
        `select coalesce(state, '?') as state, coalesce(wait_event_type || ':' || wait_event, '-') as wait,
                count(*)::int as count
           from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
          group by 1, 2`,
      );
      samples++;
      for (const row of rows) {
        const key = `${row.state} ${row.wait}`;
        states.set(key, (states.get(key) ?? 0) + row.count);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  await startProfiling(pid, PROFILE_DIR);
  return {
    async finish(requests) {
      watching = false;
      await watching$;
      await watcher.end();
      const { profile, statements } = await stopProfiling(pid, PROFILE_DIR);
      console.log(`\nserver connections (pg_stat_activity, mean over ${samples} samples):`);
      for (const [key, count] of [...states].sort((a, b) => b[1] - a[1]))
        console.log(`  ${(count / samples).toFixed(2).padStart(6)}  ${key}`);
      const total = statements.reduce((sum, { count }) => sum + count, 0);
      console.log(
        `\nSQL statements during the race: ${total} (${(total / requests).toFixed(1)} per request); most frequent:`,
      );
      for (const { count, text } of statements.slice(0, 15))
        console.log(`  ${String(count).padStart(6)}  ${text.replace(/\s+/g, " ").slice(0, 150)}`);
      summariseProfile(profile);
      console.log(`(files in ${PROFILE_DIR})\n`);
    },
  };
}

/**
 * CPU seconds so far of the servers, of their database connections' server processes and of this
 * script (the clients): what each took of the machine, whoever else was using it.
 */
async function cpuTimes(db, pids) {
  const { rows } = await db.query(
    `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  const seconds = (id) => {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
    } catch {
      return 0;
    }
  };
  const { user, system } = process.cpuUsage();
  return {
    servers: pids.reduce((sum, id) => sum + seconds(id), 0),
    database: new Map(rows.map((row) => [row.pid, seconds(row.pid)])),
    clients: (user + system) / 1e6,
  };
}

function describeCpu(before, after) {
  let database = 0;
  for (const [id, seconds] of after.database) database += seconds - (before.database.get(id) ?? 0);
  return (
    `CPU: server${servers.length > 1 ? "s" : ""} ${(after.servers - before.servers).toFixed(2)} s, ` +
    `their database connections ${database.toFixed(2)} s, clients ${(after.clients - before.clients).toFixed(2)} s; ` +
    `load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`
  );
}
