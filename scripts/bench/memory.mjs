// Where the server's memory goes: RSS split into V8's heap (per space, committed and used), array
// buffers (PGlite's WebAssembly memory among them), malloc's arenas and the rest of /proc/PID/smaps,
// idle, after pages.mjs's fixed mixed load, after a full collection and after glibc's malloc_trim.
// Usage: npm run build && node scripts/bench/memory.mjs [--postgres] [--snapshots DIR] [--no-trim]
//          [--json FILE] [--modules FILE] [--node-options "..."] [--log FILE] [--trace-gc]
//          [--promoted N] [--gzip]
// --snapshots DIR: heap snapshots (idle, after the load) to open in Chrome's DevTools.
// --modules FILE: the files of every script V8 compiled, idle.
// --node-options: more NODE_OPTIONS for the server; --log FILE: its output; --trace-gc: V8's line
// for each collection from idle on, in that output (set through the inspector: NODE_OPTIONS refuses it).
// --promoted N: during the load, V8's sampling heap profiler counts only what outlived the young
// generation (promoted to old space, live or not); prints the N functions that allocated most of
// it. It slows the server, so the memory figures of such a run are not comparable.
// --gzip: the load asks for gzip as browsers do (the server compresses each answer).
// The server runs with the inspector on a loopback port; malloc_trim is called through gdb, when
// there is one. Run by hand: it measures, it never asserts.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inspectorClient } from "../lib/inspector.mjs";
import { MIXED_LOAD_REQUESTS, mixedLoad } from "../lib/mixed-load.mjs";
import { option, sleep } from "../lib/load.mjs";
import { createScratchDatabase } from "../lib/scratch-postgres.mjs";
import { freePort, productionBenchEnv, startBuiltServer } from "../lib/start-server.mjs";

const MB = 1024 * 1024;

// Node 20's WebSocket is behind a flag: run again with it.
if (typeof WebSocket === "undefined") {
  const child = spawn(
    process.execPath,
    ["--experimental-websocket", "--no-warnings", ...process.argv.slice(1)],
    { stdio: "inherit" },
  );
  child.on("exit", (code) => process.exit(code ?? 1));
} else {
  await main();
}

