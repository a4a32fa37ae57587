// Lighthouse (mobile preset) on the built site in production mode, with Debian's Chromium.
// Usage: npm run build && node scripts/bench/lighthouse.mjs [/path ...]   (default: / /about-us /news)
// Set BASE_URL to measure a server that is already running instead.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { startProductionBenchServer } from "../lib/start-server.mjs";

const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/about-us", "/news"];
const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-bench-"));
const server = process.env.BASE_URL ? null : await startProductionBenchServer(dir);
const base = process.env.BASE_URL ?? server.url;

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: CHROMIUM_FLAGS,
});
try {
  console.log(`Lighthouse ${base} (mobile, simulated throttling)`);
  console.log("path".padEnd(16), "perf  a11y  best  seo   LCP     TBT    CLS");
  for (const pathname of paths) {
    const result = await lighthouse(`${base}${pathname}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
    });
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
    );
    const failing = Object.values(audits).filter(
      (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === "binary",
    );
    for (const audit of failing) console.log(`    failing: ${audit.id}: ${audit.title}`);
  }
} finally {
  chrome.kill();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
