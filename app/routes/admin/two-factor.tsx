import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/two-factor";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import type { FieldErrors } from "#app/domain/form-basics";
import { requireStaff } from "#app/services/guards.server";
import { cookieHeaders } from "#app/services/session.server";
import {
  finishTwoFactorEnrolment,
  startTwoFactorEnrolment,
} from "#app/services/two-factor-enrolment.server";
import {
  enrolmentPassCookie,
  hasEnrolmentPass,
  pendingEnrolment,
  replaceWithStandardKey,
} from "#app/services/two-factor.server";
import adminStyles from "#app/styles/admin.css?url";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Set up two-factor sign-in", "Staff sign in with a password and a code from an app.");
export const headers = pipeHeaders;
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

export const ENROLMENT_MESSAGES = {
  password: "Enter your password",
  wrongPassword: "That password is not right. Check it and try again.",
  code: "Enter the 6-digit code from your authenticator app",
  wrongCode:
    "That code is not right. Check the time on your phone is correct, and try the newest code.",
} as const;

/** Staff without two-factor sign-in are sent here by every back-office page. */
export async function loader(args: Route.LoaderArgs) {
  const staff = await requireStaff(args, undefined, { allowWithoutTwoFactor: true });
  if (staff.twoFactorEnabled) throw redirect("/admin");
  // The key and recovery codes only for the browser that has just confirmed the password.
  const pending = hasEnrolmentPass(args.request, staff)
    ? await pendingEnrolment(db(), staff)
    : null;
  return data({ pending }, { headers: NO_STORE });
}

type ActionData = { fieldErrors: FieldErrors };

export async function action(args: Route.ActionArgs) {
  const staff = await requireStaff(args, undefined, { allowWithoutTwoFactor: true });
  if (staff.twoFactorEnabled) throw redirect("/admin");
  const { request } = args;
  const form = await readForm(request);

  if (form.get("intent") === "start") {
    const password = String(form.get("password") ?? "");
    if (!password)
      return data<ActionData>({ fieldErrors: { password: ENROLMENT_MESSAGES.password } }, 400);
    if (!(await startTwoFactorEnrolment(request, password)))
      return data<ActionData>({ fieldErrors: { password: ENROLMENT_MESSAGES.wrongPassword } }, 400);
    await replaceWithStandardKey(db(), staff.id);
    return redirect("/admin/two-factor", {
      headers: { "Set-Cookie": enrolmentPassCookie(staff) },
    });
  }

  const code = String(form.get("code") ?? "").replace(/\s/g, "");
  if (!/^\d{6}$/.test(code))
    return data<ActionData>({ fieldErrors: { code: ENROLMENT_MESSAGES.code } }, 400);
  const enrolled = await finishTwoFactorEnrolment(request, staff, code);
  if (!enrolled.ok)
    return data<ActionData>({ fieldErrors: { code: ENROLMENT_MESSAGES.wrongCode } }, 400);
  // Two-factor sign-in is on either way; if this session did not take, sign in with a new code.
  if (enrolled.outcome !== "accepted") return redirect("/login?redirectTo=%2Fadmin");
  return redirect("/admin", { headers: cookieHeaders(enrolled.headers) });
}

export default function TwoFactorEnrolment({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors = actionData?.fieldErrors ?? {};
  const { pending } = loaderData;
  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>Set up two-factor sign-in</h1>
        <p>
          Staff see people&apos;s health details, so you sign in with your password and a 6-digit
          code from an authenticator app on your phone (such as Google Authenticator or Microsoft
          Authenticator).
        </p>
        <ErrorSummary errors={errors} />
        {!pending ? (
          <Form method="post" noValidate className="form">
            <input type="hidden" name="intent" value="start" />
            <TextField
              name="password"
              type="password"
              label="Confirm your password"
              autoComplete="current-password"
              error={errors.password}
            />
            <SubmitButton busy={busy} busyLabel="Checking...">
              Continue
            </SubmitButton>
          </Form>
        ) : (
          <>
            <h2>1. Add this key to your app</h2>
            <p>Scan the QR code with your authenticator app.</p>
            <figure className="qr-code">
              <div
                role="img"
                aria-label="QR code for your authenticator app"
                dangerouslySetInnerHTML={{ __html: pending.qrSvg }}
              />
              <figcaption>
                If you cannot scan it, choose &ldquo;enter a setup key&rdquo; in the app and type
                this key: <code className="totp-key">{pending.key}</code>
              </figcaption>
            </figure>
            <h2>2. Keep your recovery codes</h2>
            <p>
              Each code lets you sign in once if you lose your phone. Print them or write them down,
              and keep them somewhere safe.
            </p>
            <ul className="recovery-codes">
              {pending.recoveryCodes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ul>
            <h2>3. Enter a code from the app</h2>
            <Form method="post" noValidate className="form">
              <input type="hidden" name="intent" value="verify" />
              <TextField
                name="code"
                label="6-digit code"
                inputMode="numeric"
                autoComplete="one-time-code"
                error={errors.code}
              />
              <SubmitButton busy={busy} busyLabel="Checking...">
                Turn on two-factor sign-in
              </SubmitButton>
            </Form>
          </>
        )}
      </div>
    </section>
  );
}
