import { describe, expect, it } from "vitest";
import { NEEDS_SCRIPTS, pageNeedsScripts } from "./page-scripts";

describe("pageNeedsScripts", () => {
  it("is false for a page whose routes say nothing", () => {
    expect(pageNeedsScripts([undefined, undefined])).toBe(false);
    expect(pageNeedsScripts([])).toBe(false);
  });

  it("is true when any route of the page asks for scripts, outer or inner", () => {
    expect(pageNeedsScripts([undefined, NEEDS_SCRIPTS])).toBe(true);
    expect(pageNeedsScripts([{ scripts: true }, undefined])).toBe(true);
  });

  it("ignores handles that say something else, or not exactly true", () => {
    expect(pageNeedsScripts([{ breadcrumb: "x" }, null, "scripts", { scripts: "yes" }])).toBe(
      false,
    );
  });
});
