import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { tourSite } from "./site-tour";
import { browserForThisFile, serverDatabaseForThisFile } from "./support";

/**
 * The Nu HTML Checker (the W3C's validator) finds no errors in the HTML the server sends, on every
 * page and main state of the tour: public, error states, a patient's pages and the back office.
 * Pages are collected first and checked in one run of Java, which takes seconds to start.
 */
const VNU_JAR = createRequire(import.meta.url).resolve("vnu-jar/build/dist/vnu.jar");
const browser = browserForThisFile();
const server = serverDatabaseForThisFile();

interface VnuMessage {
  type: string;
  url: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

it("finds no errors in the HTML of any page or state", async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "mhat-vnu-"));
  const names = new Map<string, string>();
  try {
    // The server's own HTML: the document each navigation answered with (scripts off, so that
    // what is checked is what was sent, not what scripts made of it).
    const documents = new WeakMap<Page, Promise<string>>();
    const watched = new WeakSet<Page>();
    await tourSite(
      browser(),
      server.db,
      async (page, name) => {
        if (!watched.has(page)) throw new Error("the page was not watched from its start");
        const html = await documents.get(page);
        expect(html, `the HTML of ${name}`).toBeTruthy();
        const file = path.join(folder, `${String(names.size).padStart(3, "0")}.html`);
        writeFileSync(file, html!);
        names.set(path.basename(file), name);
      },
      {
        context: { javaScriptEnabled: false },
        watch: (page) => {
          watched.add(page);
          page.on("response", (response) => {
            const request = response.request();
            if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
            if (!(response.headers()["content-type"] ?? "").startsWith("text/html")) return;
            documents.set(page, response.text());
          });
        },
      },
    );
    expect(names.size).toBeGreaterThan(40);

    const { stderr } = await promisify(execFile)(
      "java",
      ["-jar", VNU_JAR, "--errors-only", "--format", "json", "--exit-zero-always", folder],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
    const errors = messages
      .filter((message) => message.type === "error")
      .map(
        (message) =>
          `${names.get(path.basename(new URL(message.url).pathname))} (line ${message.lastLine}): ${message.message}`,
      );
    expect(errors).toEqual([]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 300_000);
