// JavaScript a page downloads on first load, raw and gzip-compressed.
// Usage: npm run build && node scripts/bench/js-bytes.mjs [/path ...]   (default: / /about-us /news)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
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
    const page = await browser.newPage();
    const scripts = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() === "script")
        scripts.push(response.body().catch(() => Buffer.alloc(0)));
    });
    await page.goto(`${base}${pathname}`, { waitUntil: "networkidle" });
    const bodies = await Promise.all(scripts);
    const raw = bodies.reduce((sum, body) => sum + body.length, 0);
    const gzip = bodies.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
    console.log(
      pathname.padEnd(16),
      String(bodies.length).padEnd(6),
      (raw / 1024).toFixed(1).padEnd(8),
      (gzip / 1024).toFixed(1),
    );
    await page.close();
  }
} finally {
  await browser.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
