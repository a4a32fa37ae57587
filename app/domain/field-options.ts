/** Option lists for the personal-details forms (the spec's 2 countries, 4 genders, 17 ethnic groups), kept apart from the Zod schemas so pages can show them without shipping Zod. */
export const COUNTRIES = ["United Kingdom", "Ireland"] as const;
export const GENDERS = ["Male", "Female", "Non-binary", "Other"] as const;
export const ETHNICITIES = [
  "White - British",
  "White - Irish",
  "White - Any other White background",
  "Mixed - White and Black Caribbean",
  "Mixed - White and Black African",
  "Mixed - White and Asian",
  "Mixed - Any other mixed background",
  "Asian or Asian British - Indian",
  "Asian or Asian British - Pakistan",
  "Asian or Asian British - Bangladeshi",
  "Asian or Asian British - Any other Asian background",
  "Black or Black British - Caribbean",
  "Black or Black British - African",
  "Black or Black British - Any other Black background",
  "Other Ethnic Groups - Chinese",
  "Other Ethnic Groups - Any other ethnic group",
  "Not stated",
] as const;

/** The fields both forms show, in order. */
export const PERSONAL_DETAILS_FIELDS = [
  "firstName",
  "lastName",
  "dateOfBirth",
  "gender",
  "ethnicity",
  "occupation",
  "phone",
  "homeAddressLine1",
  "homeAddressLine2",
  "homePostcode",
  "homeCountry",
] as const;

export const SIGNUP_FIELDS = [
  ...PERSONAL_DETAILS_FIELDS,
  "nhsNumber",
  "email",
  "password",
  "confirmPassword",
] as const;

export const PROFILE_EDIT_FIELDS = [...PERSONAL_DETAILS_FIELDS, "billingAddress"] as const;
