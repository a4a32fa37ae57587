import { z } from "zod";
import { AGE_MESSAGES, isEligibleAge, readDateOfBirth } from "./age";
import { validateNhsNumber } from "./nhs-number";

export { COUNTRIES, ETHNICITIES, GENDERS } from "./signup-options";
import { COUNTRIES, ETHNICITIES, GENDERS } from "./signup-options";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match";

const text = (message: string, max = 100) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Must be ${max} characters or fewer` });
const optionalText = (max = 100) =>
  z
    .string()
    .trim()
    .max(max, { error: `Must be ${max} characters or fewer` })
    .optional()
    .transform((value) => value || null);

export const emailField = z
  .string({ error: "Enter your email address" })
  .trim()
  .min(1, { error: "Enter your email address" })
  .toLowerCase()
  .pipe(z.email({ error: "Enter an email address in the correct format, like name@example.com" }));

export const phoneField = text("Enter your phone number", 20).regex(/^\+?[0-9 ()-]{7,20}$/, {
  error: "Enter a phone number, like 447700900123 or 01632 960 001",
});

export const passwordField = z
  .string({ error: "Enter a password" })
  .min(1, { error: "Enter a password" })
  .min(PASSWORD_MIN, { error: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { error: `Password must be ${PASSWORD_MAX} characters or fewer` });

/** The fields of the /signup form, in the order they appear. */
export const SIGNUP_FIELDS = [
  "firstName",
  "lastName",
  "dateOfBirth",
  "gender",
  "ethnicity",
  "occupation",
  "phoneNumber",
  "address1",
  "address2",
  "postCode",
  "country",
  "nhs",
  "email",
  "password",
  "confirmPassword",
] as const;

/** A date of birth typed into three fields, read and checked as one field: real, past, and age 40 to 80. */
export function dateOfBirthField(today: string, { checkAge = true } = {}) {
  return z
    .object({
      day: z.string().default(""),
      month: z.string().default(""),
      year: z.string().default(""),
    })
    .transform((parts, ctx) => {
      const dob = readDateOfBirth(parts, today);
      if (!dob.ok) {
        ctx.addIssue({ code: "custom", message: dob.message });
        return z.NEVER;
      }
      if (checkAge && !isEligibleAge(dob.date, today)) {
        ctx.addIssue({ code: "custom", message: AGE_MESSAGES.outOfRange });
        return z.NEVER;
      }
      return dob.date;
    });
}

export const nhsNumberField = z
  .string()
  .default("")
  .transform((typed, ctx) => {
    const nhs = validateNhsNumber(typed);
    if (!nhs.ok) {
      ctx.addIssue({ code: "custom", message: nhs.message });
      return z.NEVER;
    }
    return nhs.value;
  });

/** Gathers the three date fields into one value, so that every field is checked even when others fail. */
export function withDateOfBirth(input: unknown, field = "dateOfBirth") {
  if (typeof input !== "object" || input === null) return input;
  const values = input as Record<string, unknown>;
  return {
    ...values,
    [field]: {
      day: values[`${field}-day`] ?? "",
      month: values[`${field}-month`] ?? "",
      year: values[`${field}-year`] ?? "",
    },
  };
}

/** The sign-up form. `today` (London, "yyyy-MM-dd") decides ages and what "the future" is. */
export function signupSchema(today: string) {
  return z.preprocess(
    (input) => {
      const values = withDateOfBirth(input) as Record<string, unknown>;
      // Compared here, so that a mismatch is reported alongside any other problem.
      const matches = values.password === (values.confirmPassword ?? "");
      return { ...values, confirmPassword: matches ? "matches" : "differs" };
    },
    z
      .object({
        firstName: text("Enter your first name"),
        lastName: text("Enter your last name"),
        dateOfBirth: dateOfBirthField(today),
        gender: z.enum(GENDERS, { error: "Select your gender" }),
        ethnicity: z.enum(ETHNICITIES, { error: "Select your ethnic group" }),
        occupation: optionalText(),
        phoneNumber: phoneField,
        address1: text("Enter the first line of your address", 200),
        address2: optionalText(200),
        postCode: text("Enter your postcode", 10),
        country: z.enum(COUNTRIES, { error: "Select your country" }),
        nhs: nhsNumberField,
        email: emailField,
        password: passwordField,
        confirmPassword: z.literal("matches", { error: PASSWORDS_DO_NOT_MATCH }),
      })
      .transform((form) => ({
        firstName: form.firstName,
        lastName: form.lastName,
        dateOfBirth: form.dateOfBirth,
        gender: form.gender,
        ethnicity: form.ethnicity,
        occupation: form.occupation,
        phone: form.phoneNumber,
        address1: form.address1,
        address2: form.address2,
        postCode: form.postCode.toUpperCase(),
        country: form.country,
        nhsNumber: form.nhs,
        email: form.email,
        password: form.password,
      })),
  );
}

export type SignupInput = z.output<ReturnType<typeof signupSchema>>;
