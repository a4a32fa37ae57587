import { useEffect, useRef } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/delete-account";
import { ErrorSummary, SubmitButton, TextField, fieldId } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import type { ErasureBlocker } from "#app/domain/data-rights";
import { formatLongDate } from "#app/domain/date-labels";
import { DELETE_ACCOUNT_MESSAGES, deleteAccountSchema } from "#app/domain/delete-account";
import { formValues, parseForm, type FieldErrors } from "#app/domain/forms";
import { minutesToWait } from "#app/domain/retry-after";
import { requireUser } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { deleteMyAccount, erasureCheck, type ErasureCheck } from "#app/services/my-data.server";
import { cookieHeaders, signOut } from "#app/services/session.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta(
    "Delete my account",
    "What deleting your account removes, what we keep, and for how long.",
  );

export const headers = pipeHeaders;

const FIELD_ORDER = ["password", "confirm"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const check = await erasureCheck(db(), user.id);
  return data({ check, retentionYears: config().RESULT_RETENTION_YEARS }, { headers: NO_STORE });
}

type ActionData = {
  fieldErrors?: FieldErrors;
  formError?: string;
  values: Record<string, string>;
};

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const values = formValues(form, ["password"]);
  const parsed = parseForm(deleteAccountSchema, {
    ...values,
    password: form.get("password") ?? undefined,
  });
  if (!parsed.ok)
    return data<ActionData>(
      { fieldErrors: parsed.fieldErrors, values },
      { status: 400, headers: NO_STORE },
    );
  try {
    const outcome = await deleteMyAccount(db(), {
      userId: user.id,
      password: parsed.data.password,
    });
    switch (outcome.outcome) {
      case "deleted":
      case "already-deleted":
        // His sessions are gone with the account; this clears the cookie in his browser too.
        return redirect("/account-deleted", { headers: cookieHeaders(await signOut(request)) });
      case "wrong-password":
        return data<ActionData>(
          { fieldErrors: { password: DELETE_ACCOUNT_MESSAGES.wrongPassword }, values },
          { status: 400, headers: NO_STORE },
        );
      case "too-many-attempts":
        return data<ActionData>(
          {
            fieldErrors: {
              password: DELETE_ACCOUNT_MESSAGES.tooManyAttempts(
                minutesToWait(outcome.retryAfterSeconds),
              ),
            },
            values,
          },
          {
            status: 429,
            headers: { ...NO_STORE, "Retry-After": String(outcome.retryAfterSeconds) },
          },
        );
      case "refused":
        // Something changed since the page was read: the page now says what stands in the way.
        return data<ActionData>({ values }, { status: 409, headers: NO_STORE });
    }
  } catch (error) {
    const errorId = logError(error, { route: routeOf(request), code: "account_delete_failed" });
    return data<ActionData>(
      { formError: `${DELETE_ACCOUNT_MESSAGES.failed} (Reference ${errorId})`, values },
      { status: 500, headers: NO_STORE },
    );
  }
}

export default function DeleteAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { check, retentionYears } = loaderData;
  return (
    <>
      <h1>Delete my account</h1>
      {check.kind === "staff" ? (
        <p className="inset">{DELETE_ACCOUNT_MESSAGES.staff}</p>
      ) : check.kind === "blocked" ? (
        <Blocked blockers={check.blockers} />
      ) : (
        <>
          <WhatHappens retentionYears={retentionYears} check={check} />
          <DeleteForm result={actionData} />
        </>
      )}
    </>
  );
}

function Blocked({ blockers }: { blockers: ErasureBlocker[] }) {
  const medical = organisation.phones.medical;
  const bookingLine = organisation.phones.booking;
  return (
    <div className="inset">
      <h2>You cannot delete your account yet</h2>
      <ul>
        {blockers.map((blocker) => {
          const what = `${blocker.eventName} on ${formatLongDate(blocker.eventDate)} (reference ${blocker.reference})`;
          return (
            <li key={`${blocker.kind}-${blocker.reference}`}>
              {blocker.kind === "upcoming-booking" ? (
                <>
                  You have an appointment booked: {what}. Please cancel it first on{" "}
                  <Link to="/my-bookings">My bookings</Link>, then come back to this page.
                </>
              ) : blocker.kind === "payment" ? (
                <>
                  A payment or refund for {what} is still going through. Please come back once it
                  has finished, usually within a day.
                </>
              ) : blocker.kind === "refund-stalled" ? (
                <>
                  We still owe you a refund for {what}, and we have not managed to send it. Please
                  call our booking helpline on{" "}
                  <a href={`tel:${bookingLine.tel}`}>{bookingLine.display}</a> so that we can sort
                  it out with you.
                </>
              ) : (
                <>
                  We are still waiting for your result from {what}. You can delete your account once
                  we have sent it to you. If you think it is late, call our medical enquiries line
                  on <a href={`tel:${medical.tel}`}>{medical.display}</a>.
                </>
              )}
            </li>
          );
        })}
      </ul>
      <p>
        Before you go, you can <Link to="/my-data">download a copy of your data</Link>.
      </p>
    </div>
  );
}

