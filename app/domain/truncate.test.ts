import { describe, expect, it } from "vitest";
import { truncateText } from "./truncate";

describe("truncateText", () => {
  it("leaves short text alone", () => {
    expect(truncateText("Short text.", 300)).toEqual({ text: "Short text.", truncated: false });
  });
  it("leaves text of exactly the limit alone", () => {
    const text = "a".repeat(300);
    expect(truncateText(text, 300).truncated).toBe(false);
  });
  it("cuts long text at a word boundary within the limit", () => {
    const text = "word ".repeat(100);
    const result = truncateText(text, 300);
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(301);
    expect(result.text.endsWith("word…")).toBe(true);
  });
  it("cuts a single long word at the limit", () => {
    const result = truncateText("x".repeat(400), 250);
    expect(result.text).toBe(`${"x".repeat(250)}…`);
  });
});
