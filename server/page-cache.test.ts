import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTtlMap } from "#app/domain/ttl-cache";
import type { SharedPage } from "#app/services/page-cache.server";
import { acceptsGzip, answerFromSharedPages, keepSharedPages } from "./page-cache";

let clock = 0;
const store = createTtlMap<SharedPage>({ ttlMs: 60_000, maxEntries: 10, now: () => clock });
let renders = 0;
let base: string;
let close: () => void;
/** Lets a test change the database "while" a page renders. */
let duringRender: () => void = () => {};

beforeAll(async () => {
  const app = express();
  app.use(keepSharedPages(() => store));
  // A stand-in for the page renderer: each render is numbered, so a kept copy shows an old number.
  app.get("/page", (req, res) => {
    renders += 1;
    duringRender();
    res.set("Cache-Control", String(req.query.cache ?? "public, max-age=10"));
    if (req.query.vary !== "none") res.set("Vary", "Cookie");
    res.set(
      "Content-Security-Policy",
      `default-src 'self';script-src 'self' 'nonce-render${renders}'`,
    );
    res.set("X-Frame-Options", "DENY");
    if (req.query.cookie) res.set("Set-Cookie", "flash=1");
    res.status(Number(req.query.status ?? 200)).type("html");
    res.write("<p>render ");
    res.end(`${renders}</p>`);
  });
  // As in server/index.js: kept pages are answered before Express.
  const answer = answerFromSharedPages(() => store);
  const server = http.createServer((req, res) => {
    if (!answer(req, res)) app(req, res);
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());
beforeEach(() => {
  store.clear();
  renders = 0;
  clock = 0;
  duringRender = () => {};
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(base + path, { headers: { "Accept-Encoding": "identity", ...headers } });

describe("kept pages", () => {
  it("are sent again from memory with the headers they were sent with, less the nonce", async () => {
    const first = await get("/page");
    expect(await first.text()).toBe("<p>render 1</p>");
    const again = await get("/page");
    expect(await again.text()).toBe("<p>render 1</p>");
    expect(again.headers.get("cache-control")).toBe("public, max-age=10");
    expect(again.headers.get("content-type")).toMatch(/^text\/html/);
    expect(again.headers.get("vary")).toBe("Cookie, Accept-Encoding");
    expect(again.headers.get("x-frame-options")).toBe("DENY");
    expect(again.headers.get("content-length")).toBe(String("<p>render 1</p>".length));
    expect(again.headers.get("date")).toBeTruthy();
    // The page has no script: its kept policy allows only the site's own files.
    expect(again.headers.get("content-security-policy")).toBe(
      "default-src 'self';script-src 'self'",
    );
    expect(renders).toBe(1);
  });

  it("keep each address apart, query included", async () => {
    await get("/page");
    expect(await (await get("/page?x=1")).text()).toBe("<p>render 2</p>");
  });

  it("that vary with cookies are never sent to a request that carries any", async () => {
    await get("/page");
    expect(await (await get("/page", { Cookie: "session=abc" })).text()).toBe("<p>render 2</p>");
  });

  it("that do not vary with cookies go to every request, as a CDN would send them", async () => {
    await get("/page?vary=none");
    const withCookie = await get("/page?vary=none", { Cookie: "session=abc" });
    expect(await withCookie.text()).toBe("<p>render 1</p>");
    expect(withCookie.headers.get("vary")).toBe("Accept-Encoding");
    // Made for a request with a cookie, an answer is never kept, whatever it says.
    await get("/page?vary=none&x=2", { Cookie: "session=abc" });
    expect(await (await get("/page?vary=none&x=2")).text()).toBe("<p>render 3</p>");
  });

  it("are never made from an answer that is not public, not a 200, or sets a cookie", async () => {
    for (const query of ["cache=private,%20no-store", "status=404", "cookie=1", "cache=no-cache"]) {
      await get(`/page?${query}`);
      const again = await get(`/page?${query}`);
      expect(await again.text(), query).toBe(`<p>render ${renders}</p>`);
    }
    expect(renders).toBe(8);
  });

  it("last no longer than the answer's own max-age", async () => {
    await get("/page?cache=public,%20max-age=2");
    clock = 1999;
    expect(await (await get("/page?cache=public,%20max-age=2")).text()).toBe("<p>render 1</p>");
    clock = 2000;
    expect(await (await get("/page?cache=public,%20max-age=2")).text()).toBe("<p>render 2</p>");
  });

  it("are made afresh after a change, and not from a render begun before it", async () => {
    await get("/page");
    store.clear();
    expect(await (await get("/page")).text()).toBe("<p>render 2</p>");
    // A render that read the data before the change finishes after it: it must not be kept.
    duringRender = () => store.clear();
    await get("/page?y=1");
    duringRender = () => {};
    expect(await (await get("/page?y=1")).text()).toBe("<p>render 4</p>");
  });

  it("are sent gzipped to a client that accepts it, and as headers only to HEAD", async () => {
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

  it("are not answered to a POST, which goes on to the site", async () => {
    await get("/page");
    const posted = await fetch(`${base}/page`, { method: "POST" });
    expect(posted.status).toBe(404);
  });
});

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["GZIP", true],
    ["identity", false],
    ["br", false],
    ["gzip;q=0", false],
    ["*;q=0", false],
    ["gzip;q=0, *", false],
    ["", false],
  ])("%j → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it("takes no header as identity", () => {
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
