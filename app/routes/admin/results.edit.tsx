import type { ReactNode } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/results.edit";
import { ErrorSummary, SubmitButton, TextArea, TextField } from "#app/components/form";
import { ResultAmberIcon, ResultGreenIcon, ResultRedIcon } from "#app/components/icons";
import { RadioGroup } from "#app/components/radio-group";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLondonDateTime, formatLongDate } from "#app/domain/date-labels";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import {
  FLAG_ACTIONS,
  FLAG_LABELS,
  psaInWords,
  RESULT_FLAGS,
  type ResultFlag,
} from "#app/domain/psa-flag";
import {
  CHANGED_SINCE_OPENED,
  confirmFlagSchema,
  CORRECTED_SINCE_OPENED,
  correctionSchema,
  keptWhenChanged,
  releaseSchema,
} from "#app/domain/result-release";
import {
  CORRECTION_FIELD_ORDER,
  CORRECTION_REASONS,
  FLAG_CHECK_MESSAGES,
  MAX_COMMENTS,
  RELEASE_FIELD_ORDER,
  RELEASE_MESSAGES,
  RETEST_YEARS,
} from "#app/domain/result-release-options";
import { staffRoute } from "#app/services/guards.server";
import {
  confirmReleasedFlag,
  correctResult,
  releaseResult,
  viewResult,
  withdrawResult,
} from "#app/services/results-admin.server";
import { can } from "#app/domain/permissions";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import { revalidateWhenAnswered } from "#app/utils/revalidate";

export const meta = () => pageMeta("Result", "One laboratory result, to release or correct.");
export const headers = pipeHeaders;

/** The result, its patient and booking. Viewing is audited (result.view); an unknown id is 404. */
export const loader = staffRoute("result:read", async (args: Route.LoaderArgs, staff) => {
  const result = await viewResult(db(), staff, args.params.resultId);
  if (!result) throw data({ error: "Not found" }, { status: 404, headers: NO_STORE });
  const canWithdraw = can(staff, "result:import");
  const search = new URL(args.request.url).searchParams;
  return data(
    {
      result: {
        ...result,
        /** The version shown, sent back with the form: a decision about another is refused. */
        seen: result.updatedAt.toISOString(),
        importedLabel: result.importedAt ? formatLondonDateTime(result.importedAt) : null,
        releasedLabel: result.releasedAt ? formatLondonDateTime(result.releasedAt) : null,
        correctedLabel: result.correctedAt ? formatLondonDateTime(result.correctedAt) : null,
        flagCheckLabel: result.flagCheckSince ? formatLondonDateTime(result.flagCheckSince) : null,
      },
      done: DONE.find((key) => search.has(key)) ?? null,
      canWithdraw,
    },
    { headers: NO_STORE },
  );
});

const DONE = ["released", "corrected", "corrected-untold", "flag-confirmed"] as const;

const DONE_MESSAGES: Record<(typeof DONE)[number], string> = {
  released:
    "Result released. The patient has been e-mailed that his results are ready (the e-mail does not contain the result).",
  corrected: "Result corrected. The patient has been e-mailed that his results were updated.",
  "corrected-untold":
    "Result corrected. He has deleted his account, so no one has been e-mailed about it.",
  "flag-confirmed": "The flag stands, as released. The patient has not been told anything.",
};

type ActionData = {
  fieldErrors: FieldErrors;
  /** What was typed, kept for the form (after a refusal for a changed result, not the flag). */
  values?: Record<string, string>;
  formError?: string;
  /** the result changed since the page was opened: it is read again */
  changed?: boolean;
};

/** Answers that echo what was typed (a PSA value, comments) are never stored by a cache. */
function refuse(body: ActionData, status: 400 | 409) {
  return data<ActionData>(body, { status, headers: NO_STORE });
}

/**
 * A refusal normally leaves the page's data alone; when the result changed since the page was
 * opened, the page reads it again, so that the decision is made about the result as it is now.
 */
export const shouldRevalidate = revalidateWhenAnswered("changed");

const NOT_UNDERSTOOD = "This form was not understood. Reload the page and try again.";

/**
 * Release (intent "release"), correction (intent "correct") or confirming a flag to check again
 * (intent "confirm-flag"); any other intent is refused with 400. Each is refused with 409 when the
 * result changed after the page was opened (`seen`).
 */
