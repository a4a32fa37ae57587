import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  it.each([
    ["/book-event?event=abc", "/book-event?event=abc"],
    ["/portal", "/portal"],
    ["/news?month=2020-08#top", "/news?month=2020-08#top"],
    ["/a/./b/../c", "/a/c"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ])("keeps the same-site path %j", (input, expected) => {
    expect(safeRedirect(input, "/fallback")).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/./..//evil.example/path",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "%2F%2Fevil.example",
    "%2f%2fevil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\u0000/evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,hi",
    "https://evil.example",
    "http://evil.example/portal",
    "https:evil.example",
    "//evil.example/%2F..",
    "///evil.example",
    "evil.example",
    "",
    null,
    undefined,
    42,
    ["/portal"],
  ])("refuses %j", (input) => {
    expect(safeRedirect(input, "/fallback")).toBe("/fallback");
  });
});
