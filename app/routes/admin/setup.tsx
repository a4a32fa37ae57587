import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { z } from "zod";
import type { Route } from "./+types/setup";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { newPasswordFields, prepareNewPassword, requiredLine } from "#app/domain/fields";
import { parseForm, type FieldErrors } from "#app/domain/forms";
import { acceptInvitation, findUsableInvitation } from "#app/services/staff.server";
import { cookieHeaders, getSessionUser, signIn } from "#app/services/session.server";
import { startEnrolmentAfterSetup } from "#app/services/two-factor-enrolment.server";
import adminStyles from "#app/styles/admin.css?url";
import { TOKEN_LINK_HEADERS, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Set up your staff account", "Set up a back-office account.");
export const headers = pipeHeaders;
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

/** The token is in the address: never cached, and never sent on to another site as a referrer. */

export const SETUP_MESSAGES = {
  signInFirst:
    "You already have an account with this address. Sign in to it first, then this link adds the staff roles to it.",
  expired:
    "This set-up link has expired or has already been used. Ask an admin to invite you again.",
  name: "Enter your name",
} as const;

const setupSchema = z.preprocess(
  (input) => {
    const values = input as Record<string, unknown>;
    const prepared = prepareNewPassword(values, [values.name, values.email]);
    return { ...values, password: prepared.password, confirmPassword: prepared.confirmPassword };
  },
  z.object({
    name: requiredLine(SETUP_MESSAGES.name),
    password: newPasswordFields.password,
    confirmPassword: newPasswordFields.confirmPassword,
  }),
);

/** For an existing account: whether the person signed in here is its owner. */
async function signedInAsInvitee(request: Request, email: string) {
  const current = await getSessionUser(request);
  return current?.email.toLowerCase() === email.toLowerCase() ? current : null;
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const invitation = await findUsableInvitation(db(), token);
  const signedIn = invitation?.hasAccount
    ? Boolean(await signedInAsInvitee(request, invitation.email))
    : false;
  return data(
    {
      token,
      signInHref: `/login?redirectTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`,
      invitation: invitation
        ? {
            email: invitation.email,
            roles: invitation.roles,
            hasAccount: invitation.hasAccount,
            signedIn,
          }
        : null,
    },
    { headers: TOKEN_LINK_HEADERS },
  );
}

type ActionData = { fieldErrors?: FieldErrors; formError?: string; values?: { name: string } };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = String(form.get("token") ?? "");
  const invitation = await findUsableInvitation(db(), token);
  if (!invitation) return data<ActionData>({ formError: SETUP_MESSAGES.expired }, { status: 400 });

  if (invitation.hasAccount) {
    // Someone who already has an account (a patient, say) keeps it and its password, and must be
    // signed in to it: anyone can register an address, only its owner knows the password.
    const current = await signedInAsInvitee(request, invitation.email);
    const accepted = await acceptInvitation(db(), {
      token,
      name: "",
      password: null,
      clientAddress: context.clientAddress,
      signedInUserId: current?.id ?? null,
    });
    if (!accepted.ok)
      return data<ActionData>(
        {
          formError:
            accepted.reason === "sign-in-first"
              ? SETUP_MESSAGES.signInFirst
              : SETUP_MESSAGES.expired,
        },
        400,
      );
    return redirect("/admin/two-factor");
  }

  const values = { name: String(form.get("name") ?? "") };
  const parsed = parseForm(setupSchema, {
    name: values.name,
    email: invitation.email,
    password: String(form.get("password") ?? ""),
    confirmPassword: String(form.get("confirmPassword") ?? ""),
  });
  if (!parsed.ok)
    return data<ActionData>(
      { fieldErrors: parsed.fieldErrors, values },
      { status: 400, headers: TOKEN_LINK_HEADERS },
    );
  const accepted = await acceptInvitation(db(), {
    token,
    name: parsed.data.name,
    password: parsed.data.password,
    clientAddress: context.clientAddress,
    signedInUserId: null,
  });
  if (!accepted.ok) return data<ActionData>({ formError: SETUP_MESSAGES.expired }, 400);
  const signedIn = await signIn(
    request,
    accepted.email,
    parsed.data.password,
    context.clientAddress,
  );
  if (!signedIn.ok) return redirect("/login?redirectTo=%2Fadmin");
  // Next: two-factor sign-in, which every back-office page asks for until it is on. The password
  // just chosen here counts, so its page shows the key without asking for it again.
  const headers = cookieHeaders(signedIn.headers);
  const pass = await startEnrolmentAfterSetup(
    db(),
    request,
    signedIn.headers,
    parsed.data.password,
  );
  if (pass) headers.append("Set-Cookie", pass);
  return redirect("/admin/two-factor", { headers });
}

export default function StaffSetup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errors = actionData?.fieldErrors ?? {};
  const { invitation, token } = loaderData;
  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>Set up your staff account</h1>
        {!invitation ? (
          <p className="form-message form-message--error">{SETUP_MESSAGES.expired}</p>
        ) : (
          <>
            <p>
              This account is for <strong>{invitation.email}</strong>.
            </p>
            {actionData?.formError && (
              <p className="form-message form-message--error" role="alert">
                {actionData.formError}
              </p>
            )}
            <ErrorSummary errors={errors} />
            <Form method="post" noValidate className="form">
              <input type="hidden" name="token" value={token} />
              {invitation.hasAccount ? (
                invitation.signedIn ? (
                  <p>
                    You are signed in to your account. Continue to add the staff roles to it; next
                    you will set up two-factor sign-in.
                  </p>
                ) : (
                  <p>
                    {SETUP_MESSAGES.signInFirst}{" "}
                    <Link to={loaderData.signInHref}>Sign in, then come back here</Link>
                  </p>
                )
              ) : (
                <>
                  <TextField
                    name="name"
                    label="Your name"
                    autoComplete="name"
                    defaultValue={actionData?.values?.name}
                    error={errors.name}
                  />
                  <TextField
                    name="password"
                    type="password"
                    label="Choose a password"
                    hint="At least 8 characters. A few unrelated words are easy to remember and hard to guess."
                    autoComplete="new-password"
                    error={errors.password}
                  />
                  <TextField
                    name="confirmPassword"
                    type="password"
                    label="Type the password again"
                    autoComplete="new-password"
                    error={errors.confirmPassword}
                  />
                </>
              )}
              {(!invitation.hasAccount || invitation.signedIn) && (
                <SubmitButton busy={navigation.state !== "idle"} busyLabel="Setting up...">
                  Continue
                </SubmitButton>
              )}
            </Form>
            <p>
              <Link to="/">Back to the website</Link>
            </p>
          </>
        )}
      </div>
    </section>
  );
}
