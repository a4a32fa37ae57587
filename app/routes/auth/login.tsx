import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { z } from "zod";
import type { Route } from "./+types/login";
import {
  ErrorSummary,
  FocusedAlert,
  Honeypot,
  SubmitButton,
  TextField,
} from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { NewAccountNotice } from "#app/components/new-account-notice";
import { formValues, isHoneypotFilled, parseForm, type FieldErrors } from "#app/domain/forms";
import { safeRedirect } from "#app/domain/redirect";
import { STAFF_SESSION_HOURS } from "#app/domain/roles";
import { emailField } from "#app/domain/fields";
import { auth } from "#app/services/auth.server";
import { requireAnonymous } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { cookieHeaders, signIn } from "#app/services/session.server";
import { readForm } from "#app/utils/http.server";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta("Sign in", "Sign in to book a screening event, see your details and read your results.");

export const LOGIN_MESSAGES = {
  emailForReset: "Please enter your email to reset your password.",
  resetSent: "Password reset email sent. Check your inbox.",
} as const;

const signInSchema = z.object({
  email: emailField(),
  password: z.string({ error: "Enter your password" }).min(1, { error: "Enter your password" }),
});

type ActionData = {
  fieldErrors?: FieldErrors;
  formError?: string;
  notice?: string;
  values?: Record<string, string>;
};

export const headers = pipeHeaders;
export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const url = new URL(request.url);
  return {
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), "/"),
    reset: url.searchParams.has("reset"),
    expired: url.searchParams.has("expired"),
    unsaved: url.searchParams.has("unsaved"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const values = formValues(form, ["password", "intent"]);
  const redirectTo = safeRedirect(form.get("redirectTo"), "/");
  if (isHoneypotFilled(form))
    return data<ActionData>({ formError: "Please try again." }, { status: 400 });

  if (form.get("intent") === "forgot") {
    const email = emailField().safeParse(values.email ?? "");
    if (!email.success) {
      return data<ActionData>(
        { fieldErrors: { email: LOGIN_MESSAGES.emailForReset }, values },
        { status: 400 },
      );
    }
    // The answer is the same whether or not the address has an account.
    await auth()
      .api.requestPasswordReset({
        body: { email: email.data, redirectTo: "/reset-password" },
        headers: request.headers,
      })
      .catch((error) =>
        logError(error, { route: routeOf(request), code: "password_reset_request_failed" }),
      );
    return data<ActionData>({ notice: LOGIN_MESSAGES.resetSent, values });
  }

  const parsed = parseForm(signInSchema, {
    email: values.email ?? "",
    password: String(form.get("password") ?? ""),
  });
  if (!parsed.ok)
    return data<ActionData>({ fieldErrors: parsed.fieldErrors, values }, { status: 400 });
  const result = await signIn(
    request,
    parsed.data.email,
    parsed.data.password,
    context.clientAddress,
  );
  if (!result.ok)
    return data<ActionData>(
      { formError: result.message, values },
      {
        status: result.status,
        headers:
          result.status === 429 ? { "Retry-After": String(result.retryAfterSeconds) } : undefined,
      },
    );
  if (result.twoFactor) {
    // Staff: the password was right; the code from their app comes next.
    const next = `/login/two-factor?redirectTo=${encodeURIComponent(redirectTo === "/" ? "/admin" : redirectTo)}`;
    return redirect(next, { headers: cookieHeaders(result.headers) });
  }
  return redirect(redirectTo, { headers: cookieHeaders(result.headers) });
}

/** Why he is signing in again (staff after their hours, anyone whose session had ended), and what to do. */
function SignedOutNotice({ expired, unsaved }: { expired: boolean; unsaved: boolean }) {
  const why = expired
    ? `For safety, staff sign in again after ${STAFF_SESSION_HOURS} hours.`
    : "You had been signed out.";
  return (
    <p>
      {why} {unsaved ? "Sign in, then do it again." : "Please sign in."}
    </p>
  );
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/login") === true;
  const values = actionData?.values ?? {};
  const errors = actionData?.fieldErrors ?? {};
  const signupHref = `/signup?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`;

  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>Sign in</h1>
        <NewAccountNotice signupHref={signupHref} />
        {loaderData.reset && (
          <div className="success-panel" role="status">
            <p>Your password has been changed. Sign in with your new password.</p>
          </div>
        )}
        {loaderData.unsaved && !actionData ? (
          // On arrival it takes focus, so it is read out: a notice already there is not.
          <FocusedAlert block="notice-panel" title="What you just sent was not saved" focusKey={1}>
            <SignedOutNotice expired={loaderData.expired} unsaved />
          </FocusedAlert>
        ) : (
          (loaderData.expired || loaderData.unsaved) && (
            <div className="notice-panel" role="status">
              {loaderData.unsaved && (
                <p>
                  <strong>What you just sent was not saved.</strong>
                </p>
              )}
              <SignedOutNotice expired={loaderData.expired} unsaved={loaderData.unsaved} />
            </div>
          )
        )}
        <ErrorSummary errors={errors} />
        {/* At the top, taking focus: below the buttons, a phone at 200% would not show it. */}
        {actionData?.formError && (
          <FocusedAlert block="error-summary" title="There is a problem" focusKey={actionData}>
            <p className="form-message form-message--error">{actionData.formError}</p>
          </FocusedAlert>
        )}
        {actionData?.notice && (
          // Takes focus, so that it is read out: the page came back from the server, and a status
          // already on a new page is not announced.
          <FocusedAlert block="notice-panel" title="Check your e-mail" focusKey={actionData}>
            <p className="form-message form-message--success">{actionData.notice}</p>
          </FocusedAlert>
        )}
        <Form method="post" noValidate className="form">
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <Honeypot />
          <TextField
            name="email"
            type="email"
            label="Email address"
            autoComplete="username"
            spellCheck={false}
            defaultValue={values.email}
            error={errors.email}
          />
          <TextField
            name="password"
            type="password"
            label="Password"
            autoComplete="current-password"
            error={errors.password}
          />
          <div className="button-group">
            <SubmitButton busy={busy} busyLabel="Signing in...">
              Sign in
            </SubmitButton>
            <button
              type="submit"
              name="intent"
              value="forgot"
              className="button button--link"
              formNoValidate
            >
              Forgot password?
            </button>
          </div>
        </Form>
        <p>
          New User? <Link to={signupHref}>Create an account</Link>
        </p>
      </div>
    </section>
  );
}
