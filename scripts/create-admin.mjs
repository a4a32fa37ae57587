// `npm run create-admin -- --email someone@example.org`: prints a one-time link that sets up the
// first admin account. Uses the built server when there is one, otherwise the source through Vite.
// With the embedded database (PGlite), stop the site first: only one process can open it, and
// this refuses while the site holds it.
import { existsSync } from "node:fs";

if (existsSync(".env")) process.loadEnvFile(".env");

let server;
let vite;
if (existsSync("build/server/index.js")) {
  server = await import("../build/server/index.js");
} else {
  vite = await import("vite").then((mod) =>
    mod.createServer({ server: { middlewareMode: true }, logLevel: "error" }),
  );
  server = await vite.ssrLoadModule("./server/app.ts");
}
let code;
try {
  code = await server.createAdminFromCommandLine(process.argv.slice(2));
} catch (error) {
  // A bad setting, or the site holding the embedded database: its lines, without a stack.
  if (!(error instanceof server.SetupError)) throw error;
  process.stderr.write(`${error.message}\n`);
  code = 1;
}
await vite?.close();
process.exit(code);
