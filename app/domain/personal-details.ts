import { z } from "zod";
import { ETHNICITIES, GENDERS } from "./field-options";

export { PERSONAL_DETAILS_FIELDS, PROFILE_EDIT_FIELDS, SIGNUP_FIELDS } from "./field-options";
import {
  choice,
  countryField,
  dateOfBirthField,
  emailField,
  newPasswordFields,
  nhsNumberField,
  optionalChoice,
  optionalLine,
  phoneField,
  postcodeField,
  prepareNewPassword,
  requiredLine,
  requiredMultilineText,
  withDateParts,
} from "./fields";

/**
 * The personal-details forms: sign-up and the portal's "Edit Personal Information". Both use the
 * profile's own field names, so a field is called the same everywhere.
 */

const addressFields = {
  homeAddressLine1: requiredLine("Enter the first line of your address", 200),
  homeAddressLine2: optionalLine(200),
  homePostcode: postcodeField(),
  homeCountry: countryField(),
};

const nameFields = {
  firstName: requiredLine("Enter your first name"),
  lastName: requiredLine("Enter your last name"),
};

/** The sign-up form. `today` (London, "yyyy-MM-dd") decides ages and what "the future" is. */
export function signupSchema(today: string) {
  return z.preprocess(
    (input) => {
      const values = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
      return {
        ...values,
        dateOfBirth: withDateParts(values, "dateOfBirth"),
        ...prepareNewPassword(values, [values.firstName, values.lastName, values.email]),
      };
    },
    z.object({
      ...nameFields,
      dateOfBirth: dateOfBirthField(today),
      gender: choice(GENDERS, "Select your gender"),
      ethnicity: choice(ETHNICITIES, "Select your ethnic group"),
      occupation: optionalLine(),
      phone: phoneField(),
      ...addressFields,
      nhsNumber: nhsNumberField,
      email: emailField(),
      ...newPasswordFields,
    }),
  );
}

export type SignupInput = z.output<ReturnType<typeof signupSchema>>;

/** "Edit Personal Information": names, phone, home and billing address required; the rest optional. */
export function profileEditSchema(today: string) {
  return z.preprocess(
    (input) => {
      const values = (typeof input === "object" && input ? input : {}) as Record<string, unknown>;
      const dateOfBirth = withDateParts(values, "dateOfBirth");
      return { ...values, dateOfBirth: dateOfBirth.empty ? undefined : dateOfBirth };
    },
    z.object({
      ...nameFields,
      gender: optionalChoice(GENDERS, "Select your gender"),
      dateOfBirth: dateOfBirthField(today, { checkAge: false })
        .optional()
        .transform((value) => value ?? null),
      ethnicity: optionalChoice(ETHNICITIES, "Select your ethnic group"),
      occupation: optionalLine(),
      phone: phoneField(),
      ...addressFields,
      billingAddress: requiredMultilineText("Enter your billing address", 300),
    }),
  );
}

export type ProfileEditInput = z.output<ReturnType<typeof profileEditSchema>>;
