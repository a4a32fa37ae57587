// Per page: JavaScript on first load, requests per second and p99 beside a bare node:http server
// sending the same bytes, and for /about-us beside a stock React Router 7 app rendering the same
// body (as one string, and as the same elements in JSX); the server's memory idle and after a fixed
// mixed load. Production build, demo data.
// Usage: npm run build && node scripts/bench/pages.mjs [--postgres] [--seconds 2] [--rounds 3]
//          [--connections 10] [--pages /,/about-us,...] [--json FILE]
// Default: the embedded PGlite database. --postgres: a scratch database on 127.0.0.1:5432 (dropped
// afterwards). "/event/:id" in --pages stands for a bookable demo event.
//
// "anonymous" requests carry no cookie. "uncached" ones carry `Cookie: bench=1`, which no part of
// the site reads but which marks a request as possibly someone's, so the kept pages
// (server/page-cache.ts) pass over it: the cost of rendering the page every time.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../lib/chromium.mjs";
import { firstLoadJs } from "../lib/first-load-js.mjs";
import {
  fixedLoad,
  measure,
  memoryOf,
  option,
  sleep,
  spread,
  startBareServer,
} from "../lib/load.mjs";
import {
  ALL_PAGES,
  bookableEventId,
  CONTENT_PAGES,
  MIXED_LOAD_REQUESTS,
  mixedLoad,
  UNCACHED,
} from "../lib/mixed-load.mjs";
import { createScratchDatabase } from "../lib/scratch-postgres.mjs";
import { startProductionBenchServer } from "../lib/start-server.mjs";
import { buildStockApp, pageParts, startStockApp } from "../lib/stock-react-router.mjs";

const args = process.argv.slice(2);
const usePostgres = args.includes("--postgres");
const seconds = Number(option(args, "seconds", "2"));
const rounds = Number(option(args, "rounds", "3"));
const connections = Number(option(args, "connections", "10"));
const jsonFile = option(args, "json", undefined);

const STOCK_PATH = "/about-us";
const WARM_UP_REQUESTS = 300;
const SETTLE_MS = 5000;

const requested = option(args, "pages", undefined)?.split(",") ?? ALL_PAGES;
const database = usePostgres ? "postgres" : "pglite";
const progress = (text) => process.stderr.write(`${text}\n`);
const loadAverage = () => os.loadavg()[0];

const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-bench-"));
// The stock app renders the body as one string (the yardstick issue 17 set) and, in a second app,
// as the same elements written in JSX (React rendering the same tree ours renders).
const STOCK_KINDS = ["string", "elements"];
const stockDirs = Object.fromEntries(
  STOCK_KINDS.map((kind) => [
    kind,
    mkdtempSync(path.join(os.tmpdir(), `mhat-bench-stock-${kind}-`)),
  ]),
);
const scratch = usePostgres ? await createScratchDatabase() : undefined;
const started = [];
const report = {
  date: new Date().toISOString(),
  commit: execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim(),
  database,
  connections,
  seconds,
  rounds,
  cpus: os.cpus().length,
  loadAverage: { start: loadAverage(), end: 0 },
};

