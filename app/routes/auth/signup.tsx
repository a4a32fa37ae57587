import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/signup";
import { AgeRestrictionText } from "#app/components/age-restriction";
import {
  ErrorSummary,
  FocusedAlert,
  Honeypot,
  SubmitButton,
  TextField,
} from "#app/components/form";
import { WarningIcon } from "#app/components/icons";
import { pageMeta } from "#app/components/meta";
import { PersonalDetailsFields } from "#app/components/personal-details-fields";
import { db } from "#app/db/client.server";
import { AGE_MESSAGES, readDateOfBirth, registerFrom } from "#app/domain/age";
import { formatLongDate } from "#app/domain/date-labels";
import { formValues, isHoneypotFilled, parseForm, type FieldErrors } from "#app/domain/forms";
import { londonDate } from "#app/domain/london-time";
import { SIGNUP_FIELDS } from "#app/domain/field-options";
import { signupSchema } from "#app/domain/personal-details";
import { safeRedirect } from "#app/domain/redirect";
import { minutesToWait } from "#app/domain/retry-after";
import { requireAnonymous } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { cookieHeaders } from "#app/services/session.server";
import { signUpPatient } from "#app/services/sign-up.server";
import { readForm } from "#app/utils/http.server";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta("Create your account", "Register to book a PSA screening event for men aged 40 to 80.");

const SIGNUP_ERRORS = {
  unexpected: "An unexpected error occurred. Please try again.",
  passwordAgain:
    "Type your password again, in both boxes: for your safety, we do not send it back to the page",
  tooMany: (retryAfterSeconds: number) =>
    `Too many accounts have been created from your internet connection. Please wait ${minutesToWait(retryAfterSeconds)} and try again, or call us to book.`,
} as const;

type ActionData = {
  fieldErrors?: FieldErrors;
  formError?: string;
  values?: Record<string, string>;
  ageError?: boolean;
  /** too young today: the day he may register ("yyyy-MM-dd") */
  registerFrom?: string | null;
};

export const headers = pipeHeaders;
export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return { redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const values = formValues(form, ["password", "confirmPassword", "intent"]);
  const redirectTo = safeRedirect(form.get("redirectTo"), "/");
  const successPath = `/signup-success?redirectTo=${encodeURIComponent(redirectTo)}`;
  if (isHoneypotFilled(form)) return redirect(successPath);

  const today = londonDate(new Date());
  const parsed = parseForm(signupSchema(today), {
    ...values,
    password: String(form.get("password") ?? ""),
    confirmPassword: String(form.get("confirmPassword") ?? ""),
  });
  if (!parsed.ok) {
    const ageError = parsed.fieldErrors.dateOfBirth === AGE_MESSAGES.outOfRange;
    // The page comes back without the password he typed: said in the summary with the rest, so
    // that one round of corrections is enough (found by an accessibility review).
    const fieldErrors =
      form.get("password") && !parsed.fieldErrors.password && !parsed.fieldErrors.confirmPassword
        ? { ...parsed.fieldErrors, password: SIGNUP_ERRORS.passwordAgain }
        : parsed.fieldErrors;
    const dateOfBirth = readDateOfBirth(
      {
        day: String(values["dateOfBirth-day"] ?? ""),
        month: String(values["dateOfBirth-month"] ?? ""),
        year: String(values["dateOfBirth-year"] ?? ""),
      },
      today,
    );
    return data<ActionData>(
      {
        fieldErrors,
        values,
        ageError,
        registerFrom: ageError && dateOfBirth.ok ? registerFrom(dateOfBirth.date, today) : null,
      },
      { status: 400 },
    );
  }
  const { email, password, ...profile } = parsed.data;
  try {
    const result = await signUpPatient(db(), {
      profile: { ...profile, billingAddress: null },
      email,
      password,
      clientAddress: context.clientAddress,
      headers: request.headers,
    });
    if (result.outcome === "too-many") {
      return data<ActionData>(
        { formError: SIGNUP_ERRORS.tooMany(result.retryAfterSeconds), values },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
    }
    return redirect(successPath, {
      headers: result.headers ? cookieHeaders(result.headers) : undefined,
    });
  } catch (error) {
    const errorId = logError(error, { route: routeOf(request), code: "sign_up_failed" });
    return data<ActionData>(
      { formError: `${SIGNUP_ERRORS.unexpected} (Reference ${errorId})`, values },
      { status: 500 },
    );
  }
}

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting =
    navigation.state === "submitting" && navigation.formAction?.startsWith("/signup") === true;
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const ageText = <AgeRestrictionText />;

  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>Create your account</h1>
        <p>
          Already a member?{" "}
          <Link to={`/login?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`}>Sign in</Link>
        </p>
        <ErrorSummary errors={errors} fieldOrder={SIGNUP_FIELDS} />
        {/* At the top, taking focus: under the long form, nobody would see it. */}
        {actionData?.formError && (
          <FocusedAlert block="error-summary" title="There is a problem" focusKey={actionData}>
            <p className="form-message form-message--error">{actionData.formError}</p>
          </FocusedAlert>
        )}
        {/* The spec's Age Restriction Error, on the page itself: sign-up has no script (D-140). */}
        {actionData?.ageError && (
          <div className="warning" role="alert">
            <h2 className="status">
              <WarningIcon /> {AGE_MESSAGES.errorTitle}
            </h2>
            {actionData.registerFrom && (
              <p>
                You can create an account from your 40th birthday,{" "}
                {formatLongDate(actionData.registerFrom)}.
              </p>
            )}
            {ageText}
          </div>
        )}

        <Form method="post" noValidate className="form">
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <Honeypot />
          <PersonalDetailsFields
            purpose="signup"
            values={values}
            errors={errors}
            beforeDateOfBirth={
              <div className="inset">
                <h2 className="status">{AGE_MESSAGES.noticeTitle}</h2>
                {ageText}
              </div>
            }
          />

          <h2 className="form-section">NHS number</h2>
          <TextField
            name="nhsNumber"
            label="NHS number (optional)"
            hint="10 digits, on any letter from the NHS, a prescription or the NHS App. Some laboratories reject samples without a correct NHS number."
            inputMode="numeric"
            className="input--width-20"
            defaultValue={values.nhsNumber}
            error={errors.nhsNumber}
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
            hint="At least 8 characters. Three or four unrelated words you can remember work well."
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
