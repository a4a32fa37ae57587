import { describe, expect, it } from "vitest";
import { PASSWORD_MESSAGES, passwordProblem } from "./password";

describe("passwordProblem", () => {
  it.each([
    "password",
    "12345678",
    "aaaaaaaa",
    "qwertyuiop",
    "Password1",
    "iloveyou123",
    "letmein!",
    "abcdefgh",
    "11111111",
    "prostate",
  ])("refuses the common or patterned password %s", (password) => {
    expect(passwordProblem(password)).toBe(PASSWORD_MESSAGES.tooCommon);
  });

  it("refuses a password made of the person's own name", () => {
    const words = ["Robert", "Hale", "robert.hale@example.com"];
    expect(passwordProblem("robert.hale@example.com", words)).toBe(PASSWORD_MESSAGES.tooCommon);
    expect(passwordProblem("RobertHale", words)).toBe(PASSWORD_MESSAGES.tooCommon);
  });

  it.each(["correct horse battery staple", "Ferry-Lantern-Orchard", "tulip kettle 7 harbour"])(
    "accepts the passphrase %s",
    (password) => {
      expect(passwordProblem(password)).toBeNull();
    },
  );

  it("counts length and allows long passphrases", () => {
    expect(passwordProblem("")).toBe(PASSWORD_MESSAGES.missing);
    expect(passwordProblem("Xk9#vQ2")).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem("marmalade ".repeat(7).trim() + " zebra crossing")).toBeNull();
    expect(passwordProblem("z".repeat(129))).toBe(PASSWORD_MESSAGES.tooLong);
  });
});
