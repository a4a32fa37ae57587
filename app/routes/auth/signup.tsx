import { useState } from "react";
import { Form, Link, data, redirect, useNavigation } from "react-router";
import { APIError } from "better-auth";
import type { Route } from "./+types/signup";
import { AddressFields } from "#app/components/address-fields";
import { AlertDialog } from "#app/components/alert-dialog";
import { DateInput } from "#app/components/date-input";
import { ErrorSummary, Honeypot, SubmitButton, TextField } from "#app/components/form";
import { WarningIcon } from "#app/components/icons";
import { pageMeta } from "#app/components/meta";
import { SelectField } from "#app/components/select-field";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import { AGE_MESSAGES } from "#app/domain/age";
import { formValues, isHoneypotFilled, parseForm, type FieldErrors } from "#app/domain/forms";
import { londonDate } from "#app/domain/london-time";
import { NHS_MESSAGES, cleanNhsNumber } from "#app/domain/nhs-number";
import { safeRedirect } from "#app/domain/redirect";
import { signupSchema } from "#app/domain/signup";
import { ETHNICITIES, GENDERS } from "#app/domain/signup-options";
import { auth, withPendingProfile } from "#app/services/auth.server";
import { enqueueEmail } from "#app/services/email.server";
import { cookieHeaders, requireAnonymous } from "#app/services/session.server";

export const meta = () =>
  pageMeta("Create your account", "Register to book a PSA screening event for men aged 40 to 80.");

const SIGNUP_ERRORS = {
  unexpected: "An unexpected error occurred. Please try again.",
} as const;

