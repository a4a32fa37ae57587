import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

/**
 * The browser's JavaScript, as built: no file may carry the password dictionaries or Zod by
 * accident (a route whose page imported a module that imports the field library once put 876 KB
 * gzipped on three back-office pages). The largest honest file is the map's Leaflet chunk.
 */
const ASSETS = "build/client/assets";
const LIMIT_GZIP_BYTES = 100 * 1024;

describe("the built JavaScript", () => {
  it(`has no file over ${LIMIT_GZIP_BYTES / 1024} KB gzipped`, () => {
    const sizes = readdirSync(ASSETS)
      .filter((file) => file.endsWith(".js"))
      .map((file) => ({
        file,
        gzip: gzipSync(readFileSync(path.join(ASSETS, file))).length,
      }));
    expect(sizes.length).toBeGreaterThan(10);
    expect(sizes.filter((entry) => entry.gzip > LIMIT_GZIP_BYTES)).toEqual([]);
  });
});