export const action = staffRoute("result:read", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const values = formValues(form);
  const resultId = args.params.resultId;
  const back = `/admin/results/${resultId}`;

  if (values.intent === "correct") {
    const parsed = parseForm(correctionSchema, values);
    if (!parsed.ok) return refuse({ fieldErrors: parsed.fieldErrors, values }, 400);
    const outcome = await correctResult(db(), staff, resultId, parsed.data);
    if (outcome.ok) return redirect(`${back}?${outcome.told ? "corrected" : "corrected-untold"}`);
    if (outcome.reason === "not-found")
      throw data({ error: "Not found" }, { status: 404, headers: NO_STORE });
    if (outcome.reason === "changed")
      return refuse(
        {
          fieldErrors: {},
          values: keptWhenChanged(values),
          formError: CORRECTED_SINCE_OPENED,
          changed: true,
        },
        409,
      );
    const formError =
      outcome.reason === "unchanged" ? RELEASE_MESSAGES.unchanged : RELEASE_MESSAGES.notReleased;
    return refuse({ fieldErrors: {}, values, formError }, 400);
  }

  if (values.intent === "confirm-flag") {
    const parsed = parseForm(confirmFlagSchema, values);
    if (!parsed.ok) return refuse({ fieldErrors: {}, formError: NOT_UNDERSTOOD }, 400);
    const outcome = await confirmReleasedFlag(db(), staff, resultId, parsed.data.seen);
    if (outcome.ok) return redirect(`${back}?flag-confirmed`);
    if (outcome.reason === "not-found")
      throw data({ error: "Not found" }, { status: 404, headers: NO_STORE });
    return refuse(
      outcome.reason === "changed"
        ? { fieldErrors: {}, formError: FLAG_CHECK_MESSAGES.changed, changed: true }
        : { fieldErrors: {}, formError: FLAG_CHECK_MESSAGES.notAsked, changed: true },
      409,
    );
  }

  if (values.intent === "withdraw") {
    const parsed = parseForm(confirmFlagSchema, values);
    if (!parsed.ok) return refuse({ fieldErrors: {}, formError: NOT_UNDERSTOOD }, 400);
    const outcome = await withdrawResult(db(), staff, resultId, parsed.data.seen);
    // The list's notice names the tube and its event, from the audit log (`lastWithdrawalBy`).
    if (outcome.ok) return redirect("/admin/results?withdrawn");
    if (outcome.reason === "not-found")
      throw data({ error: "Not found" }, { status: 404, headers: NO_STORE });
    return refuse(
      outcome.reason === "changed"
        ? { fieldErrors: {}, formError: CHANGED_SINCE_OPENED, changed: true }
        : { fieldErrors: {}, formError: RELEASE_MESSAGES.withdrawReleased, changed: true },
      409,
    );
  }

  if (values.intent === "release") {
    const parsed = parseForm(releaseSchema, values);
    if (!parsed.ok) return refuse({ fieldErrors: parsed.fieldErrors, values }, 400);
    const outcome = await releaseResult(db(), staff, resultId, parsed.data);
    if (outcome.ok) return redirect(`${back}?released`);
    if (outcome.reason === "not-found")
      throw data({ error: "Not found" }, { status: 404, headers: NO_STORE });
    if (outcome.reason === "changed")
      return refuse(
        {
          fieldErrors: {},
          values: keptWhenChanged(values),
          formError: CHANGED_SINCE_OPENED,
          changed: true,
        },
        409,
      );
    const formError = {
      "already-released": RELEASE_MESSAGES.alreadyReleased,
      "no-value": RELEASE_MESSAGES.noValue,
      "no-sample": RELEASE_MESSAGES.noSample,
    }[outcome.reason];
    return refuse({ fieldErrors: {}, values, formError }, 409);
  }

  return refuse({ fieldErrors: {}, formError: NOT_UNDERSTOOD }, 400);
});

const FLAG_ICONS: Record<ResultFlag, () => ReactNode> = {
  green: () => <ResultGreenIcon />,
  amber: () => <ResultAmberIcon />,
  red: () => <ResultRedIcon />,
};

function FlagText({ flag, retestYears }: { flag: ResultFlag; retestYears?: number | null }) {
  return (
    <span className={`result-flag result-flag--${flag}`}>
      {FLAG_ICONS[flag]()} {FLAG_LABELS[flag]}
      {flag === "green" && retestYears
        ? `: test again in ${retestYears} year${retestYears === 1 ? "" : "s"}`
        : `: ${FLAG_ACTIONS[flag]}`}
    </span>
  );
}