async function main() {
  const args = process.argv.slice(2);
  const usePostgres = args.includes("--postgres");
  const snapshots = option(args, "snapshots", undefined);
  const jsonFile = option(args, "json", undefined);
  const modulesFile = option(args, "modules", undefined);
  const nodeOptions = option(args, "node-options", "");
  const logFile = option(args, "log", undefined);
  const trim = !args.includes("--no-trim") && hasGdb();
  const SETTLE_MS = 5000;

  const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-memory-"));
  const scratch = usePostgres ? await createScratchDatabase() : undefined;
  const env = { ...productionBenchEnv(dir), ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
  let site;
  let inspector;
  try {
    process.stderr.write(
      `Seeding, then starting the site (${usePostgres ? "postgres" : "pglite"})…\n`,
    );
    const seeding = await startBuiltServer({ ...env, NODE_ENV: "development", DEMO_DATA: "1" });
    await seeding.stop();
    const inspectPort = await freePort();
    site = await startBuiltServer(
      { ...env, NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort} ${nodeOptions}` },
      60_000,
      { logFile },
    );
    inspector = await inspectorClient(inspectPort);
    if (snapshots) mkdirSync(snapshots, { recursive: true });

    const stages = [];
    const stage = async (name) => {
      const reading = await readMemory(site.pid, inspector);
      stages.push({ name, ...reading });
      process.stderr.write(`${name}: RSS ${reading.rssMb.toFixed(0)} MB\n`);
    };

    if (args.includes("--trace-gc"))
      await inspector.evaluate(`process.getBuiltinModule("v8").setFlagsFromString("--trace-gc")`);
    await sleep(SETTLE_MS);
    await stage("idle");
    if (modulesFile) writeFileSync(modulesFile, `${(await inspector.scripts()).join("\n")}\n`);
    if (snapshots) await inspector.snapshot(path.join(snapshots, "idle.heapsnapshot"));

    process.stderr.write(`Mixed load: ${MIXED_LOAD_REQUESTS} requests…\n`);
    const promoted = Number(option(args, "promoted", "0"));
    if (promoted)
      await inspector.send("HeapProfiler.startSampling", {
        samplingInterval: 16384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: false,
      });
    const gzip = args.includes("--gzip");
    const load = await mixedLoad(site.url, { headers: gzip ? { "accept-encoding": "gzip" } : {} });
    if (promoted) {
      await inspector.send("HeapProfiler.collectGarbage");
      const { profile } = await inspector.send("HeapProfiler.getSamplingProfile");
      await inspector.send("HeapProfiler.stopSampling");
      printPromoted(profile, promoted);
    }
    await sleep(SETTLE_MS);
    await stage("after load");
    await inspector.send("HeapProfiler.collectGarbage");
    await sleep(1000);
    await stage("after full GC");
    if (trim) {
      mallocTrim(site.pid);
      await sleep(1000);
      await stage("after malloc_trim");
    }
    if (snapshots) await inspector.snapshot(path.join(snapshots, "after-load.heapsnapshot"));

    const report = {
      date: new Date().toISOString(),
      commit: execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim(),
      database: usePostgres ? "postgres" : "pglite",
      nodeOptions,
      gzip,
      load,
      loadAverage: os.loadavg()[0],
      stages,
    };
    print(report);
    if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  } catch (error) {
    if (site) process.stderr.write(site.output().slice(-4000));
    throw error;
  } finally {
    inspector?.close();
    await site?.stop();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** RSS from smaps, grouped, beside what V8 and node say they hold. */
async function readMemory(pid, inspector) {
  const maps = smaps(pid);
  const sum = (list) => list.reduce((total, map) => total + map.rss, 0) / 1024;
  const anonymous = maps.filter((map) => !map.path.startsWith("/"));
  // glibc's arenas for threads other than the main one live in heaps of 64 MB, aligned to 64 MB:
  // a read-write part followed, when it is not all in use, by an inaccessible rest.
  const arenas = anonymous.filter((map) => {
    if (map.path !== "" || map.start % (64 * MB) !== 0 || !map.perms.startsWith("rw")) return false;
    const rest = maps[maps.indexOf(map) + 1];
    const span =
      rest && rest.perms.startsWith("---") && rest.start === map.start + map.size * 1024
        ? map.size + rest.size
        : map.size;
    return span === 64 * 1024;
  });
  const v8 = await inspector.evaluate(`(() => {
    const v8 = process.getBuiltinModule("v8");
    return {
      usage: process.memoryUsage(),
      heap: v8.getHeapStatistics(),
      spaces: v8.getHeapSpaceStatistics(),
    };
  })()`);
  return {
    rssMb: sum(maps),
    smaps: {
      fileMb: sum(maps.filter((map) => map.path.startsWith("/"))),
      brkHeapMb: sum(maps.filter((map) => map.path === "[heap]")),
      threadArenasMb: sum(arenas),
      threadArenas: arenas.length,
      otherAnonymousMb: sum(
        anonymous.filter((map) => map.path !== "[heap]" && !arenas.includes(map)),
      ),
      largestAnonymous: anonymous
        .toSorted((a, b) => b.rss - a.rss)
        .slice(0, 8)
        .map((map) => ({
          start: map.start.toString(16),
          sizeMb: map.size / 1024,
          rssMb: map.rss / 1024,
          path: map.path,
        })),
    },
    usageMb: Object.fromEntries(Object.entries(v8.usage).map(([key, value]) => [key, value / MB])),
    mallocedMb: v8.heap.malloced_memory / MB,
    peakMallocedMb: v8.heap.peak_malloced_memory / MB,
    spaces: v8.spaces.map((space) => ({
      name: space.space_name.replace(/_space$/, ""),
      committedMb: space.space_size / MB,
      usedMb: space.space_used_size / MB,
    })),
  };
}

/** The process's mappings with their resident kB. */
function smaps(pid) {
  const maps = [];
  let current;
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const start = Number.parseInt(header[1], 16);
      current = {
        start,
        size: (Number.parseInt(header[2], 16) - start) / 1024,
        perms: header[3],
        path: header[4],
        rss: 0,
      };
      maps.push(current);
    } else if (current && line.startsWith("Rss:")) {
      current.rss = Number(/(\d+)/.exec(line)[1]);
    }
  }
  return maps;
}

function hasGdb() {
  try {
    execFileSync("gdb", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** glibc's malloc_trim(0) in the server, through gdb: what malloc held free but resident. */
function mallocTrim(pid) {
  execFileSync("gdb", ["-p", String(pid), "-batch", "-ex", "call (int) malloc_trim(0)"], {
    stdio: "ignore",
  });
}

function print(report) {
  const mb = (value) => value.toFixed(0).padStart(6);
  const names = report.stages.map((stage) => stage.name);
  const row = (label, pick) =>
    console.log(
      `${label.padEnd(34)}${report.stages.map((stage) => mb(pick(stage)).padStart(20)).join("")}`,
    );
  console.log(
    `Memory (MB), ${report.database}, commit ${report.commit}, load average ${report.loadAverage.toFixed(1)}; ` +
      `mixed load${report.gzip ? " (gzip)" : ""} ${report.load.rps.toFixed(0)} req/s, ${report.load.errors} errors`,
  );
  console.log(`${"".padEnd(34)}${names.map((name) => name.padStart(20)).join("")}`);
  row("RSS", (s) => s.rssMb);
  row("  files (code, .so, .node)", (s) => s.smaps.fileMb);
  row("  [heap] (main malloc arena)", (s) => s.smaps.brkHeapMb);
  row("  thread malloc arenas", (s) => s.smaps.threadArenasMb);
  row("  other anonymous (V8, mmaps)", (s) => s.smaps.otherAnonymousMb);
  row("V8 heap committed (heapTotal)", (s) => s.usageMb.heapTotal);
  row("V8 heap used", (s) => s.usageMb.heapUsed);
  row("external", (s) => s.usageMb.external);
  row("  of which array buffers", (s) => s.usageMb.arrayBuffers);
  row("V8's own malloc", (s) => s.mallocedMb);
  for (const space of report.stages[0].spaces) {
    const of = (s) => s.spaces.find((other) => other.name === space.name);
    console.log(
      `  ${space.name.padEnd(32)}${report.stages
        .map((s) => `${of(s).committedMb.toFixed(1)} / ${of(s).usedMb.toFixed(1)}`.padStart(20))
        .join("")}`,
    );
  }
  console.log("(spaces: committed / used)");
  for (const stage of report.stages) {
    console.log(`Largest anonymous mappings, ${stage.name}:`);
    for (const map of stage.smaps.largestAnonymous)
      console.log(
        `  ${map.start} ${mb(map.sizeMb)} MB mapped ${mb(map.rssMb)} MB resident ${map.path}`,
      );
  }
}

/** The functions whose allocations outlived the young generation, by bytes, with their callers. */
function printPromoted(profile, count) {
  const bySite = new Map();
  let total = 0;
  const frame = (node) =>
    `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*\/node_modules\//, "")}:${node.callFrame.lineNumber + 1}`;
  const walk = (node, parents) => {
    if (node.selfSize > 0) {
      const key = frame(node);
      const entry = bySite.get(key) ?? { bytes: 0, stacks: new Map() };
      entry.bytes += node.selfSize;
      const stack = parents.slice(-4).reverse().map(frame).join(" < ");
      entry.stacks.set(stack, (entry.stacks.get(stack) ?? 0) + node.selfSize);
      bySite.set(key, entry);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, [...parents, node]);
  };
  walk(profile.head, []);
  console.log(
    `Sampled allocations that outlived the young generation: ${(total / MB).toFixed(1)} MB`,
  );
  for (const [site, entry] of [...bySite].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, count)) {
    console.log(`${(entry.bytes / MB).toFixed(1).padStart(7)} MB  ${site}`);
    const [stack] = [...entry.stacks].sort((a, b) => b[1] - a[1]);
    console.log(`             < ${stack[0]}`);
  }
}
