// Lighthouse (mobile preset) on the built site in production mode, with Debian's Chromium.
// Usage: npm run build && node scripts/bench/lighthouse.mjs [--runs 3] [/path ...]
//          (default: / /about-us /news; each page's median run of --runs is shown)
// "/event/:id" stands for a bookable demo event.
// Set BASE_URL to measure a server that is already running instead.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import zlib from "node:zlib";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { bookableEventId } from "../lib/mixed-load.mjs";
import { startProductionBenchServer } from "../lib/start-server.mjs";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const named = args.filter((arg, index) => arg.startsWith("/") && index !== runsAt + 1);
const paths = named.length ? named : ["/", "/about-us", "/news"];
const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-bench-"));

// This machine has no way out to the internet, so map tiles come from a local stand-in for the
// tile server: a grey 256 px PNG for every tile. Without it, the map pages log a failed request
// per tile and Lighthouse marks them down for an error this site would not have.
const GREY_TILE = greyPng(256);
const tiles = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "image/png", "Cache-Control": "max-age=3600" });
  res.end(GREY_TILE);
});
await new Promise((resolve) => tiles.listen(0, "127.0.0.1", resolve));
const tileUrl = `http://127.0.0.1:${tiles.address().port}/{z}/{x}/{y}.png`;
const server = process.env.BASE_URL
  ? null
  : await startProductionBenchServer(dir, { MAP_TILE_URL: tileUrl });
const base = process.env.BASE_URL ?? server.url;

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: CHROMIUM_FLAGS,
});
try {
  console.log(`Lighthouse ${base} (mobile, simulated throttling)`);
  console.log("path".padEnd(16), "perf  a11y  best  seo   LCP     TBT    CLS");
  const eventId = paths.includes("/event/:id") ? await bookableEventId(base) : undefined;
  for (const pathname of paths.map((page) =>
    page === "/event/:id" ? `/event/${eventId}` : page,
  )) {
    // Lighthouse's own advice: several runs, and the median one (by FCP and time to interactive).
    const runs = [];
    // A run whose trace Lighthouse could not record (NO_NAVSTART, now and then here) is run again.
    for (let attempt = 0; runs.length < RUNS; attempt++) {
      const { lhr } = await lighthouse(`${base}${pathname}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
      });
      if (!lhr.runtimeError) runs.push(lhr);
      else if (attempt >= RUNS * 2) throw new Error(`${pathname}: ${lhr.runtimeError.message}`);
    }
    const result = { lhr: computeMedianRun(runs) };
    const { categories, audits } = result.lhr;
    const score = (key) => String(Math.round((categories[key]?.score ?? 0) * 100)).padEnd(5);
    console.log(
      pathname.padEnd(16),
      score("performance"),
      score("accessibility"),
      score("best-practices"),
      score("seo"),
      (audits["largest-contentful-paint"].displayValue ?? "-").padEnd(7),
      (audits["total-blocking-time"].displayValue ?? "-").padEnd(6),
      audits["cumulative-layout-shift"].displayValue ?? "-",
      RUNS > 1
        ? `  (median of ${RUNS}; perf ${runs.map((run) => Math.round(run.categories.performance.score * 100)).join(", ")})`
        : "",
    );
    const failing = Object.values(audits).filter(
      (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === "binary",
    );
    for (const audit of failing) {
      console.log(`    failing: ${audit.id}: ${audit.title}`);
      // What it found, in a line each (a console message, a URL): enough to know where to look.
      for (const item of (audit.details?.items ?? []).slice(0, 5))
        console.log(
          `      ${String(item.description ?? item.url ?? item.source ?? "").slice(0, 160)}`,
        );
    }
    if (categories.performance?.score < 1) {
      // The metrics that cost points, with their scores, for a page under 100.
      for (const id of [
        "first-contentful-paint",
        "largest-contentful-paint",
        "total-blocking-time",
        "speed-index",
        "cumulative-layout-shift",
      ])
        if (audits[id].score < 1)
          console.log(`    ${id}: ${audits[id].displayValue} (score ${audits[id].score})`);
    }
  }
} finally {
  chrome.kill();
  await server?.stop();
  tiles.close();
  rmSync(dir, { recursive: true, force: true });
}

/** A valid PNG of `size` × `size` grey pixels (8-bit greyscale, no filter). */
function greyPng(size) {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per sample
  header[9] = 0; // greyscale
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size, 0xcc)]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
