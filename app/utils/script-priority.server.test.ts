import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { lowPriorityScriptPreloads } from "./script-priority.server";

/** The page through the transform, cut into chunks of `size` bytes. */
async function through(page: string, size: number) {
  const bytes = Buffer.from(page, "utf8");
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return text(Readable.from(chunks).pipe(lowPriorityScriptPreloads()));
}

const PAGE =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>Find an event — “PSA”</title>' +
  '<link rel="stylesheet" href="/assets/app.css"/>' +
  '<link rel="modulepreload" href="/assets/entry.js" nonce="n"/>' +
  '<link rel="modulepreload" href="/assets/map.js" nonce="n"/></head>' +
  '<body><p>A link rel="modulepreload" in the text stays as it is: <link rel="modulepreload"</p></body></html>';

const EXPECTED =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>Find an event — “PSA”</title>' +
  '<link rel="stylesheet" href="/assets/app.css"/>' +
  '<link rel="modulepreload" fetchpriority="low" href="/assets/entry.js" nonce="n"/>' +
  '<link rel="modulepreload" fetchpriority="low" href="/assets/map.js" nonce="n"/></head>' +
  '<body><p>A link rel="modulepreload" in the text stays as it is: <link rel="modulepreload"</p></body></html>';

describe("lowPriorityScriptPreloads", () => {
  it.each([1, 3, 7, 64, 4096])(
    "marks the head's script preloads low priority, whatever the chunks (%i bytes)",
    async (size) => {
      expect(await through(PAGE, size)).toBe(EXPECTED);
    },
  );

  it("passes on a document that never closes its head as it came", async () => {
    expect(await through('<html><link rel="modulepreload" href="/a.js"/>', 5)).toBe(
      '<html><link rel="modulepreload" href="/a.js"/>',
    );
  });
});
