import { Suspense } from "react";
// React Router's own handler, without Express: what is tested is the entry it calls.
// eslint-disable-next-line no-restricted-imports
import { createRequestHandler, Link, Outlet, type ServerBuild, useMatches } from "react-router";
import { useRouteError } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as entry from "./entry.server";
import { withErrorReference } from "./services/error-reference.server";
import { log } from "./services/log.server";
import { errorReferenceOf } from "./utils/error-reference";

/**
 * Script-free pages through React Router's own request handler and this site's entry, so that
 * React Router's `ServerRouter` is rendered as in production: once as a string and, when that
 * cannot give the page, again as a stream.
 */

function Broken(): never {
  throw new Error("broken page");
}

/** A page inside a layout: it names the routes it was rendered with and links to a sibling. */
function Inside() {
  return (
    <p>
      {useMatches()
        .map((match) => match.id)
        .join(" > ")}{" "}
      <Link to="/fine">Next</Link>
    </p>
  );
}

const pages = {
  fine: () => <main>All well</main>,
  broken: () => <Broken />,
  "broken-part": () => (
    <main>
      <Suspense fallback={<p>Part to come</p>}>
        <Broken />
      </Suspense>
    </main>
  ),
};

function Root() {
  return (
    <html lang="en-GB">
      <body>
        <Outlet />
      </body>
    </html>
  );
}

function RootError() {
  const reference = errorReferenceOf(useRouteError());
  return (
    <html lang="en-GB">
      <body>
        <h1>Something went wrong</h1>
        {reference && <p>Reference {reference}</p>}
      </body>
    </html>
  );
}

/** A loader that fails unexpectedly, answered as back-office loaders are (`staffRoute`). */
async function failingLoader({ request }: { request: Request }) {
  try {
    throw new Error("loader broke");
  } catch (error) {
    throw withErrorReference(error, request);
  }
}

function build(): ServerBuild {
  const manifestRoute = (id: string, parentId?: string, path?: string) => ({
    id,
    parentId,
    path,
    module: "",
    hasAction: false,
    hasLoader: id === "failing",
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: id === "root",
  });
  const routes: Record<string, unknown> = {
    root: { id: "root", path: "", module: { default: Root, ErrorBoundary: RootError } },
  };
  const manifest: Record<string, unknown> = { root: manifestRoute("root", undefined, "") };
  for (const [path, Page] of Object.entries(pages)) {
    routes[path] = { id: path, parentId: "root", path, module: { default: Page } };
    manifest[path] = manifestRoute(path, "root", path);
  }
  routes.failing = {
    id: "failing",
    parentId: "root",
    path: "failing",
    module: { default: pages.fine, loader: failingLoader },
  };
  manifest.failing = manifestRoute("failing", "root", "failing");
  routes.area = { id: "area", parentId: "root", path: "area", module: { default: Outlet } };
  manifest.area = manifestRoute("area", "root", "area");
  routes.inside = { id: "inside", parentId: "area", path: "inside", module: { default: Inside } };
  manifest.inside = manifestRoute("inside", "area", "inside");
  return {
    entry: { module: entry },
    routes,
    assets: { entry: { imports: [], module: "" }, routes: manifest, url: "", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

const handle = createRequestHandler(build(), "production");
const get = (path: string) =>
  handle(new Request(`http://site.test/${path}`), { cspNonce: "", clientAddress: "" });

/** The errors logged while `run` runs, by message, and the ids they were logged with. */
async function loggedWhile<T>(run: () => Promise<T>) {
  const logged: string[] = [];
  const ids: unknown[] = [];
  vi.spyOn(log, "error").mockImplementation(((details: { err?: Error; errorId?: unknown }) => {
    logged.push(details.err?.message ?? "?");
    ids.push(details.errorId);
  }) as never);
  const result = await run();
  return { result, logged, ids };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a page without scripts", () => {
  it("is sent whole, as one document", async () => {
    const { result: response, logged } = await loggedWhile(() => get("fine"));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html).toContain("<main>All well</main>");
    expect(logged).toEqual([]);
  });

  it("renders every route it matched, layouts included, and links to the site's other pages", async () => {
    const response = await get("area/inside");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(
      '<p>root &gt; area &gt; inside<!-- --> <a href="/fine" data-discover="true">Next</a></p>',
    );
  });

  it("that fails answers 500 with the error page, and the log names the page's own error", async () => {
    const { result: response, logged } = await loggedWhile(() => get("broken"));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("Something went wrong");
    expect(logged).toEqual(["broken page"]);
  });

  it("with a part that fails is sent as a stream, which logs that part's error", async () => {
    const { result: response, logged } = await loggedWhile(async () => {
      const answer = await get("broken-part");
      return { status: answer.status, html: await answer.text() };
    });
    expect(response.status).toBe(200);
    expect(response.html).toContain("Part to come");
    expect(logged).toEqual(["broken page"]);
  });
});

describe("a loader's unexpected error", () => {
  it("is logged once, and its error page gives the id it was logged with", async () => {
    const { result, logged, ids } = await loggedWhile(async () => {
      const answer = await get("failing");
      return { status: answer.status, html: await answer.text() };
    });
    expect(result.status).toBe(500);
    expect(logged).toEqual(["loader broke"]);
    expect(ids[0]).toMatch(/^[0-9a-f]{10}$/);
    expect(result.html).toContain(`<p>Reference <!-- -->${String(ids[0])}</p>`);
    // The error itself stays in the log: the page names only the reference.
    expect(result.html).not.toContain("loader broke");
  });
});
