import { describe, expect, it } from "vitest";
import { parseForm } from "./forms";
import { profileEditSchema } from "./profile-edit";

const today = "2026-11-22";
const valid = {
  firstName: "Arthur",
  lastName: "Pembridge",
  gender: "",
  "dateOfBirth-day": "",
  "dateOfBirth-month": "",
  "dateOfBirth-year": "",
  ethnicity: "",
  occupation: "",
  phone: "01632 960 111",
  homeAddressLine1: "12 Mill Lane",
  homeAddressLine2: "",
  homePostcode: "cm1 2ab",
  homeCountry: "United Kingdom",
  billingAddress: "12 Mill Lane, Chelmsford, CM1 2AB",
};

describe("profile edit", () => {
  it("accepts the required fields alone, leaving the optional ones empty", () => {
    const result = parseForm(profileEditSchema(today), valid);
    expect(result).toMatchObject({
      ok: true,
      data: { gender: null, dateOfBirth: null, ethnicity: null, homePostcode: "CM1 2AB" },
    });
  });
  it("requires names, phone, home address and billing address", () => {
    const result = parseForm(profileEditSchema(today), {
      ...valid,
      firstName: "",
      phone: "",
      homeAddressLine1: "",
      billingAddress: " ",
    });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(Object.keys(result.fieldErrors).sort()).toEqual([
        "billingAddress",
        "firstName",
        "homeAddressLine1",
        "phone",
      ]);
  });
  it("checks a date of birth if one is given", () => {
    const result = parseForm(profileEditSchema(today), {
      ...valid,
      "dateOfBirth-day": "31",
      "dateOfBirth-month": "2",
      "dateOfBirth-year": "1960",
    });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.fieldErrors.dateOfBirth).toBe("Date of birth must be a real date");
  });
});