export default function ResultPage({ loaderData, actionData }: Route.ComponentProps) {
  const { result, done, canWithdraw } = loaderData;
  const released = result.releasedAt !== null;
  return (
    <>
      <p>
        <Link
          to={
            result.flagCheckLabel
              ? "/admin/results?show=to-check"
              : released
                ? "/admin/results?show=released"
                : "/admin/results"
          }
        >
          Back to results
        </Link>
      </p>
      <h1>Result for {result.patientName}</h1>
      {done && (
        <div className="notice-panel" role="status">
          <p>{DONE_MESSAGES[done]}</p>
        </div>
      )}
      <dl className="event-details">
        <dt>Booking reference</dt>
        <dd>{result.reference}</dd>
        <dt>Date of birth</dt>
        <dd>
          {result.dateOfBirth ? formatLongDate(result.dateOfBirth) : "Not given"}
          {result.age !== null && ` (aged ${result.age} when the sample was taken)`}
        </dd>
        <dt>Event</dt>
        <dd>
          {result.eventName}, {formatLongDate(result.eventDate)} at {result.slotTime}
        </dd>
        <dt>Sample id</dt>
        <dd>{result.sampleId ?? "Not recorded"}</dd>
        <dt>Sample date</dt>
        <dd>{result.sampleDate ? formatLongDate(result.sampleDate) : "Not given"}</dd>
        <dt>PSA</dt>
        <dd>{result.psaValue ? psaInWords(result.psaValue, result.unit) : "No value yet"}</dd>
        <dt>Suggested flag</dt>
        <dd>
          {result.suggestedFlag ? (
            <FlagText flag={result.suggestedFlag} />
          ) : (
            "None for this age: set the flag yourself"
          )}
        </dd>
        <dt>Imported</dt>
        <dd>{result.importedLabel ?? "Not recorded"}</dd>
        {released && (
          <>
            <dt>Flag</dt>
            <dd>
              {result.flag ? (
                <FlagText flag={result.flag} retestYears={result.retestYears} />
              ) : (
                "Not set"
              )}
            </dd>
            <dt>Comments for the patient</dt>
            <dd>{result.comments ?? "None"}</dd>
            <dt>Released</dt>
            <dd>
              {result.releasedLabel}
              {result.releasedByName && ` by ${result.releasedByName}`}
            </dd>
            {result.correctedLabel && (
              <>
                <dt>Last corrected</dt>
                <dd>{result.correctedLabel}</dd>
              </>
            )}
          </>
        )}
      </dl>

      {actionData?.formError && (
        <p className="warning" role="alert">
          {actionData.formError}
        </p>
      )}

      {released && result.flagCheckLabel && <FlagCheck result={result} />}

      {released ? (
        <CorrectionForm result={result} actionData={actionData} />
      ) : result.psaValue ? (
        <ReleaseForm seen={result.seen} actionData={actionData} />
      ) : (
        <p>This result has no value yet, so it cannot be released.</p>
      )}
      {!released && canWithdraw && <WithdrawForm seen={result.seen} />}
    </>
  );
}

type FormProps = { actionData: ActionData | undefined };
type ShownResult = Route.ComponentProps["loaderData"]["result"];

/** Asked when his date of birth changed after release: correct the result, or say the flag stands. */
function FlagCheck({ result }: { result: ShownResult }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <section className="warning" aria-labelledby="flag-check">
      <h2 id="flag-check">Check this flag again</h2>
      <p>
        His date of birth was changed on {result.flagCheckLabel}, after this result was released.
        Check that the flag he was given is right for his age when the sample was taken.
      </p>
      <dl className="event-details">
        <dt>
          Flag he was given
          {result.flagDecidedAge === null
            ? " (his age then is not on record)"
            : `, decided for a man of ${result.flagDecidedAge}`}
        </dt>
        <dd>
          {result.flag ? (
            <FlagText flag={result.flag} retestYears={result.retestYears} />
          ) : (
            "Not set"
          )}
        </dd>
        <dt>
          Suggested for his age at the sample as it stands now
          {result.age !== null && ` (${result.age})`}
        </dt>
        <dd>
          {result.suggestedFlag ? (
            <FlagText flag={result.suggestedFlag} />
          ) : (
            "None for this age: the flag is yours to decide"
          )}
        </dd>
      </dl>
      <p>
        If his flag or retest interval should change, correct the result below: he is e-mailed that
        his results were updated. If they stand, say so here: he is told nothing.
      </p>
      <Form method="post" noValidate key={result.seen}>
        <input type="hidden" name="intent" value="confirm-flag" />
        <input type="hidden" name="seen" value={result.seen} />
        <SubmitButton busy={busy} busyLabel="Saving..." className="button--secondary">
          The flag stands
        </SubmitButton>
      </Form>
    </section>
  );
}

