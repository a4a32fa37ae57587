import { describe, expect, it } from "vitest";
import { ownEntry } from "./own-entry";

describe("ownEntry", () => {
  const WORDS = { refunded: "The refund was made." } as const;

  it("finds the table's own entries", () => {
    expect(ownEntry(WORDS, "refunded")).toBe("The refund was made.");
  });

  it("finds nothing for a missing key, or for what every object inherits", () => {
    for (const key of [null, undefined, "", "busy", "toString", "__proto__", "constructor"])
      expect(ownEntry(WORDS, key)).toBeUndefined();
  });
});
