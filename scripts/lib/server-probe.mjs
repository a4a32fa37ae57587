// Loaded into the server by the benchmarks' `--profile DIR` (node --import; see `probeEnv`), never
// by the site itself. On the first SIGUSR2 it starts V8's CPU profiler and begins counting the SQL
// statements the server sends to Postgres; on the second it stops, and writes
// DIR/server.cpuprofile (open it in Chrome's DevTools) and DIR/statements.json (each statement's
// text with how often it ran), so only the load is measured, not start-up or the warm-up.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import pg from "pg";

const dir = process.env.SERVER_PROBE_DIR;
const counts = new Map();
let counting = false;

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  if (counting) {
    const text = typeof config === "string" ? config : config?.text;
    if (text) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return query.call(this, config, ...rest);
};

const session = new Session();
session.connect();
let running = false;

process.on("SIGUSR2", async () => {
  if (!running) {
    running = true;
    counts.clear();
    counting = true;
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 500 });
    await session.post("Profiler.start");
    return;
  }
  running = false;
  counting = false;
  const { profile } = await session.post("Profiler.stop");
  writeFileSync(path.join(dir, "server.cpuprofile"), JSON.stringify(profile));
  const statements = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([text, count]) => ({ count, text }));
  writeFileSync(path.join(dir, "statements.json"), JSON.stringify(statements, null, 2));
  writeFileSync(path.join(dir, "done"), "");
});