try {
  progress(`Starting the site (production, demo data, ${database})…`);
  const site = await startProductionBenchServer(dir, scratch ? { DATABASE_URL: scratch.url } : {});
  started.push(site);
  // Idle: started and healthy, no page served yet.
  await sleep(SETTLE_MS);
  const idle = memoryOf(site.pid);

  const eventId = await bookableEventId(site.url);
  const concrete = (page) => (page === "/event/:id" ? `/event/${eventId}` : page);
  const pages = requested.map(concrete);

  // The bytes each page answers (no compression: autocannon asks for none), for bare node.
  const answers = {};
  for (const page of new Set([...pages, STOCK_PATH]))
    answers[page] = await fetchAnswer(site.url, page);
  const uncachedStatus = await Promise.all(
    pages.map((page) => fetch(`${site.url}${page}`, { headers: UNCACHED }).then((r) => r.status)),
  );
  if (uncachedStatus.some((status) => status !== 200))
    throw new Error(`An uncached request failed: ${uncachedStatus.join(", ")}`);

  progress(`Mixed load: ${MIXED_LOAD_REQUESTS} requests over ${ALL_PAGES.length} pages…`);
  // Always every page, anonymous and uncached in turn, whatever --pages says (scripts/lib/mixed-load.mjs).
  const mixed = await mixedLoad(site.url, { connections, eventId });
  await sleep(SETTLE_MS);
  const afterLoad = memoryOf(site.pid);

  const stocks = {};
  const stockAnswers = {};
  const ourParts = pageParts(answers[STOCK_PATH].body.toString());
  for (const kind of STOCK_KINDS) {
    progress(`Building the stock React Router app (the body as ${kind})…`);
    await buildStockApp(stockDirs[kind], { pathname: STOCK_PATH, ...ourParts, as: kind });
    stocks[kind] = await startStockApp(stockDirs[kind], STOCK_PATH);
    started.push(stocks[kind]);
    stockAnswers[kind] = await fetchAnswer(stocks[kind].url, STOCK_PATH);
  }
  // The elements app must render our body byte for byte, or it measures something else.
  const withoutSuspenseMarks = (body) => body.replace(/<!--\/?\$-->/g, "");
  if (
    withoutSuspenseMarks(pageParts(stockAnswers.elements.body.toString()).body) !==
    withoutSuspenseMarks(ourParts.body)
  )
    throw new Error("The stock app's elements did not render the site's body byte for byte");
  const bare = await startBareServer(dir, {
    ...answers,
    ...Object.fromEntries(
      STOCK_KINDS.map((kind) => [`/stock-${kind}${STOCK_PATH}`, stockAnswers[kind]]),
    ),
  });
  started.push(bare);

  // Warm-up, not counted: the bare server's and the stock app's code gets compiled as the site's
  // did during the mixed load.
  await fixedLoad({
    url: bare.url,
    connections,
    amount: 2000,
    requests: Object.keys(answers).map((page) => ({ path: page })),
  });
  for (const kind of STOCK_KINDS)
    await fixedLoad({
      url: stocks[kind].url,
      connections,
      amount: 1000,
      requests: [{ path: STOCK_PATH }],
    });

  // Rounds interleave everything, so a busy moment on the shared machine hits all alike.
  const runs = new Map();
  const record = (key, result) => runs.set(key, [...(runs.get(key) ?? []), result]);
  // Each measured load follows a short one that is not counted: a process left idle while the
  // others are measured (a minute or more) has let V8 cool its code and shrink its heap, and its
  // first second would measure that (the stock app, idle longest, measured 1.1–1.2 ms an answer
  // in full runs against 0.6–0.8 ms when measured alone).
  const load = async (server, page, headers) => {
    await fixedLoad({
      url: server.url,
      connections,
      amount: WARM_UP_REQUESTS,
      requests: [{ path: page, headers }],
    });
    return measure({ url: `${server.url}${page}`, connections, seconds, headers, pid: server.pid });
  };
  for (let round = 1; round <= rounds; round++) {
    progress(`Round ${round} of ${rounds}…`);
    for (const page of pages) {
      record(`${page} anonymous`, await load(site, page));
      record(`${page} uncached`, await load(site, page, UNCACHED));
      record(`${page} bare`, await load(bare, page));
    }
    for (const kind of STOCK_KINDS) {
      record(`stock ${kind}`, await load(stocks[kind], STOCK_PATH));
      record(`stock ${kind} bare`, await load(bare, `/stock-${kind}${STOCK_PATH}`));
    }
  }
  const afterRounds = memoryOf(site.pid);

  progress("JavaScript on first load (Chromium)…");
  const js = {};
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    for (const page of pages) js[page] = await firstLoadJs(browser, `${site.url}${page}`);
    for (const kind of STOCK_KINDS)
      js[`stock ${kind}`] = await firstLoadJs(browser, `${stocks[kind].url}${STOCK_PATH}`);
  } finally {
    await browser.close();
  }

  const of = (key) => {
    const results = runs.get(key);
    return {
      rps: spread(results.map((result) => result.rps)),
      p99: spread(results.map((result) => result.p99)).median,
      cpuMs: spread(results.map((result) => result.cpuMs)).median,
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      rounds: results,
    };
  };
  const share = (site, base) => site.rps.median / base.rps.median;
  report.pages = pages.map((page, index) => {
    const anonymous = of(`${page} anonymous`);
    const uncached = of(`${page} uncached`);
    const bareNode = of(`${page} bare`);
    return {
      path: requested[index],
      url: page,
      bytes: answers[page].body.length,
      shared: answers[page].shared,
      js: js[page],
      anonymous,
      uncached,
      bare: bareNode,
      anonymousOfBare: share(anonymous, bareNode),
      uncachedOfBare: share(uncached, bareNode),
    };
  });
  const siteStock = report.pages.find((page) => page.url === STOCK_PATH);
  const stockReport = (kind) => {
    const stockRuns = of(`stock ${kind}`);
    const stockBare = of(`stock ${kind} bare`);
    return {
      path: STOCK_PATH,
      body: kind,
      bytes: stockAnswers[kind].body.length,
      js: js[`stock ${kind}`],
      anonymous: stockRuns,
      bare: stockBare,
      ofBare: share(stockRuns, stockBare),
      siteUncachedOfStock: siteStock ? share(siteStock.uncached, stockRuns) : undefined,
      siteAnonymousOfStock: siteStock ? share(siteStock.anonymous, stockRuns) : undefined,
      // The same comparison by the server's CPU time per answer (stock's over the site's).
      siteUncachedOfStockByCpu: siteStock ? stockRuns.cpuMs / siteStock.uncached.cpuMs : undefined,
    };
  };
  report.stock = stockReport("string");
  report.stockElements = stockReport("elements");
  report.mixedLoad = { requests: MIXED_LOAD_REQUESTS, ...mixed };
  report.memory = {
    idleMb: idle.rssMb,
    afterLoadMb: afterLoad.rssMb,
    peakAfterLoadMb: afterLoad.peakMb,
    afterRoundsMb: afterRounds.rssMb,
    peakMb: afterRounds.peakMb,
  };
  report.loadAverage.end = loadAverage();
  print(report);
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
} catch (error) {
  // A server that stopped says why in its own output.
  for (const server of started) if (server.output) progress(server.output().slice(-4000));
  throw error;
} finally {
  for (const server of started.reverse()) await server.stop();
  await scratch?.drop();
  rmSync(dir, { recursive: true, force: true });
  for (const stockDir of Object.values(stockDirs))
    rmSync(stockDir, { recursive: true, force: true });
}