function WhatHappens({
  retentionYears,
  check,
}: {
  retentionYears: number;
  check: Extract<ErasureCheck, { kind: "allowed" }>;
}) {
  return (
    <>
      <p className="lede">
        Deleting your account cannot be undone. Please read what happens before you decide.
      </p>
      <p>
        You may want to <Link to="/my-data">download a copy of your data</Link> first.
      </p>
      <h2>What we delete straight away</h2>
      <ul>
        <li>Your sign-in: your email address and password. You will be signed out.</li>
        <li>
          Your personal details: your name, date of birth, NHS number, phone number, addresses,
          gender, ethnicity and occupation.
        </li>
        <li>Your answers to the health questions on the consent forms.</li>
        <li>
          Your newsletter subscription, and any messages you sent us through our contact form from
          this email address.
        </li>
        <li>Emails to you that we have not sent yet, and our copies of those we sent.</li>
      </ul>
      <h2>What we keep, and for how long</h2>
      <ul>
        {check.retainsResults > 0 && (
          <li>
            Your test {check.retainsResults === 1 ? "result" : "results"}, with only what is needed
            to know whose {check.retainsResults === 1 ? "it is" : "they are"}: your name, date of
            birth, NHS number, and the sample&apos;s number and date. A clinic must keep health
            records, so we keep these apart from everything else for {retentionYears} years after
            each result was sent to you, and then delete them. If a result was corrected, its
            earlier versions stay as a record of the correction; once the result is deleted they no
            longer lead to you.
          </li>
        )}
        <li>
          That you agreed to the consent form, when, and which version of the form it was, but not
          your answers. This shows that each test was done with your agreement.
        </li>
        <li>
          A record of your bookings and payments with no name or contact details on it, because our
          accounts must show every payment and refund.
        </li>
        <li>
          Our log of who looked at or changed records, which names nobody: it shows only a number.
          {check.retainsResults > 0
            ? " While we keep your results, that number can still be matched to them, and so to you; once they are deleted, it no longer leads to your name."
            : " Once your account is deleted, that number no longer leads to your name."}
        </li>
      </ul>
    </>
  );
}

function DeleteForm({ result }: { result: ActionData | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = result?.fieldErrors ?? {};
  const values = result?.values ?? {};
  const confirmId = fieldId("confirm");
  // A password is never kept: after each answer the field is empty again, as without JavaScript.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const password = formRef.current?.elements.namedItem("password");
    if (result && password instanceof HTMLInputElement) password.value = "";
  }, [result]);
  return (
    <>
      <h2>Delete my account</h2>
      {result?.formError && (
        <div className="error-summary" role="alert">
          <h2 className="error-summary__title">Your account was not deleted</h2>
          <p>{result.formError}</p>
        </div>
      )}
      <ErrorSummary errors={errors} fieldOrder={FIELD_ORDER} />
      <Form method="post" noValidate className="form" ref={formRef}>
        <TextField
          name="password"
          type="password"
          label="Your password"
          hint="To make sure it is you, please type your password again."
          autoComplete="current-password"
          error={errors.password}
        />
        <div className={`form-group${errors.confirm ? " form-group--error" : ""}`}>
          {errors.confirm && (
            <span className="field-error" id={`${confirmId}-error`}>
              <span className="visually-hidden">Error:</span> {errors.confirm}
            </span>
          )}
          <div className="checkbox">
            <input
              id={confirmId}
              type="checkbox"
              name="confirm"
              defaultChecked={values.confirm !== undefined}
              aria-describedby={errors.confirm ? `${confirmId}-error` : undefined}
              aria-invalid={errors.confirm ? true : undefined}
            />
            <label htmlFor={confirmId}>
              I understand that my account and details will be deleted, and that this cannot be
              undone.
            </label>
          </div>
        </div>
        <div className="button-group">
          <SubmitButton busy={busy} busyLabel="Deleting...">
            Delete my account
          </SubmitButton>
          <Link to="/portal" className="button button--secondary">
            Keep my account
          </Link>
        </div>
      </Form>
    </>
  );
}
