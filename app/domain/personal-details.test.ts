import { describe, expect, it } from "vitest";
import { AGE_MESSAGES } from "./age";
import { COUNTRIES, ETHNICITIES, GENDERS } from "./field-options";
import { FIELD_MESSAGES } from "./fields";
import { parseForm } from "./forms";
import { NHS_MESSAGES } from "./nhs-number";
import { PASSWORD_MESSAGES } from "./password";
import { profileEditSchema, signupSchema } from "./personal-details";

const today = "2026-11-22";

describe("sign-up form", () => {
  const valid = {
    firstName: "Arthur James",
    lastName: "Pembridge",
    "dateOfBirth-day": "15",
    "dateOfBirth-month": "3",
    "dateOfBirth-year": "1961",
    gender: "Male",
    ethnicity: "White - British",
    occupation: "",
    phone: "447700900123",
    homeAddressLine1: "12 Mill Lane",
    homeAddressLine2: "",
    homePostcode: "cm1  2ab",
    homeCountry: "United Kingdom",
    nhsNumber: "943 476 5919",
    email: " Arthur.Pembridge@Example.com ",
    password: "correct horse battery",
    confirmPassword: "correct horse battery",
  };
  const errorsFor = (values: Record<string, string>) => {
    const result = parseForm(signupSchema(today), values);
    return result.ok ? {} : result.fieldErrors;
  };

  it("has the spec's option lists", () => {
    expect(COUNTRIES).toHaveLength(2);
    expect(GENDERS).toHaveLength(4);
    expect(ETHNICITIES).toHaveLength(17);
  });

  it("accepts a complete form, trims and lowercases the e-mail, keeps the NHS number's digits", () => {
    expect(parseForm(signupSchema(today), valid)).toMatchObject({
      ok: true,
      data: {
        email: "arthur.pembridge@example.com",
        dateOfBirth: "1961-03-15",
        nhsNumber: "9434765919",
        homePostcode: "CM1 2AB",
        occupation: null,
        homeAddressLine2: null,
        password: "correct horse battery",
      },
    });
  });

  it("refuses someone aged 35 with the spec's message", () => {
    expect(errorsFor({ ...valid, "dateOfBirth-year": "1991" }).dateOfBirth).toBe(
      AGE_MESSAGES.outOfRange,
    );
  });

  it("refuses a date of birth in the future", () => {
    expect(errorsFor({ ...valid, "dateOfBirth-year": "2027" }).dateOfBirth).toBe(
      "Date of birth must be in the past",
    );
  });

  it("gives the NHS number messages", () => {
    expect(errorsFor({ ...valid, nhsNumber: "12ab" }).nhsNumber).toBe(NHS_MESSAGES.onlyDigits);
    expect(errorsFor({ ...valid, nhsNumber: "9434765918" }).nhsNumber).toBe(
      NHS_MESSAGES.checkDigit,
    );
    expect(errorsFor({ ...valid, nhsNumber: "" }).nhsNumber).toBeUndefined();
  });

  it("says when the passwords do not match", () => {
    expect(errorsFor({ ...valid, confirmPassword: "something else" }).confirmPassword).toBe(
      "Passwords do not match",
    );
  });

  it.each(["password", "12345678", "aaaaaaaa"])("refuses the weak password %s", (password) => {
    expect(errorsFor({ ...valid, password, confirmPassword: password }).password).toBe(
      PASSWORD_MESSAGES.tooCommon,
    );
  });

  it("refuses a password made of the person's own e-mail address", () => {
    const password = "arthur.pembridge@example.com";
    expect(errorsFor({ ...valid, password, confirmPassword: password }).password).toBe(
      PASSWORD_MESSAGES.tooCommon,
    );
  });

  it("refuses a postcode with characters no postcode has", () => {
    expect(errorsFor({ ...valid, homePostcode: "CM1 <b>" }).homePostcode).toBe(
      FIELD_MESSAGES.postcode,
    );
  });

  it("reports every missing required field at once", () => {
    const errors = errorsFor({});
    for (const field of [
      "firstName",
      "lastName",
      "dateOfBirth",
      "gender",
      "ethnicity",
      "phone",
      "homeAddressLine1",
      "homePostcode",
      "homeCountry",
      "email",
      "password",
    ]) {
      expect(errors[field], field).toBeTruthy();
    }
    expect(errors.homeAddressLine2).toBeUndefined();
    expect(errors.occupation).toBeUndefined();
  });
});

describe("profile edit", () => {
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

  it("accepts the required fields alone, leaving the optional ones empty", () => {
    expect(parseForm(profileEditSchema(today), valid)).toMatchObject({
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
