import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirect("/portal")).toBe("/portal");
    expect(safeRedirect("/book-event?event=abc")).toBe("/book-event?event=abc");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "evil",
      "/\t/evil.example",
      "",
      null,
      undefined,
      42,
    ]) {
      expect(safeRedirect(bad, "/home")).toBe("/home");
    }
  });
});
