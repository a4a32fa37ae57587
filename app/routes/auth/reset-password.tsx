import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { APIError } from "better-auth";
import { z } from "zod";
import type { Route } from "./+types/reset-password";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { newPasswordFields, prepareNewPassword } from "#app/domain/fields";
import { parseForm, type FieldErrors } from "#app/domain/forms";
import { auth } from "#app/services/auth.server";
import { TOKEN_LINK_HEADERS, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Reset your password", "Choose a new password for your account.");

/** The token is in the address: never cached, and never sent on to another site as a referrer. */
export const headers = pipeHeaders;

const EXPIRED =
  "This link has expired or has already been used. Ask for a new one from the sign-in page.";

const resetSchema = z.preprocess(
  (input) => {
    const values = input as Record<string, unknown>;
    const prepared = prepareNewPassword(values, [], {
      password: "newPassword",
      confirm: "confirmPassword",
    });
    return { ...values, newPassword: prepared.password, confirmPassword: prepared.confirmPassword };
  },
  z.object({
    newPassword: newPasswordFields.password,
    confirmPassword: newPasswordFields.confirmPassword,
    token: z.string().min(1, { error: EXPIRED }).max(200, { error: EXPIRED }),
  }),
);

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
  const parsed = parseForm(resetSchema, {
    newPassword: String(form.get("newPassword") ?? ""),
    confirmPassword: String(form.get("confirmPassword") ?? ""),
    token: String(form.get("token") ?? ""),
  });
  if (!parsed.ok)
    return data<{ fieldErrors: FieldErrors }>(
      { fieldErrors: parsed.fieldErrors },
      { status: 400, headers: TOKEN_LINK_HEADERS },
    );
  try {
    await auth().api.resetPassword({
      body: { newPassword: parsed.data.newPassword, token: parsed.data.token },
      headers: request.headers,
    });
  } catch (error) {
    if (error instanceof APIError)
      return data<{ fieldErrors: FieldErrors }>(
        { fieldErrors: { newPassword: EXPIRED } },
        { status: 400, headers: TOKEN_LINK_HEADERS },
      );
    throw error;
  }
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
          <p className="warning">{EXPIRED}</p>
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
