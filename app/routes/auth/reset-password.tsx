import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/reset-password";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import type { FieldErrors } from "#app/domain/forms";
import { db } from "#app/db/client.server";
import { PASSWORD_MESSAGES } from "#app/domain/password";
import { resetPasswordFromLink } from "#app/services/password-reset.server";
import { TOKEN_LINK_HEADERS, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Reset your password", "Choose a new password for your account.");

/** The token is in the address: never cached, and never sent on to another site as a referrer. */
export const headers = pipeHeaders;

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // better-auth sends people here with ?token=… from the e-mail link, or ?error=INVALID_TOKEN.
  return data(
    {
      token: url.searchParams.get("token") ?? "",
      expired: url.searchParams.has("error") || !url.searchParams.get("token"),
    },
    { headers: TOKEN_LINK_HEADERS },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const reset = await resetPasswordFromLink(
    db(),
    {
      newPassword: String(form.get("newPassword") ?? ""),
      confirmPassword: String(form.get("confirmPassword") ?? ""),
      token: String(form.get("token") ?? ""),
    },
    request.headers,
  );
  if (!reset.ok)
    return data<{ fieldErrors: FieldErrors }>(
      { fieldErrors: reset.fieldErrors },
      { status: 400, headers: TOKEN_LINK_HEADERS },
    );
  // Every other session was signed out (revokeSessionsOnPasswordReset); sign in with the new password.
  return redirect("/login?reset=1");
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors = actionData?.fieldErrors ?? {};
  if (loaderData.expired) {
    return (
      <section className="section">
        <div className="page-width narrow">
          <h1>Reset your password</h1>
          <p className="warning">{PASSWORD_MESSAGES.resetLinkExpired}</p>
          <Link className="button" to="/login">
            Go to sign in
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>Reset your password</h1>
        <ErrorSummary errors={errors} />
        <Form method="post" noValidate className="form">
          <input type="hidden" name="token" value={loaderData.token} />
          <TextField
            name="newPassword"
            type="password"
            label="New password"
            hint="At least 8 characters. Three or four unrelated words you can remember work well."
            autoComplete="new-password"
            error={errors.newPassword}
          />
          <TextField
            name="confirmPassword"
            type="password"
            label="Confirm new password"
            autoComplete="new-password"
            error={errors.confirmPassword}
          />
          <SubmitButton busy={navigation.state !== "idle"} busyLabel="Saving...">
            Reset Password
          </SubmitButton>
        </Form>
      </div>
    </section>
  );
}
