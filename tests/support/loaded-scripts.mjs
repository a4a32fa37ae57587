// Preloaded into a server (NODE_OPTIONS=--import=this file) by tests that check which modules it
// loads: every script V8 compiles, from the start, is written to LOADED_SCRIPTS_FILE at exit.
// Through the inspector, so ES modules, CommonJS and data-only modules all count.
import { writeFileSync } from "node:fs";
import inspector from "node:inspector";

const file = process.env.LOADED_SCRIPTS_FILE;
if (file) {
  const urls = new Set();
  const session = new inspector.Session();
  session.connect();
  session.on("Debugger.scriptParsed", ({ params }) => {
    if (params.url) urls.add(params.url);
  });
  session.post("Debugger.enable");
  process.on("exit", () => writeFileSync(file, [...urls].join("\n")));
}
