import { APIError } from "better-auth";
import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/login.two-factor";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import type { FieldErrors } from "#app/domain/form-basics";
import { safeRedirect } from "#app/domain/redirect";
import { auth } from "#app/services/auth.server";
import { requireAnonymous } from "#app/services/guards.server";
import { acceptSecondFactor, cookieHeaders } from "#app/services/session.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Enter your code", "The second step of signing in for staff.");
export const headers = pipeHeaders;

export const TWO_FACTOR_MESSAGES = {
  code: "Enter the 6-digit code from your authenticator app, or a recovery code",
  wrongCode: "That code is not right. Try the newest code from your app.",
  expired: "Signing in took too long. Please sign in again.",
  codeUsed:
    "That code has already been used. Please sign in again, and when your app shows a new code, type that one.",
} as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const url = new URL(request.url);
  return data(
    { redirectTo: safeRedirect(url.searchParams.get("redirectTo"), "/admin") },
    { headers: NO_STORE },
  );
}

type ActionData = { fieldErrors: FieldErrors; expired?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const redirectTo = safeRedirect(form.get("redirectTo"), "/admin");
  const typed = String(form.get("code") ?? "").trim();
  if (!typed || typed.length > 40)
    return data<ActionData>({ fieldErrors: { code: TWO_FACTOR_MESSAGES.code } }, 400);
  // Six digits are a code from the app; anything else is tried as a recovery code.
  const appCode = typed.replace(/\s/g, "");
  const isAppCode = /^\d{6}$/.test(appCode);
  try {
    const { headers } = isAppCode
      ? await auth().api.verifyTOTP({
          body: { code: appCode },
          headers: request.headers,
          returnHeaders: true,
        })
      : await auth().api.verifyBackupCode({
          body: { code: typed },
          headers: request.headers,
          returnHeaders: true,
        });
    const outcome = await acceptSecondFactor(headers, {
      appCode: isAppCode ? appCode : undefined,
      clientAddress: context.clientAddress,
    });
    if (outcome !== "accepted") {
      // The sign-in is over either way: better-auth has used up its challenge.
      const message =
        outcome === "replayed" ? TWO_FACTOR_MESSAGES.codeUsed : TWO_FACTOR_MESSAGES.expired;
      return data<ActionData>({ fieldErrors: { code: message }, expired: true }, 401);
    }
    return redirect(redirectTo, { headers: cookieHeaders(headers) });
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const expired = error.body?.code === "INVALID_TWO_FACTOR_COOKIE";
    return data<ActionData>(
      {
        fieldErrors: {
          code: expired ? TWO_FACTOR_MESSAGES.expired : TWO_FACTOR_MESSAGES.wrongCode,
        },
        expired,
      },
      401,
    );
  }
}

export default function SignInCode({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors = actionData?.fieldErrors ?? {};
  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>Enter your code</h1>
        <p>Open your authenticator app and type the 6-digit code it shows for this site.</p>
        <ErrorSummary errors={errors} />
        <Form method="post" noValidate className="form">
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <TextField
            name="code"
            label="Code"
            hint="Lost your phone? Type one of your recovery codes instead."
            inputMode="text"
            autoComplete="one-time-code"
            spellCheck={false}
            error={errors.code}
          />
          <SubmitButton busy={navigation.state !== "idle"} busyLabel="Checking...">
            Sign in
          </SubmitButton>
        </Form>
        {actionData?.expired && (
          <p>
            <Link to={`/login?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`}>
              Sign in again
            </Link>
          </p>
        )}
      </div>
    </section>
  );
}
