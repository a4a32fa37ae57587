import type { AddressInfo } from "node:net";
import express from "express";
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { pageHandler } from "./pages";

/** The smallest build React Router serves: one resource route at "/" answering JSON. */
function tinyBuild(): ServerBuild {
  return {
    entry: { module: { default: () => new Response("no documents here", { status: 500 }) } },
    routes: {
      root: {
        id: "root",
        path: "",
        module: { loader: () => Response.json({ served: true }) },
      },
    },
    assets: { entry: { imports: [], module: "" }, routes: {}, url: "", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

/** Serves `handler`, sends `count` requests one after another, and returns their bodies. */
async function requestsThrough(handler: express.RequestHandler, count: number) {
  const app = express().use(handler);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const bodies: unknown[] = [];
    for (let i = 0; i < count; i++) bodies.push(await (await fetch(`${base}/`)).json());
    return bodies;
  } finally {
    server.close();
  }
}

describe("the page handler", () => {
  it("in production loads the build once and gives React Router the build itself, so its route table is built once", async () => {
    let loads = 0;
    const handler = pageHandler(
      async () => {
        loads += 1;
        return tinyBuild();
      },
      { development: false, getLoadContext: () => ({ cspNonce: "", clientAddress: "" }) },
    );

    const bodies = await requestsThrough(handler, 3);

    expect(bodies).toEqual([{ served: true }, { served: true }, { served: true }]);
    // React Router calls a build given as a function, and derives a new route table from it,
    // on every request: three requests would load it three times.
    expect(loads).toBe(1);
  });

  it("under Vite's dev server asks for the build on every request, so edited routes are served", async () => {
    let loads = 0;
    const handler = pageHandler(
      async () => {
        loads += 1;
        return tinyBuild();
      },
      { development: true, getLoadContext: () => ({ cspNonce: "", clientAddress: "" }) },
    );

    const bodies = await requestsThrough(handler, 3);

    expect(bodies).toEqual([{ served: true }, { served: true }, { served: true }]);
    expect(loads).toBe(3);
  });
});
