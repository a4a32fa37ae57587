import type { AddressInfo } from "node:net";
import express from "express";
import { MemoryStore } from "express-rate-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cspNonce, rateLimits, requestShape, sameOriginOnly, securityHeaders } from "./security";

let base: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(cspNonce);
  app.use(
    securityHeaders({
      isProduction: true,
      viteDevServer: false,
      servedOverHttps: true,
      formsPerWindow: 3,
      postsPerWindow: 100,
    }),
  );
  app.use(sameOriginOnly({ appOrigin: "https://mhat.example.org" }));
  // Counted in memory here; the database's store, shared by instances, has its integration test.
  app.use(
    ...rateLimits({ formsPerWindow: 3, postsPerWindow: 100, store: () => new MemoryStore() }),
  );
  app.all("/{*path}", (_req, res) => res.send(`ok ${res.locals.cspNonce}`));
  const server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(base + path, {
    method: "POST",
    headers: { origin: "https://mhat.example.org", ...headers },
    body: "a=1",
  });

describe("security headers", () => {
  it("enforces a CSP with a fresh nonce on every response", async () => {
    const first = await fetch(`${base}/`);
    const second = await fetch(`${base}/`);
    const policy = first.headers.get("content-security-policy")!;
    expect(first.headers.get("content-security-policy-report-only")).toBeNull();
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(await first.text()).toBe(`ok ${nonce}`);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce!);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe-inline");
  });

  it("relaxes only styles and the reconnect worker for Vite's dev server, never in production", async () => {
    const policyOf = async (viteDevServer: boolean) => {
      const app = express();
      app.use(cspNonce);
      app.use(
        securityHeaders({
          isProduction: false,
          viteDevServer,
          servedOverHttps: false,
          formsPerWindow: 3,
          postsPerWindow: 100,
        }),
      );
      app.get("/", (_req, res) => res.send("ok"));
      const server = app.listen(0);
      await new Promise((resolve) => server.once("listening", resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const response = await fetch(`http://127.0.0.1:${port}/`);
        return Object.fromEntries(
          response.headers
            .get("content-security-policy")!
            .split(";")
            .map((directive) => directive.trim().split(/\s+/))
            .map(([name, ...values]) => [name!, values]),
        );
      } finally {
        server.close();
      }
    };
    const dev = await policyOf(true);
    expect(dev["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(dev["worker-src"]).toEqual(["'self'", "blob:"]);
    const built = await policyOf(false);
    expect(built["style-src"]).not.toContain("'unsafe-inline'");
    expect(built["script-src"]).not.toContain("'unsafe-inline'");
    expect(built["worker-src"]).toBeUndefined();
  });

  it("sends HSTS, nosniff and a referrer policy", async () => {
    const response = await fetch(`${base}/`);
    expect(response.headers.get("strict-transport-security")).toContain("max-age=31536000");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });
});

describe("cross-site requests", () => {
  it("refuses a POST from another origin", async () => {
    const response = await post("/anything", { origin: "https://evil.example" });
    expect(response.status).toBe(403);
  });
  it("refuses a POST a browser marks as cross-site even without an Origin", async () => {
    const response = await fetch(`${base}/anything`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
      body: "a=1",
    });
    expect(response.status).toBe(403);
  });
  it("accepts a POST from our own origin", async () => {
    expect((await post("/anything")).status).toBe(200);
  });
  it("answers JSON to API callers", async () => {
    const response = await post("/api/subscriptions", { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "This request came from another site" });
  });
});

describe("rate limits", () => {
  it("refuses the public-form POST after the limit with 429 and a message", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++)
      statuses.push(
        (await post("/api/subscriptions", { "content-type": "application/json" })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await post("/news.data");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: "Too many requests. Please wait a few minutes and try again.",
    });
  });
  it("does not count page views", async () => {
    for (let index = 0; index < 5; index++) expect((await fetch(`${base}/news`)).status).toBe(200);
  });
});

describe("address length", () => {
  let shaped: string;
  let stop: () => void;
  beforeAll(async () => {
    const app = express().use(requestShape());
    app.all("/{*path}", (_req, res) => res.send("ok"));
    const server = app.listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    shaped = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stop = () => server.close();
  });
  afterAll(() => stop());

  it("refuses a path that does not decode with 400, before React Router logs it (found by a review)", async () => {
    const response = await fetch(`${shaped}/information-hub/jane.doe@example.net-943%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain("jane.doe");
    expect((await fetch(`${shaped}/information-hub/caf%C3%A9?q=%E0%A4`)).status).toBe(200);
  });

  it("refuses a page address over 4,096 characters with 414", async () => {
    expect((await fetch(`${shaped}/news?q=${"a".repeat(4000)}`)).status).toBe(200);
    expect((await fetch(`${shaped}/news?q=${"a".repeat(4100)}`)).status).toBe(414);
  });

  it("lets React Router's route discovery ask for up to 7,680 characters of paths", async () => {
    const paths = Array.from({ length: 300 }, (_, i) => `p=%2Fadmin%2Fevents%2F${i}`).join("&");
    const url = `/__manifest?${paths}&version=abc`.slice(0, 7680);
    expect(url.length).toBeGreaterThan(4096);
    expect((await fetch(`${shaped}${url}`)).status).toBe(200);
    expect((await fetch(`${shaped}/__manifest?p=${"a".repeat(8200)}`)).status).toBe(414);
  });
});
