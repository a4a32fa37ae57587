import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer } from "#tests/support/server";

/**
 * Finding 9 of issue 14: TRACE answered 500, and OPTIONS and PROPFIND were logged at error level.
 * The site serves GET, HEAD and POST; anything else is 405 with an Allow header, and nothing is
 * logged as an error. A server of this file's own, so that its log holds only these requests.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-methods-"));
let server: Awaited<ReturnType<typeof startBuiltServer>>;
beforeAll(async () => {
  server = await startBuiltServer({
    PGLITE_DIR: dir,
    DATABASE_URL: "",
    DEMO_DATA: "0",
    NODE_ENV: "development",
  });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** fetch() refuses TRACE and friends, so plain http. */
function send(method: string, url: string): Promise<{ status: number; allow?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method }, (response) => {
      response.resume();
      response.once("end", () =>
        resolve({ status: response.statusCode!, allow: response.headers.allow }),
      );
    });
    request.once("error", reject);
    request.end();
  });
}

/** pino's lines at error (50) or fatal (60). */
const errorLines = () =>
  server
    .output()
    .split("\n")
    .filter((line) => /"level":(50|60)\b/.test(line));

const PATHS = ["/", "/login", "/api/events", "/api/subscriptions", "/no-such-page", "/healthz"];

describe("methods the site does not serve (finding 9: TRACE answered 500, OPTIONS and PROPFIND logged errors)", () => {
  it.each(["TRACE", "OPTIONS", "PROPFIND", "PUT", "PATCH", "DELETE", "MKCOL"])(
    "%s is 405 with an Allow header, and nothing is logged at error level",
    async (method) => {
      for (const target of PATHS) {
        const { status, allow } = await send(method, server.url + target);
        expect(status, `${method} ${target}`).toBe(405);
        expect(allow, `${method} ${target}`).toBe("GET, HEAD, POST");
      }
      expect(errorLines()).toEqual([]);
    },
  );

  it("a post to a page without a form is 405 with an Allow header, and nothing is logged at error level", async () => {
    for (const target of ["/", "/events", "/no-such-page"]) {
      const response = await fetch(server.url + target, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
        body: "a=1",
      });
      expect(response.status, target).toBe(405);
      expect(response.headers.get("allow"), target).toBe("GET, HEAD");
    }
    expect(errorLines()).toEqual([]);
  });

  it("GET, HEAD and POST are still served", async () => {
    expect((await send("GET", `${server.url}/`)).status).toBe(200);
    expect((await send("HEAD", `${server.url}/`)).status).toBe(200);
    const posted = await fetch(`${server.url}/api/subscriptions`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ email: "not an address" }),
    });
    expect(posted.status).toBe(400);
    expect(errorLines()).toEqual([]);
  });
});

/**
 * A request Node cannot read (its address over 16 KB) while its body is still being sent: Node's
 * own answer destroyed the connection at once, so about one such POST in three got a reset and no
 * answer (the fuzz test found it on /admin/products). Each now gets its 431.
 */
describe("a request whose address is too long to read, sent with a body", () => {
  it("is answered 431 every time, not cut off", async () => {
    const url = new URL(server.url);
    const target = `/admin/products?${encodeURIComponent("𝕏".repeat(2000))}`;
    const body = Buffer.from(`name=${"b".repeat(200_000)}`);
    const post = () =>
      new Promise<number | string>((resolve) => {
        const request = http.request({
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: target,
          agent: false,
          headers: {
            origin: url.origin,
            "content-type": "application/x-www-form-urlencoded",
            "content-length": String(body.length),
          },
        });
        request.on("response", (response) => {
          response.resume();
          response.on("end", () => {
            resolve(response.statusCode!);
            request.destroy();
          });
        });
        request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
        request.end(body);
      });
    const answers: (number | string)[] = [];
    for (let attempt = 0; attempt < 20; attempt++) answers.push(await post());
    expect(answers).toEqual(Array(20).fill(431));
  });
});
