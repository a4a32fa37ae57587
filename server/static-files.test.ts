import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedFiles } from "./static-files";

let folder: string;
let base: string;
let close: () => void;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), "fixed-files-"));
  writeFileSync(path.join(folder, "robots.txt"), "User-agent: *\n");
  writeFileSync(path.join(folder, "two words.txt"), "spaced");
  mkdirSync(path.join(folder, "images"));
  writeFileSync(path.join(folder, "images", "logo.svg"), "<svg/>");

  const app = express();
  app.use(fixedFiles(folder, { maxAge: "1h", index: false }));
  app.use((req, res) => res.status(404).send(`page for ${req.method} ${req.path}`));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => {
  close();
  rmSync(folder, { recursive: true, force: true });
});

describe("files of the built site", () => {
  it("serves a file in the folder with an hour's caching and a validator", async () => {
    const response = await fetch(`${base}/robots.txt`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("User-agent: *\n");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");

    // fetch adds "Cache-Control: no-cache" to a conditional request unless it has one of its own.
    const again = await fetch(`${base}/robots.txt`, {
      headers: { "if-none-match": response.headers.get("etag")!, "cache-control": "max-age=0" },
    });
    expect(again.status).toBe(304);
  });

  it("serves files in sub-folders and names written with escapes", async () => {
    const logo = await fetch(`${base}/images/logo.svg`);
    expect([logo.status, await logo.text()]).toEqual([200, "<svg/>"]);
    const spaced = await fetch(`${base}/two%20words.txt`);
    expect([spaced.status, await spaced.text()]).toEqual([200, "spaced"]);
  });

  it("sends a folder's address on to its address with a slash, as express.static does", async () => {
    const response = await fetch(`${base}/images`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/images/");
  });

  it("passes everything else on untouched: pages, a file's name with a slash, other methods", async () => {
    for (const [method, address] of [
      ["GET", "/about-us"],
      ["GET", "/robots.txt/"],
      ["GET", "/%E0%A4%A"],
      ["POST", "/robots.txt"],
    ]) {
      const response = await fetch(`${base}${address}`, { method });
      expect(response.status, address).toBe(404);
      expect(await response.text(), address).toBe(`page for ${method} ${address}`);
    }
  });

  it("lists the folder once, at start, instead of asking the disk on every request", async () => {
    writeFileSync(path.join(folder, "added-later.txt"), "new");
    const response = await fetch(`${base}/added-later.txt`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("page for GET /added-later.txt");
  });
});
