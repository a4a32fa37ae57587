import { describe, expect, it } from "vitest";
import { csvSafeCell, csvSafeRow } from "./csv-cell";

describe("csvSafeCell", () => {
  it.each([
    ['=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'],
    ["+1+2", "'+1+2"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", "'\r=1"],
    ["\uFF1D1+1", "'\uFF1D1+1"],
  ])("disarms %j", (input, expected) => {
    expect(csvSafeCell(input)).toBe(expected);
  });

  it("leaves ordinary text, numbers and booleans alone", () => {
    expect(csvSafeCell("Derek Ashby")).toBe("Derek Ashby");
    expect(csvSafeCell("a=b")).toBe("a=b");
    expect(csvSafeCell("O'Neill, Jr")).toBe("O'Neill, Jr");
    expect(csvSafeCell(42)).toBe("42");
    expect(csvSafeCell(true)).toBe("true");
  });

  it("prints nothing for a missing value", () => {
    expect(csvSafeCell(null)).toBe("");
    expect(csvSafeCell(undefined)).toBe("");
  });

  it("disarms each cell of a row", () => {
    expect(csvSafeRow(["ok", "=1", null])).toEqual(["ok", "'=1", ""]);
  });
});
