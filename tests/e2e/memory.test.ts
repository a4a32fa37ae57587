import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase } from "#tests/support/postgres";
import { startBuiltServer } from "#tests/support/server";

/**
 * Issue 17, memory: the password dictionaries (about 23 MB of heap) and every country's holiday
 * rules (about 9 MB) were loaded at start, and V8 lets the heap grow in proportion to what is live.
 * They are now loaded by the first password check and the first business-day sum. A server of this
 * file's own serves the public pages, then lists every script it compiled (through the inspector).
 */
const preload = fileURLToPath(new URL("../support/loaded-scripts.mjs", import.meta.url));
let dir: string;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let scripts: string[];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "mhat-memory-"));
  scratch = await createScratchDatabase("mhat_memory");
  const listFile = path.join(dir, "scripts.txt");
  const server = await startBuiltServer({
    DATABASE_URL: scratch.url,
    DEMO_DATA: "0",
    NODE_OPTIONS: `--import=${preload}`,
    LOADED_SCRIPTS_FILE: listFile,
  });
  try {
    for (const page of ["/", "/about-us", "/news", "/events", "/login", "/signup", "/api/events"]) {
      const response = await fetch(`${server.url}${page}`);
      expect(response.status, page).toBe(200);
      await response.arrayBuffer();
    }
  } finally {
    await server.stop();
  }
  scripts = readFileSync(listFile, "utf8").split("\n");
});

afterAll(async () => {
  await scratch?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("modules a server serving pages has not loaded", () => {
  it("lists what the server compiled: its own build and React's renderer", () => {
    expect(scripts.some((url) => url.includes("/build/server/"))).toBe(true);
    expect(scripts.some((url) => url.includes("/node_modules/react-dom/"))).toBe(true);
  });

  it.each([
    ["the password dictionaries", "/node_modules/@zxcvbn-ts/"],
    ["the holiday rules", "/node_modules/date-holidays/"],
  ])("%s, not before they are needed", (_, folder) => {
    expect(scripts.filter((url) => url.includes(folder))).toEqual([]);
  });
});