/** One anonymous answer as autocannon gets it: status 200 expected, no compression. */
async function fetchAnswer(base, page) {
  const response = await fetch(`${base}${page}`, { headers: { "accept-encoding": "identity" } });
  if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
  return {
    type: response.headers.get("content-type") ?? "application/octet-stream",
    body: Buffer.from(await response.arrayBuffer()),
    // Marked for every visitor (no scripts, so no nonce): the server keeps it (D-141, D-153).
    shared: /^public\b/.test(response.headers.get("cache-control") ?? ""),
  };
}

function print(report) {
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  const rate = ({ rps }) =>
    `${rps.median.toFixed(0)} [${rps.min.toFixed(0)}–${rps.max.toFixed(0)}]`;
  const percent = (ratio) => `${(ratio * 100).toFixed(1)}%`;
  const row = (cells, widths) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ");
  const ms = (value) => (value === undefined ? "" : value.toFixed(2));
  const widths = [18, 6, 7, 16, 5, 6, 16, 5, 6, 20, 5, 6, 6, 6];

  console.log(
    `\nPages, production build, demo data, database: ${report.database}; ${report.connections} connections, ` +
      `${report.rounds} rounds of ${report.seconds} s: req/s median [min–max]; p99 latency and CPU ms (the server ` +
      `process's CPU time per answer) medians of the rounds.`,
  );
  console.log(
    `Commit ${report.commit}, ${report.cpus} cores, load average ${report.loadAverage.start.toFixed(2)} at the start and ` +
      `${report.loadAverage.end.toFixed(2)} at the end: other work on the machine moves req/s and p99 (CPU ms least).`,
  );
  console.log(
    `JS: gzip KB on first load (Chromium). "uncached" sends Cookie: bench=1. anon %, unc. %: req/s as a share of ` +
      `a node:http server's sending the same bytes.\n`,
  );
  console.log(
    row(
      [
        "page",
        "JS KB",
        "body KB",
        "anonymous req/s",
        "p99",
        "CPU ms",
        "uncached req/s",
        "p99",
        "CPU ms",
        "bare node req/s",
        "p99",
        "CPU ms",
        "anon %",
        "unc. %",
      ],
      widths,
    ),
  );
  for (const page of report.pages) {
    const errors = page.anonymous.errors + page.uncached.errors;
    console.log(
      row(
        [
          page.path,
          kb(page.js.gzip),
          kb(page.bytes),
          rate(page.anonymous),
          String(page.anonymous.p99),
          ms(page.anonymous.cpuMs),
          rate(page.uncached),
          String(page.uncached.p99),
          ms(page.uncached.cpuMs),
          rate(page.bare),
          String(page.bare.p99),
          ms(page.bare.cpuMs),
          percent(page.anonymousOfBare),
          percent(page.uncachedOfBare),
        ],
        widths,
      ) + (errors ? `  (${errors} errors or non-2xx)` : ""),
    );
  }
  for (const stock of [report.stock, report.stockElements])
    console.log(
      row(
        [
          `stock ${stock.body}`,
          kb(stock.js.gzip),
          kb(stock.bytes),
          rate(stock.anonymous),
          String(stock.anonymous.p99),
          ms(stock.anonymous.cpuMs),
          "",
          "",
          "",
          rate(stock.bare),
          String(stock.bare.p99),
          ms(stock.bare.cpuMs),
          percent(stock.ofBare),
          "",
        ],
        widths,
      ) + (stock.anonymous.errors ? `  (${stock.anonymous.errors} errors or non-2xx)` : ""),
    );
  const described = {
    string: "rendering the body as one string",
    elements: "rendering the same elements (JSX)",
  };
  for (const stock of [report.stock, report.stockElements])
    if (stock.siteUncachedOfStock !== undefined)
      console.log(
        `${stock === report.stock ? "\n" : ""}Site ${stock.path} beside the stock React Router app ${described[stock.body]}: ` +
          `uncached ${percent(stock.siteUncachedOfStock)} of its req/s (${percent(stock.siteUncachedOfStockByCpu)} by CPU per answer), ` +
          `anonymous ${percent(stock.siteAnonymousOfStock)}.`,
      );
  const stock = report.stock;

  const memory = report.memory;
  console.log(
    `Server RSS: idle ${memory.idleMb.toFixed(0)} MB; ${(SETTLE_MS / 1000).toFixed(0)} s after the mixed load ` +
      `(${report.mixedLoad.requests} requests, ${report.mixedLoad.rps.toFixed(0)} req/s, ${report.mixedLoad.errors} errors) ` +
      `${memory.afterLoadMb.toFixed(0)} MB (+${(memory.afterLoadMb - memory.idleMb).toFixed(0)}), peak ${memory.peakAfterLoadMb.toFixed(0)} MB; ` +
      `after all rounds ${memory.afterRoundsMb.toFixed(0)} MB, peak ${memory.peakMb.toFixed(0)} MB.`,
  );

  // Issue 17's goals, measured here and never as tests.
  const goal = (met, text) => console.log(`  ${met ? "met    " : "not met"}  ${text}`);
  console.log("\nGoals:");
  const content = report.pages.filter((page) => CONTENT_PAGES.includes(page.path));
  if (content.length)
    goal(
      content.every((page) => page.js.gzip === 0),
      `content pages load 0 KB of JavaScript: ${content.map((page) => `${page.path} ${kb(page.js.gzip)}`).join(", ")}`,
    );
  if (stock.siteUncachedOfStock !== undefined)
    goal(
      stock.siteUncachedOfStock >= 1,
      `uncached ${stock.path} at least as fast as the stock React Router app (body as one string): ${percent(stock.siteUncachedOfStock)}`,
    );
  // The pages the server keeps for anonymous visitors; a page with scripts carries a nonce of its
  // own in every answer, so it is never kept and is not one of them.
  const htmlPages = report.pages.filter((page) => !page.path.startsWith("/api/") && page.shared);
  if (htmlPages.length) {
    const slowest = htmlPages.reduce((a, b) => (a.anonymousOfBare <= b.anonymousOfBare ? a : b));
    goal(
      slowest.anonymousOfBare >= 0.5,
      `cached anonymous pages ≥ 50% of bare node: lowest ${slowest.path} ${percent(slowest.anonymousOfBare)} (of ${htmlPages.length} kept pages)`,
    );
  }
  const api = report.pages.find((page) => page.path === "/api/events");
  if (api)
    goal(
      api.anonymousOfBare >= 0.25,
      `/api/events ≥ 25% of bare node: ${percent(api.anonymousOfBare)}`,
    );
  if (report.database === "postgres")
    goal(
      memory.afterLoadMb < 250,
      `RSS after the mixed load under 250 MB on Postgres: ${memory.afterLoadMb.toFixed(0)} MB`,
    );
  else
    goal(
      memory.afterLoadMb - memory.idleMb <= 100,
      `RSS after the mixed load at most idle + 100 MB on PGlite: +${(memory.afterLoadMb - memory.idleMb).toFixed(0)} MB`,
    );
}
