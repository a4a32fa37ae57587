import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { emailField, optionalLine, phoneField, requiredLine } from "./fields";

/**
 * Issue 14: CR/LF were accepted in single-line fields, so a name could forge header-like lines in
 * staff mail ("Smith\r\nBcc: …") and split a row of the lab CSV. Every kind of line break is
 * written out here by its code point, independently of the library's own list.
 */
const LINE_BREAKS = {
  "CR (U+000D)": "\r",
  "LF (U+000A)": "\n",
  CRLF: "\r\n",
  "NEL (U+0085)": "\u0085",
  "LINE SEPARATOR (U+2028)": "\u2028",
  "PARAGRAPH SEPARATOR (U+2029)": "\u2029",
};

const ONE_LINE = "Enter this on one line, without line breaks";

function firstMessage(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]!.message;
}

describe("a line break in a single-line field is refused (CR/LF forged lines in staff mail and the lab CSV)", () => {
  const lastName = requiredLine("Enter your last name");

  it.each(Object.entries(LINE_BREAKS))("%s inside a name", (_, lineBreak) => {
    expect(firstMessage(lastName, `Smith${lineBreak}Bcc: x@example.org`)).toBe(ONE_LINE);
  });

  it.each(Object.entries(LINE_BREAKS))(
    "%s at the end, where trimming would hide it",
    (_, lineBreak) => {
      expect(firstMessage(lastName, `Smith${lineBreak}`)).toBe(ONE_LINE);
    },
  );

  it("in optional lines, e-mail addresses and phone numbers too", () => {
    expect(firstMessage(optionalLine(), "Flat 2\r\nBcc: x@example.org")).toBe(ONE_LINE);
    expect(firstMessage(emailField(), "a@example.org\r\nBcc: x@example.org")).toBe(ONE_LINE);
    expect(firstMessage(emailField(), "a@example.org\n")).toBe(ONE_LINE);
    expect(firstMessage(phoneField(), "01632 960 001\n")).toBe(ONE_LINE);
  });

  it("still accepts a name with spaces, hyphens and apostrophes, trimmed", () => {
    expect(lastName.parse("  O'Neill-Smith Jr ")).toBe("O'Neill-Smith Jr");
  });
});

describe("an e-mail address", () => {
  it("in .invalid, the domain reserved never to exist, is refused: no mail would ever reach it", () => {
    const message =
      "An address ending in .invalid can never receive email. Enter the email address you use";
    expect(firstMessage(emailField(), "john@example.invalid")).toBe(message);
    expect(firstMessage(emailField(), "  John@Mail.INVALID ")).toBe(message);
  });

  it("elsewhere is accepted, trimmed and lowercased", () => {
    expect(emailField().parse(" John@Example.org ")).toBe("john@example.org");
    expect(emailField().parse("john@invalid.example.org")).toBe("john@invalid.example.org");
  });
});