function ReleaseForm({ seen, actionData }: FormProps & { seen: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  return (
    <>
      <h2>Decide and release</h2>
      <p>
        Choose the flag the patient will see, add any comments for him, and release the result. He
        is then e-mailed that his results are ready (the e-mail never contains the result), and can
        read them when he signs in.
      </p>
      <ErrorSummary errors={errors} fieldOrder={RELEASE_FIELD_ORDER} />
      {/* A new version of the result starts the form again (with what was typed kept). */}
      <Form method="post" noValidate className="form" key={seen}>
        <input type="hidden" name="intent" value="release" />
        <input type="hidden" name="seen" value={seen} />
        <DecisionFields errors={errors} values={values} />
        <SubmitButton busy={busy} busyLabel="Releasing...">
          Release the result
        </SubmitButton>
      </Form>
    </>
  );
}

/** For an imported value that is someone else's: the tube was recorded against the wrong man. */
function WithdrawForm({ seen }: { seen: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <details className="withdraw-result">
      <summary>This result is not his: the sample was recorded for the wrong man</summary>
      <p>
        Withdraw it, and it is removed before anyone sees it, with the sample recorded for him; the
        audit log keeps that you did. Then the tube can be recorded for the right man on the
        event&apos;s attendee list, and his result imported again.
      </p>
      <Form method="post" noValidate key={seen}>
        <input type="hidden" name="intent" value="withdraw" />
        <input type="hidden" name="seen" value={seen} />
        <SubmitButton busy={busy} busyLabel="Withdrawing..." className="button--secondary">
          Withdraw this result
        </SubmitButton>
      </Form>
    </details>
  );
}

function CorrectionForm({ result, actionData }: FormProps & { result: ShownResult }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors = actionData?.fieldErrors ?? {};
  const current: Record<string, string> = {
    psaValue: result.psaValue ?? "",
    flag: result.flag ?? "",
    retestYears: result.retestYears ? String(result.retestYears) : "",
    comments: result.comments ?? "",
  };
  // Refused because someone corrected it meanwhile: the form starts again from the result as it is.
  const values = actionData?.changed
    ? { ...current, ...actionData.values }
    : (actionData?.values ?? current);
  return (
    <>
      <h2>Correct this result</h2>
      <p>
        This result is released: the patient can read it on his results page. If something in it is
        wrong, correct it here. He is e-mailed that his results were updated, and his results page
        says when. The audit log keeps which fields changed and why.
      </p>
      <ErrorSummary errors={errors} fieldOrder={CORRECTION_FIELD_ORDER} />
      <Form method="post" noValidate className="form" key={result.seen}>
        <input type="hidden" name="intent" value="correct" />
        <input type="hidden" name="seen" value={result.seen} />
        <TextField
          name="psaValue"
          label="PSA value (ng/ml)"
          hint="As the laboratory reported it, like 1.23"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          defaultValue={values.psaValue ?? ""}
          error={errors.psaValue}
        />
        <DecisionFields errors={errors} values={values} />
        <RadioGroup
          name="reason"
          legend="Why are you correcting it?"
          legendClassName="label label--large"
          options={Object.entries(CORRECTION_REASONS).map(([value, label]) => ({ value, label }))}
          checked={values.reason}
          error={errors.reason}
        />
        <SubmitButton busy={busy} busyLabel="Saving...">
          Save the correction
        </SubmitButton>
      </Form>
    </>
  );
}

/** The flag (Green with its retest interval, always shown so it works without JavaScript) and comments. */
function DecisionFields({
  errors,
  values,
}: {
  errors: FieldErrors;
  values: Record<string, string>;
}) {
  return (
    <>
      {/* The retest question shows only while Green is chosen, by CSS (admin.css), with or without JavaScript. */}
      <div className="flag-decision">
        <RadioGroup
          name="flag"
          legend="Flag"
          legendClassName="label label--large"
          options={RESULT_FLAGS.map((flag) => ({
            value: flag,
            label: (
              <>
                {FLAG_ICONS[flag]()} {`${FLAG_LABELS[flag]}: ${FLAG_ACTIONS[flag]}`}
              </>
            ),
          }))}
          checked={values.flag}
          error={errors.flag}
          reveal={{
            when: "green",
            content: (
              <RadioGroup
                name="retestYears"
                legend="For Green: test again in"
                legendClassName="label label--large"
                hint="Required when the flag is Green"
                options={RETEST_YEARS.map((years) => ({
                  value: years,
                  label: `${years} year${years === "1" ? "" : "s"}`,
                }))}
                checked={values.retestYears}
                error={errors.retestYears}
              />
            ),
          }}
        />
      </div>
      <TextArea
        name="comments"
        label="Comments for the patient (optional)"
        hint={`He sees these with his result. Up to ${MAX_COMMENTS} characters.`}
        maxLength={MAX_COMMENTS}
        defaultValue={values.comments ?? ""}
        error={errors.comments}
      />
    </>
  );
}
