import { describe, expect, it } from "vitest";
import { NHS_MESSAGES, cleanNhsNumber, hasValidCheckDigit, validateNhsNumber } from "./nhs-number";

describe("NHS number check digit", () => {
  it("accepts numbers whose tenth digit matches the modulus-11 check", () => {
    expect(hasValidCheckDigit("9434765919")).toBe(true);
    expect(hasValidCheckDigit("4010232137")).toBe(true);
  });
  it("refuses a wrong check digit", () => {
    expect(hasValidCheckDigit("9434765918")).toBe(false);
    expect(hasValidCheckDigit("4010232138")).toBe(false);
  });
  it("treats a check value of 11 as 0, and never accepts a check value of 10", () => {
    expect(hasValidCheckDigit("0000000019")).toBe(true); // sum 2 → 11 - 2 = 9
    expect(hasValidCheckDigit("0000000000")).toBe(true); // sum 0 → 11 → 0
    expect(hasValidCheckDigit("1000000010")).toBe(false); // sum 10 + 2 = 12 ≡ 1 → 10: no valid number
  });
  it("needs exactly ten digits", () => {
    expect(hasValidCheckDigit("943476591")).toBe(false);
    expect(hasValidCheckDigit("94347659190")).toBe(false);
  });
});

describe("validateNhsNumber", () => {
  it("allows an empty number (it is optional)", () => {
    expect(validateNhsNumber("  ")).toEqual({ ok: true, value: null });
  });
  it("drops spaces quietly", () => {
    expect(cleanNhsNumber("943 476 5919")).toEqual({ digits: "9434765919", stripped: false });
    expect(validateNhsNumber("943 476 5919")).toEqual({ ok: true, value: "9434765919" });
  });
  it("gives the spec's message for anything but digits, or more than 10", () => {
    expect(validateNhsNumber("12ab")).toEqual({ ok: false, message: NHS_MESSAGES.onlyDigits });
    expect(validateNhsNumber("943-476-5919")).toEqual({
      ok: false,
      message: NHS_MESSAGES.onlyDigits,
    });
    expect(validateNhsNumber("94347659191")).toEqual({
      ok: false,
      message: NHS_MESSAGES.onlyDigits,
    });
  });
  it("asks for ten digits, then a valid check digit", () => {
    expect(validateNhsNumber("12345")).toEqual({ ok: false, message: NHS_MESSAGES.tenDigits });
    expect(validateNhsNumber("9434765918")).toEqual({
      ok: false,
      message: NHS_MESSAGES.checkDigit,
    });
  });
});
