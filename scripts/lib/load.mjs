// Shared pieces of the load benchmarks: options, autocannon runs, the bare node:http baseline,
// medians of rounds and a process's memory.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

/** `--name value` from the command line, or the fallback. */
export function option(args, name, fallback) {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && index + 1 < args.length ? args[index + 1] : fallback;
}

/**
 * One autocannon run against `url` for `seconds` with `connections` keep-alive connections.
 * Requests per second are all answers over the run's own duration (autocannon's per-second
 * average drops the part second at the end, which matters in short runs). Given the server's
 * `pid`, also the CPU time that process spent per answer: the figure other work on a shared
 * machine moves least, because waiting for a core costs no CPU time.
 * @returns {Promise<{ rps: number, p99: number, errors: number, bytes: number, cpuMs?: number }>}
 */
export async function measure({ url, connections, seconds, headers = {}, pid = undefined }) {
  const before = pid ? cpuTimeMs(pid) : 0;
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const cpu = pid ? { cpuMs: (cpuTimeMs(pid) - before) / Math.max(result.requests.total, 1) } : {};
  return { ...summary(result), ...cpu };
}

/**
 * A fixed number of requests, cycling through `requests` on each connection: the same load every run.
 * @param {{ url: string, connections: number, amount: number, requests: { path: string, headers?: Record<string, string> }[] }} options
 */
export async function fixedLoad({ url, connections, amount, requests }) {
  const result = await autocannon({
    url,
    connections,
    amount,
    requests: requests.map((request) => ({ method: "GET", ...request })),
  });
  return summary(result);
}

function summary(result) {
  return {
    rps: result.requests.total / result.duration,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    bytes: result.throughput.total,
  };
}

/**
 * A bare node:http server in its own process answering each path with the bytes given.
 * @param {string} dir where to leave the answers for it
 * @param {Record<string, { type: string, body: Buffer }>} answers path -> content type and body
 * @returns {Promise<{ url: string, pid: number | undefined, stop: () => void }>}
 */
export async function startBareServer(dir, answers) {
  const file = path.join(dir, "bare-answers.json");
  const listed = Object.fromEntries(
    Object.entries(answers).map(([key, { type, body }]) => [
      key,
      { type, body: body.toString("base64") },
    ]),
  );
  writeFileSync(file, JSON.stringify(listed));
  const script = fileURLToPath(new URL("./bare-server.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, file], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
    child.stdout.once("data", (chunk) => resolve(Number(String(chunk).trim())));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill("SIGTERM") };
}

/** Median, lowest and highest of a few rounds. */
export function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** A process's resident memory now and at its peak, in MB, from /proc (Linux). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rssMb: kilobytes("VmRSS") / 1024, peakMb: kilobytes("VmHWM") / 1024 };
}

let ticksPerSecond;
/** User and system CPU time a process has used so far, in ms, from /proc (Linux). */
export function cpuTimeMs(pid) {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
