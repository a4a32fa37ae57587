import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Components run in the browser. Zod and the password dictionaries (app/domain/fields.ts and what
 * imports it) once reached every page with a form through one import and added 860 KB of gzipped
 * JavaScript; server modules would not build at all. This keeps them out.
 */
const SERVER_ONLY =
  /from "(zod|#app\/domain\/(fields|forms|password|personal-details|consent)|[^"]*\.server)"/;

describe("components", () => {
  const folder = path.resolve(__dirname);
  const files = readdirSync(folder).filter(
    (name) => /\.tsx?$/.test(name) && !name.includes(".test."),
  );

  it.each(files)("%s imports nothing that only the server should load", (name) => {
    const imports = readFileSync(path.join(folder, name), "utf8")
      .split("\n")
      .filter((line) => /^import (?!type )/.test(line) || /^} from /.test(line));
    expect(imports.filter((line) => SERVER_ONLY.test(line))).toEqual([]);
  });
});
