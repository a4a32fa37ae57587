import { COUNTRIES } from "#app/domain/signup-options";
import { TextField } from "./form";
import { SelectField } from "./select-field";

/** The home-address fields, shared by sign-up and the portal's edit form (which name them differently). */
export function AddressFields({
  names,
  values,
  errors,
}: {
  names: { line1: string; line2: string; postcode: string; country: string };
  values: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
}) {
  return (
    <>
      <TextField
        name={names.line1}
        label="Address line 1"
        autoComplete="address-line1"
        defaultValue={values[names.line1]}
        error={errors[names.line1]}
      />
      <TextField
        name={names.line2}
        label="Address line 2 (optional)"
        autoComplete="address-line2"
        defaultValue={values[names.line2]}
        error={errors[names.line2]}
      />
      <TextField
        name={names.postcode}
        label="Postcode"
        autoComplete="postal-code"
        className="input--width-20"
        defaultValue={values[names.postcode]}
        error={errors[names.postcode]}
      />
      <SelectField
        name={names.country}
        label="Country"
        options={COUNTRIES}
        defaultValue={values[names.country] || "United Kingdom"}
        error={errors[names.country]}
        autoComplete="country-name"
      />
    </>
  );
}
