import { useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { consentWording } from "#app/content/consent";
import {
  CONSENT_FIELDS,
  CONSENT_FAILURES,
  CONSENT_LABELS,
  consentErrorMessage,
  type ConsentFailure,
  MEDICATIONS,
  medicationLabel,
  MOTHER_SIDE_DETAILS_MAX,
  OVARIAN_CANCER_RELATIVES,
  PROSTATE_CANCER_RELATIVES,
  PSA_TEST_NUMBERS,
  PSA_TEST_NUMBER_LABELS,
  YES_NO_DONT_KNOW,
} from "#app/domain/consent-options";
import { ErrorSummary, FocusedAlert, SubmitButton, fieldId } from "./form";
import { RadioGroup } from "./radio-group";

export type ConsentValues = Record<string, string | string[] | undefined>;
export type ConsentErrors = Partial<Record<string, string>>;

const NO_VALUES: ConsentValues = {};
const NO_ERRORS: ConsentErrors = {};

/**
 * The consent questionnaire (spec sections 3 and 5), used inside booking and on /test-consent.
 * A plain form: it works without JavaScript, where the relatives' questions simply stay open.
 * With JavaScript they open only for "Yes", and each error clears as its field is changed.
 */
export function ConsentForm({
  values = NO_VALUES,
  errors = NO_ERRORS,
  submitLabel,
  busyLabel = "Processing...",
  hiddenFields,
  failure,
}: {
  values?: ConsentValues;
  errors?: ConsentErrors;
  /** Saving or confirming failed: the spec's message above the form, the answers kept. */
  failure?: ConsentFailure;
  submitLabel: string;
  busyLabel?: string;
  hiddenFields?: ReactNode;
}) {
  const navigation = useNavigation();
  const [openErrors, setOpenErrors] = useState(errors);
  // A new answer from the server replaces what is shown (worked out while rendering, as React advises).
  const [answered, setAnswered] = useState(errors);
  if (answered !== errors) {
    setAnswered(errors);
    setOpenErrors(errors);
  }
  // Each message says which question it is about, in the summary and beside the field alike.
  const shownErrors: ConsentErrors = Object.fromEntries(
    Object.entries(openErrors).map(([field, message]) => [
      field,
      message && consentErrorMessage(field, message),
    ]),
  );
  const [answers, setAnswers] = useState({
    prostate: text(values.familyHistoryProstateCancer),
    ovarian: text(values.familyHistoryBreastOvarianCancer),
  });

  const clear = (...fields: string[]) =>
    setOpenErrors((current) => {
      if (!fields.some((field) => current[field])) return current;
      const next = { ...current };
      for (const field of fields) delete next[field];
      return next;
    });

  return (
    <Form
      method="post"
      noValidate
      className="form consent-form"
      onChange={(event) => {
        const target = event.target;
        if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) return;
        if (!target.name) return;
        // Ticking a relative or writing details answers the "which relative(s)" question too.
        const related: Record<string, string[]> = {
          familyMemberWithProstateCancer: ["familyHistoryProstateCancer"],
          familyMemberWithOvarianCancer: ["familyHistoryBreastOvarianCancer"],
          motherSideDetails: ["familyHistoryBreastOvarianCancer", "familyMemberWithOvarianCancer"],
        };
        clear(target.name, ...(related[target.name] ?? []));
        if (target.name === "familyHistoryProstateCancer")
          setAnswers((current) => ({ ...current, prostate: target.value }));
        if (target.name === "familyHistoryBreastOvarianCancer")
          setAnswers((current) => ({ ...current, ovarian: target.value }));
      }}
    >
      {hiddenFields}
      {failure && <FailureNotice failure={failure} answer={values} />}
      <ErrorSummary errors={shownErrors as Record<string, string>} fieldOrder={CONSENT_FIELDS} />
      {consentWording.intro.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}

      <Radios
        name="numberOfPsaTest"
        options={PSA_TEST_NUMBERS.map((value) => [value, PSA_TEST_NUMBER_LABELS[value]])}
        checked={text(values.numberOfPsaTest)}
        error={shownErrors.numberOfPsaTest}
      />

      <Radios
        name="familyHistoryProstateCancer"
        hint="On your father's side: your father, brothers, grandfathers or uncles."
        options={YES_NO_DONT_KNOW.map((value) => [value, value])}
        checked={text(values.familyHistoryProstateCancer)}
        error={shownErrors.familyHistoryProstateCancer}
        conditional={{
          when: "Yes",
          open: answers.prostate === "Yes",
          content: (
            <Checkboxes
              name="familyMemberWithProstateCancer"
              options={PROSTATE_CANCER_RELATIVES}
              checked={list(values.familyMemberWithProstateCancer)}
              error={shownErrors.familyMemberWithProstateCancer}
            />
          ),
        }}
      />

      <Radios
        name="familyHistoryBreastOvarianCancer"
        hint="On your mother's side: your mother, sisters, grandmothers or aunts."
        options={YES_NO_DONT_KNOW.map((value) => [value, value])}
        checked={text(values.familyHistoryBreastOvarianCancer)}
        error={shownErrors.familyHistoryBreastOvarianCancer}
        conditional={{
          when: "Yes",
          open: answers.ovarian === "Yes",
          content: (
            <>
              <Checkboxes
                name="familyMemberWithOvarianCancer"
                options={OVARIAN_CANCER_RELATIVES}
                checked={list(values.familyMemberWithOvarianCancer)}
                error={shownErrors.familyMemberWithOvarianCancer}
              />
              <div
                className={`form-group${shownErrors.motherSideDetails ? " form-group--error" : ""}`}
              >
                <label className="label" htmlFor={fieldId("motherSideDetails")}>
                  {CONSENT_LABELS.motherSideDetails}
                </label>
                <span className="field-hint" id={`${fieldId("motherSideDetails")}-hint`}>
                  For example, a cousin, or the age at which your relative was diagnosed.
                </span>
                <FieldError name="motherSideDetails" error={shownErrors.motherSideDetails} />
                <textarea
                  id={fieldId("motherSideDetails")}
                  name="motherSideDetails"
                  className={`textarea${shownErrors.motherSideDetails ? " textarea--error" : ""}`}
                  rows={3}
                  maxLength={MOTHER_SIDE_DETAILS_MAX}
                  defaultValue={text(values.motherSideDetails)}
                  aria-describedby={describedBy("motherSideDetails", shownErrors, true)}
                />
              </div>
            </>
          ),
        }}
      />

      <Radios
        name="medicationHistory"
        hint="Some medicines lower the PSA level, so the laboratory needs to know."
        options={MEDICATIONS.map((value) => [value, medicationLabel(value)])}
        checked={text(values.medicationHistory)}
        error={shownErrors.medicationHistory}
      />

      <h2 className="form-section">Your consent</h2>
      <ConsentCheckbox
        name="terms"
        text={consentWording.terms.text}
        checked={ticked(values.terms)}
        error={shownErrors.terms}
      />
      <ConsentCheckbox
        name="sampleConsent"
        text={consentWording.sampleConsent.text}
        checked={ticked(values.sampleConsent)}
        error={shownErrors.sampleConsent}
      />
      <ConsentCheckbox
        name="gpConsent"
        text={consentWording.gpConsent.text}
        checked={ticked(values.gpConsent)}
        error={shownErrors.gpConsent}
      />

      <SubmitButton busy={navigation.state !== "idle"} busyLabel={busyLabel}>
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}

/**
 * The spec's message when saving or confirming failed. The button pressed is at the foot of a long
 * form, so the message takes focus (and so comes into view) each time the server answers.
 */
function FailureNotice({ failure, answer }: { failure: ConsentFailure; answer: unknown }) {
  return (
    <FocusedAlert block="notification" title={CONSENT_FAILURES[failure].title} focusKey={answer}>
      <p>{CONSENT_FAILURES[failure].message}</p>
    </FocusedAlert>
  );
}

const text = (value: string | string[] | undefined) =>
  Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
const list = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value : value ? [value] : [];
const ticked = (value: string | string[] | undefined) => Boolean(text(value));

function describedBy(name: string, errors: ConsentErrors, hasHint: boolean) {
  const id = fieldId(name);
  return (
    [hasHint && `${id}-hint`, errors[name] && `${id}-error`].filter(Boolean).join(" ") || undefined
  );
}

function FieldError({ name, error }: { name: string; error?: string }) {
  if (!error) return null;
  return (
    <span className="field-error" id={`${fieldId(name)}-error`}>
      <span className="visually-hidden">Error:</span> {error}
    </span>
  );
}

/** A consent question's radios, with its wording as the legend; a reveal under one answer. */
function Radios({
  name,
  hint,
  options,
  checked,
  error,
  conditional,
}: {
  name: string;
  hint?: string;
  options: [value: string, label: string][];
  checked: string;
  error?: string;
  conditional?: { when: string; open: boolean; content: ReactNode };
}) {
  return (
    <RadioGroup
      name={name}
      legend={CONSENT_LABELS[name as keyof typeof CONSENT_LABELS]}
      legendClassName="label label--large"
      hint={hint}
      error={error}
      checked={checked}
      options={options.map(([value, label]) => ({ value, label }))}
      reveal={conditional}
    />
  );
}

function Checkboxes({
  name,
  options,
  checked,
  error,
}: {
  name: string;
  options: readonly string[];
  checked: string[];
  error?: string;
}) {
  const id = fieldId(name);
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <fieldset className="fieldset" aria-describedby={describedBy(name, { [name]: error }, true)}>
        <legend className="label">{CONSENT_LABELS[name as keyof typeof CONSENT_LABELS]}</legend>
        <span className="field-hint" id={`${id}-hint`}>
          Tick all that apply.
        </span>
        <FieldError name={name} error={error} />
        <div className="checkboxes">
          {options.map((option, index) => {
            const optionId = index === 0 ? id : `${id}-${index}`;
            return (
              <div className="checkbox" key={option}>
                <input
                  id={optionId}
                  type="checkbox"
                  name={name}
                  value={option}
                  defaultChecked={checked.includes(option)}
                />
                <label htmlFor={optionId}>{option}</label>
              </div>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}

function ConsentCheckbox({
  name,
  text: paragraphs,
  checked,
  error,
}: {
  name: "terms" | "sampleConsent" | "gpConsent";
  text: readonly string[];
  checked: boolean;
  error?: string;
}) {
  const id = fieldId(name);
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <div className="consent-text" id={`${id}-hint`}>
        {paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
      <FieldError name={name} error={error} />
      <div className="checkbox">
        <input
          id={id}
          type="checkbox"
          name={name}
          defaultChecked={checked}
          aria-describedby={describedBy(name, { [name]: error }, true)}
        />
        <label htmlFor={id}>{CONSENT_LABELS[name]}</label>
      </div>
    </div>
  );
}
