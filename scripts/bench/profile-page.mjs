// Where the server's time goes while it answers one page again and again: a CPU profile of the
// production server (self time by package and by function) and the SQL statements per answer.
// Usage: npm run build && node scripts/bench/profile-page.mjs [--page /about-us] [--anonymous]
//          [--postgres] [--requests 3000] [--connections 10] [--dir DIR]
// By default each request carries `Cookie: bench=1`, so the page is rendered every time (as in
// pages.mjs's "uncached" column); --anonymous sends none, so kept pages come from the page cache.
// The profile is left in DIR/server.cpuprofile (open it in Chrome's DevTools).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { probeEnv, startProfiling, stopProfiling, summariseProfile } from "../lib/cpu-profile.mjs";
import { fixedLoad, option } from "../lib/load.mjs";
import { bookableEventId, UNCACHED } from "../lib/mixed-load.mjs";
import { createScratchDatabase } from "../lib/scratch-postgres.mjs";
import { startProductionBenchServer } from "../lib/start-server.mjs";

const args = process.argv.slice(2);
const usePostgres = args.includes("--postgres");
const anonymous = args.includes("--anonymous");
const requested = option(args, "page", "/about-us");
const requests = Number(option(args, "requests", "3000"));
const connections = Number(option(args, "connections", "10"));
const dir = path.resolve(option(args, "dir", mkdtempSync(path.join(os.tmpdir(), "mhat-profile-"))));

const pgliteDir = mkdtempSync(path.join(os.tmpdir(), "mhat-bench-"));
const scratch = usePostgres ? await createScratchDatabase() : undefined;
const site = await startProductionBenchServer(pgliteDir, {
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  ...probeEnv(dir),
});
try {
  const page = requested === "/event/:id" ? `/event/${await bookableEventId(site.url)}` : requested;
  const load = (amount) =>
    fixedLoad({
      url: site.url,
      connections,
      amount,
      requests: [{ path: page, headers: anonymous ? {} : UNCACHED }],
    });
  // Warm-up, not profiled: the code gets compiled and the caches filled first.
  await load(Math.min(requests, 1000));
  await startProfiling(site.pid, dir);
  const result = await load(requests);
  const { profile, statements } = await stopProfiling(site.pid, dir);
  const sent = statements.reduce((sum, { count }) => sum + count, 0);
  console.log(
    `${page} ${anonymous ? "anonymous" : "uncached"}, ${usePostgres ? "Postgres" : "PGlite"}: ` +
      `${requests} requests, ${result.rps.toFixed(0)} req/s while profiled, ${result.errors} errors; ` +
      (usePostgres
        ? `${(sent / requests).toFixed(2)} SQL statements per answer`
        : "SQL statements are counted on Postgres only"),
  );
  summariseProfile(profile);
  console.log(`(files in ${dir})`);
} finally {
  await site.stop();
  await scratch?.drop();
  rmSync(pgliteDir, { recursive: true, force: true });
}
