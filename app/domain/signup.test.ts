import { describe, expect, it } from "vitest";
import { AGE_MESSAGES } from "./age";
import { parseForm } from "./forms";
import { NHS_MESSAGES } from "./nhs-number";
import { ETHNICITIES, GENDERS, COUNTRIES, PASSWORDS_DO_NOT_MATCH, signupSchema } from "./signup";

const today = "2026-11-22";
const valid = {
  firstName: "Arthur James",
  lastName: "Pembridge",
  "dateOfBirth-day": "15",
  "dateOfBirth-month": "3",
  "dateOfBirth-year": "1961",
  gender: "Male",
  ethnicity: "White - British",
  occupation: "",
  phoneNumber: "447700900123",
  address1: "12 Mill Lane",
  address2: "",
  postCode: "cm1 2ab",
  country: "United Kingdom",
  nhs: "943 476 5919",
  email: " Arthur.Pembridge@Example.com ",
  password: "correct horse battery",
  confirmPassword: "correct horse battery",
};

const errorsFor = (values: Record<string, string>) => {
  const result = parseForm(signupSchema(today), values);
  return result.ok ? {} : result.fieldErrors;
};

describe("sign-up form", () => {
  it("has the spec's option lists", () => {
    expect(COUNTRIES).toHaveLength(2);
    expect(GENDERS).toHaveLength(4);
    expect(ETHNICITIES).toHaveLength(17);
  });

  it("accepts a complete form, trims and lowercases the e-mail, keeps the NHS number's digits", () => {
    const result = parseForm(signupSchema(today), valid);
    expect(result).toMatchObject({
      ok: true,
      data: {
        email: "arthur.pembridge@example.com",
        dateOfBirth: "1961-03-15",
        nhsNumber: "9434765919",
        postCode: "CM1 2AB",
        occupation: null,
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
    expect(errorsFor({ ...valid, nhs: "12ab" }).nhs).toBe(NHS_MESSAGES.onlyDigits);
    expect(errorsFor({ ...valid, nhs: "9434765918" }).nhs).toBe(NHS_MESSAGES.checkDigit);
    expect(errorsFor({ ...valid, nhs: "" }).nhs).toBeUndefined();
  });

  it("says when the passwords do not match", () => {
    expect(errorsFor({ ...valid, confirmPassword: "something else" }).confirmPassword).toBe(
      PASSWORDS_DO_NOT_MATCH,
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
      "phoneNumber",
      "address1",
      "postCode",
      "country",
      "email",
      "password",
    ]) {
      expect(errors[field], field).toBeTruthy();
    }
    expect(errors.address2).toBeUndefined();
    expect(errors.occupation).toBeUndefined();
  });
});
