import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTtlMap } from "#app/domain/ttl-cache";
import type { SharedPage } from "#app/services/page-cache.server";
import { sharedPageCache } from "./page-cache";

const store = createTtlMap<SharedPage>({ ttlMs: 60_000, maxEntries: 10 });
let renders = 0;
let base: string;
let close: () => void;
/** Lets a test change the database "while" a page renders. */
let duringRender: () => void = () => {};

beforeAll(async () => {
  const app = express();
  app.use(sharedPageCache(() => store));
  // A stand-in for the page renderer: each render is numbered, so a kept copy shows an old number.
  app.get("/page", (req, res) => {
    renders += 1;
    duringRender();
    res.set("Cache-Control", String(req.query.cache ?? "public, max-age=10"));
    res.set("Vary", "Cookie");
    if (req.query.cookie) res.set("Set-Cookie", "flash=1");
    res.status(Number(req.query.status ?? 200)).type("html");
    res.write("<p>render ");
    res.end(`${renders}</p>`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());
beforeEach(() => {
  store.clear();
  renders = 0;
  duringRender = () => {};
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { headers: { "Accept-Encoding": "identity", ...headers } });

describe("sharedPageCache", () => {
  it("sends a public page again from memory, with its own headers", async () => {
    expect(await (await get("/page")).text()).toBe("<p>render 1</p>");
    const again = await get("/page");
    expect(await again.text()).toBe("<p>render 1</p>");
    expect(again.headers.get("cache-control")).toBe("public, max-age=10");
    expect(again.headers.get("content-type")).toMatch(/^text\/html/);
    expect(again.headers.get("vary")).toBe("Cookie, Accept-Encoding");
    expect(renders).toBe(1);
  });

  it("keeps each address apart, query included", async () => {
    await get("/page");
    expect(await (await get("/page?x=1")).text()).toBe("<p>render 2</p>");
  });

  it("never answers from memory a request that carries any cookie", async () => {
    await get("/page");
    expect(await (await get("/page", { Cookie: "session=abc" })).text()).toBe("<p>render 2</p>");
  });

  it("keeps nothing that is not public, not a 200, or sets a cookie", async () => {
    for (const query of ["cache=private,%20no-store", "status=404", "cookie=1"]) {
      await get(`/page?${query}`);
      const again = await get(`/page?${query}`);
      expect(await again.text(), query).toBe(`<p>render ${renders}</p>`);
    }
    expect(renders).toBe(6);
  });

  it("renders afresh after a change, and refuses a render begun before it", async () => {
    await get("/page");
    store.clear();
    expect(await (await get("/page")).text()).toBe("<p>render 2</p>");
    // A render that read the data before the change finishes after it: it must not be kept.
    duringRender = () => store.clear();
    await get("/page?y=1");
    duringRender = () => {};
    expect(await (await get("/page?y=1")).text()).toBe("<p>render 4</p>");
  });

  it("sends the kept page gzipped to a client that accepts it, and headers only to HEAD", async () => {
    await get("/page");
    const zipped = await fetch(`${base}/page`, { headers: { "Accept-Encoding": "gzip" } });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    const head = await fetch(`${base}/page`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
    expect(await head.text()).toBe("");
    // fetch unzips by itself; the bytes are the page's.
    expect(await zipped.text()).toBe("<p>render 1</p>");
    expect(renders).toBe(1);
    expect(gunzipSync(store.get("/page")!.gzipped).toString()).toBe("<p>render 1</p>");
  });
});
