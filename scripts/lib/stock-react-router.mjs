// A stock React Router 7 app (framework mode, Express, production) that renders a given page body:
// the yardstick for what our own server adds or saves. It is written to a folder, built and served
// with the packages already installed in this project's node_modules (nothing is downloaded).
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decodeEntities, htmlToJsx } from "./html-to-jsx.mjs";
import { startBuiltServer } from "./start-server.mjs";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Takes our page's <body> without its scripts (the stock app adds its own), its <title> and
 * stylesheets, so the stock app renders the same document for the same path.
 * @param {string} html
 */
export function pageParts(html) {
  const withoutScripts = (text) =>
    text
      .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "")
      .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/g, "");
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "";
  // React escapes the title again when it renders it, so it is handed over as plain text.
  const title = decodeEntities(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? "");
  const stylesheets = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map(
    (match) => match[1],
  );
  return { body: withoutScripts(body), title, stylesheets };
}

/**
 * Writes and builds the app in `dir`: a root with <Meta>, <Links>, <ScrollRestoration> and
 * <Scripts>, and one route at `pathname` whose component renders `body`: as one string
 * (`dangerouslySetInnerHTML`), or with `as: "elements"` as the same elements written in JSX.
 * @param {string} dir an empty folder
 * @param {{ pathname: string, body: string, title: string, stylesheets: string[], as?: "string" | "elements" }} page
 */
export async function buildStockApp(dir, page) {
  const write = (file, text) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  // Resolves react-router, vite, express and the rest from this project's install.
  symlinkSync(path.join(PROJECT, "node_modules"), path.join(dir, "node_modules"), "dir");
  // React Router picks its default entry.server from the dependencies listed (node, with isbot).
  const ours = JSON.parse(readFileSync(path.join(PROJECT, "package.json"), "utf8"));
  const pick = (names, from) => Object.fromEntries(names.map((name) => [name, from[name]]));
  write(
    "package.json",
    JSON.stringify({
      name: "stock-react-router",
      private: true,
      type: "module",
      dependencies: pick(
        [
          "@react-router/express",
          "@react-router/node",
          "compression",
          "express",
          "isbot",
          "react",
          "react-dom",
          "react-router",
        ],
        ours.dependencies,
      ),
      devDependencies: pick(["@react-router/dev", "vite"], ours.devDependencies),
    }),
  );
  write("react-router.config.js", "export default { ssr: true };\n");
  write(
    "vite.config.js",
    `import { reactRouter } from "@react-router/dev/vite";
export default { cacheDir: ".vite", logLevel: "warn", plugins: [reactRouter()] };
`,
  );
  write(
    "app/routes.js",
    `import { route } from "@react-router/dev/routes";
export default [route(${JSON.stringify(page.pathname.replace(/^\//, ""))}, "routes/page.jsx")];
`,
  );
  write(
    "app/root.jsx",
    `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";

export function Layout({ children }) {
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
`,
  );
  write(
    "app/routes/page.jsx",
    `export const meta = () => [{ title: ${JSON.stringify(page.title)} }];
export const links = () => ${JSON.stringify(page.stylesheets)}.map((href) => ({ rel: "stylesheet", href }));

${
  page.as === "elements"
    ? `export default function Page() {
  return ${htmlToJsx(page.body)};
}`
    : `const BODY = ${JSON.stringify(page.body)};

export default function Page() {
  return <div dangerouslySetInnerHTML={{ __html: BODY }} />;
}`
}
`,
  );
  // As React Router's own server (@react-router/serve) does it, less the request log.
  write(
    "server.mjs",
    `import compression from "compression";
import express from "express";
import { createRequestHandler } from "@react-router/express";

const build = await import("./build/server/index.js");
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
app.use(express.static("build/client", { maxAge: "1h" }));
app.use(createRequestHandler({ build, mode: "production" }));
app.listen(Number(process.env.PORT), "127.0.0.1");
`,
  );

  const bin = path.join(PROJECT, "node_modules/@react-router/dev/bin.js");
  const child = spawn(process.execPath, [bin, "build"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`The stock React Router app did not build:\n${output}`);
}

/** Serves the app built in `dir` in production; ready once `pathname` answers. */
export function startStockApp(dir, pathname) {
  return startBuiltServer({ NODE_ENV: "production" }, 30_000, {
    script: "server.mjs",
    cwd: dir,
    readyPath: pathname,
  });
}
