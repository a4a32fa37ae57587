// Starts the built server on a free port and waits for /healthz. Shared by tests and benchmarks.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import net from "node:net";

/** @returns {Promise<number>} */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * @param {Record<string, string>} env extra environment for the server
 * @param {number} [timeoutMs]
 * @param {{ logFile?: string, script?: string, cwd?: string, readyPath?: string }} [options]
 *   logFile: also append everything the server prints to this file; script, cwd: another server
 *   to start the same way (a benchmark's comparison app); readyPath: answered 200 once it is up
 * @returns {Promise<{ url: string, pid: number | undefined, output: () => string, stop: () => Promise<void>, exited: Promise<unknown> }>}
 */
export async function startBuiltServer(env, timeoutMs = 60_000, options = {}) {
  const { script = "server/index.js", cwd, readyPath = "/healthz" } = options;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [script], {
    cwd,
    env: { ...process.env, NODE_ENV: "test", PORT: String(port), APP_URL: url, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let output = "";
  const record = (chunk) => {
    output += chunk;
    if (options.logFile) appendFileSync(options.logFile, chunk);
  };
  child.stdout.on("data", record);
  child.stderr.on("data", record);
  // Says how a server that stopped on its own ended (a crash, or a signal from elsewhere).
  child.once("exit", (code, signal) => record(`[exited: code ${code}, signal ${signal}]\n`));

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    try {
      const response = await fetch(`${url}${readyPath}`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`Server did not become healthy in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid,
    output: () => output,
    /** Resolves when the process has ended, however it ended. */
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** Production settings for measuring, on a throw-away embedded database. */
export function productionBenchEnv(pgliteDir) {
  return {
    NODE_ENV: "production",
    PGLITE_DIR: pgliteDir,
    DATABASE_URL: "",
    DEMO_DATA: "0",
    APP_URL: "http://127.0.0.1",
    AUTH_SECRET: "bench-only-secret-bench-only-secret-0000",
    SMTP_URL: "smtp://127.0.0.1:9",
    // Production refuses the simulated payment provider; the benchmarks never pay.
    PAYPAL_CLIENT_ID: "bench-client-id",
    PAYPAL_CLIENT_SECRET: "bench-client-secret",
    PAYPAL_ENV: "sandbox",
    PAYPAL_API_BASE: "http://127.0.0.1:9",
    // Every request of a benchmark comes from one address; the per-address limits have their own tests.
    RATE_LIMIT_SIGNUPS_PER_HOUR: "1000000",
    RATE_LIMIT_HOLDS_PER_HOUR: "1000000",
  };
}

/**
 * The built server in production mode on a throw-away database holding the demo's events and
 * people. Production refuses to seed demo data (its staff passwords are public), so a short
 * development-mode run seeds the folder first; nothing but a benchmark ever uses it.
 * @param {string} pgliteDir
 * @param {Record<string, string>} [env] more settings, such as a scratch Postgres DATABASE_URL
 */
export async function startProductionBenchServer(pgliteDir, env = {}) {
  const seeding = await startBuiltServer({
    ...productionBenchEnv(pgliteDir),
    ...env,
    NODE_ENV: "development",
    DEMO_DATA: "1",
  });
  await seeding.stop();
  return startBuiltServer({ ...productionBenchEnv(pgliteDir), ...env });
}
