// JavaScript a page downloads on first load, raw and gzip-compressed.
// Usage: npm run build && node scripts/bench/js-bytes.mjs [/path ...]   (default: / /about-us /news)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { firstLoadJs } from "../lib/first-load-js.mjs";
import { startProductionBenchServer } from "../lib/start-server.mjs";

const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/about-us", "/news"];
const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-bench-"));
const server = process.env.BASE_URL ? null : await startProductionBenchServer(dir);
const base = process.env.BASE_URL ?? server.url;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });

try {
  console.log(`JS on first load, ${base}`);
  console.log("path".padEnd(16), "files  raw KB   gzip KB");
  for (const pathname of paths) {
    const { files, raw, gzip } = await firstLoadJs(browser, `${base}${pathname}`);
    console.log(
      pathname.padEnd(16),
      String(files).padEnd(6),
      (raw / 1024).toFixed(1).padEnd(8),
      (gzip / 1024).toFixed(1),
    );
  }
} finally {
  await browser.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
