import { describe, expect, it } from "vitest";
import { maskEmail } from "./unsubscribe";

describe("maskEmail", () => {
  it("shows the start of the address and its domain only", () => {
    expect(maskEmail("derek.ashby@example.com")).toBe("de***@example.com");
    expect(maskEmail("al@example.com")).toBe("a***@example.com");
    expect(maskEmail("a@example.com")).toBe("a***@example.com");
  });

  it("never shows something that is not an address", () => {
    expect(maskEmail("nonsense")).toBe("***");
    expect(maskEmail("@example.com")).toBe("***");
  });
});
