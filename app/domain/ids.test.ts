import { describe, expect, it } from "vitest";
import { isUuid } from "./ids";

describe("isUuid", () => {
  it.each([
    ["0f8fad5b-d9cb-469f-a165-70867728950e", true],
    ["0F8FAD5B-D9CB-469F-A165-70867728950E", true],
    ["0f8fad5b-d9cb-469f-a165-70867728950", false],
    ["0f8fad5b-d9cb-469f-a165-70867728950e\n", false],
    ["' or 1=1 --", false],
    ["", false],
    [undefined, false],
    [42, false],
  ])("%j → %s", (value, expected) => {
    expect(isUuid(value)).toBe(expected);
  });
});
