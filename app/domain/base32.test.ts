import { describe, expect, it } from "vitest";
import { base32Encode, groupKey } from "./base32";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("base32Encode", () => {
  // RFC 4648 section 10's test vectors, without their "=" padding.
  it.each([
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ])("encodes %j as %j", (input, expected) => {
    expect(base32Encode(bytes(input))).toBe(expected);
  });
});

describe("groupKey", () => {
  it("splits the key into fours", () => {
    expect(groupKey("MZXW6YTBOI")).toBe("MZXW 6YTB OI");
  });
});
