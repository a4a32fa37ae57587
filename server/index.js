// The service's entry point: serves the built site (or Vite in development) behind the security layer.
import { existsSync } from "node:fs";
import http from "node:http";
import v8 from "node:v8";
import compression from "compression";
import express from "express";

// V8 lets the old generation grow to about four times what survived its last full collection
// before it collects again (its factor on machines with 2 GB or more), so under steady traffic the
// server held some 250 MB of dead requests it had not collected yet. Growing by half instead keeps
// that to tens of MB for a few more, short, collections (D-149 to D-152 in docs/DECISIONS.md). An
// explicit `node --heap-growing-percent=N` wins.
if (!process.execArgv.some((arg) => arg.startsWith("--heap-growing-percent")))
  v8.setFlagsFromString("--heap-growing-percent=50");

// Settings from .env, if there is one; variables already set in the environment win.
if (existsSync(".env")) process.loadEnvFile(".env");

// `--dev` serves through Vite with hot reload; otherwise the built site in build/ is served.
const DEVELOPMENT = process.argv.includes("--dev");

let server;
let vite;
if (DEVELOPMENT) {
  vite = await import("vite").then((mod) => mod.createServer({ server: { middlewareMode: true } }));
  server = await vite.ssrLoadModule("./server/app.ts");
} else {
  server = await import("../build/server/index.js");
}

/** A bad setting, or the embedded database already in use: its lines, no stack, exit code 1. */
function refuseToStart(error) {
  if (!(error instanceof server.SetupError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

let settings;
let runtime;
try {
  settings = server.config();
  runtime = await server.startup();
} catch (error) {
  await vite?.close();
  refuseToStart(error);
}

const app = express();
app.disable("x-powered-by");
// Validated and typed by the configuration: true/false, a count of proxies, or a list of addresses.
if (settings.TRUST_PROXY !== undefined) app.set("trust proxy", settings.TRUST_PROXY);
app.use(compression());

app.use(server.security({ viteDevServer: DEVELOPMENT }));
if (vite) {
  app.use(vite.middlewares);
} else {
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  // robots.txt, the icon: listed once at start, so a page request does not ask the disk first.
  app.use(server.fixedFiles("build/client", { maxAge: "1h", index: false }));
}
app.use(server.handler);

// A page kept for every visitor without a session is sent before Express runs at all.
const listener = http.createServer((req, res) => {
  if (!server.answerFromKept(req, res)) app(req, res);
});
const cannotListen = (error) => {
  process.stderr.write(`Cannot listen on ${settings.HOST} port ${settings.PORT}: ${error.code}\n`);
  process.exit(1);
};
// A request too broken to read gets its 400 or 431 even while its body is still arriving.
listener.on("clientError", server.answerClientError);
listener.once("error", cannotListen);
listener.listen(settings.PORT, settings.HOST, () => {
  listener.off("error", cannotListen);
  const address = listener.address();
  const host = typeof address === "object" && address ? address.address : settings.HOST;
  const port = typeof address === "object" && address ? address.port : settings.PORT;
  const shown = host.includes(":") ? `[${host}]` : host;
  server.log.info(`Listening on http://${shown}:${port} (database: ${runtime.driver})`);
});

async function shutdown() {
  listener.close();
  await vite?.close();
  await runtime.shutdown();
  process.exit(0);
}
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
