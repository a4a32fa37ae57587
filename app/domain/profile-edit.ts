import { z } from "zod";
import {
  COUNTRIES,
  ETHNICITIES,
  GENDERS,
  dateOfBirthField,
  phoneField,
  withDateOfBirth,
} from "./signup";

const required = (message: string, max = 200) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Must be ${max} characters or fewer` });
const optional = (max = 100) =>
  z
    .string()
    .trim()
    .max(max, { error: `Must be ${max} characters or fewer` })
    .optional()
    .transform((value) => value || null);
const optionalChoice = <T extends readonly [string, ...string[]]>(options: T, message: string) =>
  z
    .union([z.literal(""), z.enum(options, { error: message })])
    .optional()
    .transform((value) => value || null);

/** "Edit Personal Information": names, phone, home and billing address required; the rest optional. */
export function profileEditSchema(today: string) {
  return z.preprocess(
    (input) => {
      const values = withDateOfBirth(input) as Record<string, unknown> & {
        dateOfBirth: Record<string, string>;
      };
      const empty =
        !values.dateOfBirth.day && !values.dateOfBirth.month && !values.dateOfBirth.year;
      return { ...values, dateOfBirth: empty ? undefined : values.dateOfBirth };
    },
    z.object({
      firstName: required("Enter your first name", 100),
      lastName: required("Enter your last name", 100),
      gender: optionalChoice(GENDERS, "Select your gender"),
      dateOfBirth: dateOfBirthField(today, { checkAge: false })
        .optional()
        .transform((value) => value ?? null),
      ethnicity: optionalChoice(ETHNICITIES, "Select your ethnic group"),
      occupation: optional(),
      phone: phoneField,
      homeAddressLine1: required("Enter the first line of your home address"),
      homeAddressLine2: optional(200),
      homePostcode: required("Enter your postcode", 10).transform((value) => value.toUpperCase()),
      homeCountry: z.enum(COUNTRIES, { error: "Select your country" }),
      billingAddress: required("Enter your billing address", 300),
    }),
  );
}
