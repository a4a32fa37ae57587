import type { ReactNode } from "react";
import { COUNTRIES, ETHNICITIES, GENDERS } from "#app/domain/field-options";
import { DateInput } from "./date-input";
import { TextField } from "./form";
import { SelectField } from "./select-field";

type Values = Record<string, string | undefined>;

/**
 * The personal details sign-up asks for and the portal edits: names, date of birth, gender,
 * ethnic group, occupation, phone and home address, under the profile's own field names.
 * On sign-up every answer is needed; in the portal the spec makes some optional.
 */
export function PersonalDetailsFields({
  purpose,
  values,
  errors,
  beforeDateOfBirth,
}: {
  purpose: "signup" | "profile";
  values: Values;
  errors: Values;
  /** The sign-up form's age notice goes just above the date. */
  beforeDateOfBirth?: ReactNode;
}) {
  const optional = (label: string) => (purpose === "profile" ? `${label} (optional)` : label);
  const choose = purpose === "profile" ? "Not given" : "Select";
  return (
    <>
      <TextField
        name="firstName"
        label="First name"
        hint={
          purpose === "signup"
            ? "Include any middle names, exactly as on your birth certificate or passport"
            : undefined
        }
        autoComplete="given-name"
        defaultValue={values.firstName}
        error={errors.firstName}
      />
      <TextField
        name="lastName"
        label="Last name"
        autoComplete="family-name"
        defaultValue={values.lastName}
        error={errors.lastName}
      />
      {beforeDateOfBirth}
      <DateInput
        name="dateOfBirth"
        legend={optional("Date of birth")}
        values={{
          day: values["dateOfBirth-day"],
          month: values["dateOfBirth-month"],
          year: values["dateOfBirth-year"],
        }}
        error={errors.dateOfBirth}
      />
      <SelectField
        name="gender"
        label={optional("Gender")}
        options={GENDERS}
        placeholder={choose}
        defaultValue={values.gender ?? ""}
        error={errors.gender}
      />
      <SelectField
        name="ethnicity"
        label={optional("Ethnic group")}
        options={ETHNICITIES}
        placeholder={choose}
        defaultValue={values.ethnicity ?? ""}
        error={errors.ethnicity}
      />
      <TextField
        name="occupation"
        label="Occupation (optional)"
        autoComplete="organization-title"
        defaultValue={values.occupation}
        error={errors.occupation}
      />
      <TextField
        name="phone"
        type="tel"
        label="Phone number"
        hint="For example 07700 900123. From outside the UK, start with the country code, like +353."
        autoComplete="tel"
        className="input--width-20"
        defaultValue={values.phone}
        error={errors.phone}
      />

      <h2 className="form-section">Home address</h2>
      <TextField
        name="homeAddressLine1"
        label="Address line 1"
        autoComplete="address-line1"
        defaultValue={values.homeAddressLine1}
        error={errors.homeAddressLine1}
      />
      <TextField
        name="homeAddressLine2"
        label="Address line 2 (optional)"
        autoComplete="address-line2"
        defaultValue={values.homeAddressLine2}
        error={errors.homeAddressLine2}
      />
      <TextField
        name="homePostcode"
        label="Postcode"
        autoComplete="postal-code"
        className="input--width-20"
        defaultValue={values.homePostcode}
        error={errors.homePostcode}
      />
      <SelectField
        name="homeCountry"
        label="Country"
        options={COUNTRIES}
        defaultValue={values.homeCountry || "United Kingdom"}
        error={errors.homeCountry}
        autoComplete="country-name"
      />
    </>
  );
}