type ActionData = {
  fieldErrors?: FieldErrors;
  formError?: string;
  values?: Record<string, string>;
  ageError?: boolean;
};

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return { redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/") };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const values = formValues(form, ["password", "confirmPassword", "intent"]);
  const redirectTo = safeRedirect(form.get("redirectTo"), "/");
  const successPath = `/signup-success?redirectTo=${encodeURIComponent(redirectTo)}`;
  if (isHoneypotFilled(form)) return redirect(successPath);

  const parsed = parseForm(signupSchema(londonDate(new Date())), {
    ...values,
    password: String(form.get("password") ?? ""),
    confirmPassword: String(form.get("confirmPassword") ?? ""),
  });
  if (!parsed.ok) {
    return data<ActionData>(
      {
        fieldErrors: parsed.fieldErrors,
        values,
        ageError: parsed.fieldErrors.dateOfBirth === AGE_MESSAGES.outOfRange,
      },
      { status: 400 },
    );
  }
  const input = parsed.data;
  try {
    const { headers } = await withPendingProfile(
      {
        firstName: input.firstName,
        lastName: input.lastName,
        gender: input.gender,
        dateOfBirth: input.dateOfBirth,
        ethnicity: input.ethnicity,
        occupation: input.occupation,
        phone: input.phone,
        email: input.email,
        homeAddressLine1: input.address1,
        homeAddressLine2: input.address2,
        homePostcode: input.postCode,
        homeCountry: input.country,
        billingAddress: null,
        nhsNumber: input.nhsNumber,
      },
      () =>
        auth().api.signUpEmail({
          body: {
            name: `${input.firstName} ${input.lastName}`,
            email: input.email,
            password: input.password,
            callbackURL: "/portal",
          },
          headers: request.headers,
          returnHeaders: true,
        }),
    );
    return redirect(successPath, { headers: cookieHeaders(headers) });
  } catch (error) {
    if (
      error instanceof APIError &&
      String(error.body?.code ?? "").startsWith("USER_ALREADY_EXISTS")
    ) {
      // Same page as a new sign-up, so nobody learns which addresses are registered; the owner is told by e-mail.
      await enqueueEmail(db(), {
        to: input.email,
        subject: `Someone tried to register with your e-mail address`,
        text: [
          "Hello,",
          "",
          `Someone, perhaps you, tried to create a new ${organisation.shortName} account with this e-mail address. You already have an account, so nothing has changed.`,
          "",
          `To sign in, or to reset your password if you have forgotten it, go to ${config().publicBaseUrl}/login`,
          "",
          organisation.name,
        ].join("\n"),
      });
      return redirect(successPath);
    }
    console.error("sign-up failed", error instanceof Error ? error.message : error);
    return data<ActionData>({ formError: SIGNUP_ERRORS.unexpected, values }, { status: 500 });
  }
}

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting =
    navigation.state === "submitting" && navigation.formAction?.startsWith("/signup") === true;
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const [ageNoticeShown, setAgeNoticeShown] = useState(false);
  // The dialog shows for each answer with an age problem until that answer is dismissed.
  const [dismissedAnswer, setDismissedAnswer] = useState<ActionData | undefined>();
  const [nhsMessage, setNhsMessage] = useState<string | undefined>();

  const ageText = (
    <p>
      {organisation.shortName} events are for people aged between 40 and 80 only. Please do not
      register or book if you are outside this age group. If you have any questions, e-mail{" "}
      <a href={`mailto:${organisation.emails.bookings}`}>{organisation.emails.bookings}</a>.
    </p>
  );

  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>Create your account</h1>
        <p>
          Already a member?{" "}
          <Link to={`/login?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`}>Sign in</Link>
        </p>
        <ErrorSummary errors={errors} />
        {actionData?.ageError && (
          <div className="warning no-js-only" role="alert">
            <h2 className="status">
              <WarningIcon /> {AGE_MESSAGES.errorTitle}
            </h2>
            {ageText}
          </div>
        )}
        <AlertDialog
          title={AGE_MESSAGES.errorTitle}
          open={Boolean(actionData?.ageError) && dismissedAnswer !== actionData}
          onClose={() => setDismissedAnswer(actionData)}
        >
          {ageText}
        </AlertDialog>

        <Form method="post" noValidate className="form">
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <Honeypot />
          <TextField
            name="firstName"
            label="First name"
            hint="Include any middle names, exactly as on your birth certificate or passport"
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

          <div className={ageNoticeShown ? "" : "no-js-only"} role="status">
            <div className="inset">
              <h2 className="status">{AGE_MESSAGES.noticeTitle}</h2>
              {ageText}
            </div>
          </div>
          <DateInput
            name="dateOfBirth"
            legend="Date of birth"
            values={{
              day: values["dateOfBirth-day"],
              month: values["dateOfBirth-month"],
              year: values["dateOfBirth-year"],
            }}
            error={errors.dateOfBirth}
            onFocus={() => setAgeNoticeShown(true)}
          />
          <SelectField
            name="gender"
            label="Gender"
            options={GENDERS}
            placeholder="Select"
            defaultValue={values.gender ?? ""}
            error={errors.gender}
          />
          <SelectField
            name="ethnicity"
            label="Ethnic group"
            options={ETHNICITIES}
            placeholder="Select"
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
            name="phoneNumber"
            type="tel"
            label="Phone number"
            hint="Include your country code, for example 447700900123"
            placeholder="447700900123"
            autoComplete="tel"
            className="input--width-20"
            defaultValue={values.phoneNumber}
            error={errors.phoneNumber}
          />

          <h2 className="form-section">Home address</h2>
          <AddressFields
            names={{
              line1: "address1",
              line2: "address2",
              postcode: "postCode",
              country: "country",
            }}
            values={values}
            errors={errors}
          />

          <h2 className="form-section">NHS number</h2>
          <TextField
            name="nhs"
            label="NHS number (optional)"
            hint="10 digits, on any letter from the NHS, a prescription or the NHS App. Some laboratories reject samples without a correct NHS number."
            inputMode="numeric"
            className="input--width-20"
            defaultValue={values.nhs}
            error={errors.nhs ?? nhsMessage}
            onChange={(event) => {
              const { digits, stripped } = cleanNhsNumber(event.currentTarget.value);
              if (stripped) event.currentTarget.value = digits;
              setNhsMessage(stripped ? NHS_MESSAGES.onlyDigits : undefined);
            }}
          />

          <h2 className="form-section">Sign-in details</h2>
          <TextField
            name="email"
            type="email"
            label="Email address"
            autoComplete="email"
            spellCheck={false}
            defaultValue={values.email}
            error={errors.email}
          />
          <TextField
            name="password"
            type="password"
            label="Password"
            hint="At least 8 characters. A few words you can remember work well."
            autoComplete="new-password"
            error={errors.password}
          />
          <TextField
            name="confirmPassword"
            type="password"
            label="Confirm password"
            autoComplete="new-password"
            error={errors.confirmPassword}
          />

          {actionData?.formError && (
            <p className="form-message form-message--error" role="alert">
              {actionData.formError}
            </p>
          )}
          <SubmitButton busy={submitting} busyLabel="Creating your account...">
            Create account
          </SubmitButton>
        </Form>
        {submitting && (
          <div className="overlay" role="status">
            <p className="loading">
              <span className="spinner" aria-hidden="true" /> Creating your account…
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
