import type { FocusEventHandler } from "react";
import { fieldId } from "./form";

/** The NHS.UK date input: day, month and year in one fieldset, with the error above them. */
export function DateInput({
  name,
  legend,
  hint = "For example, 15 3 1964",
  values,
  error,
  onFocus,
  autoFillOwnBirthday = true,
}: {
  name: string;
  legend: string;
  hint?: string;
  values: { day?: string; month?: string; year?: string };
  error?: string;
  onFocus?: FocusEventHandler<HTMLFieldSetElement>;
  /** False on a form about someone else: the browser would offer the user's own birthday. */
  autoFillOwnBirthday?: boolean;
}) {
  const id = fieldId(name);
  const describedBy = [`${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  const part = (key: "day" | "month" | "year", label: string, width: string) => (
    <div className="date-input__item">
      <label className="label" htmlFor={key === "day" ? id : `${id}-${key}`}>
        {label}
      </label>
      <input
        id={key === "day" ? id : `${id}-${key}`}
        name={`${name}-${key}`}
        className={`input date-input__input ${width}${error ? " input--error" : ""}`}
        inputMode="numeric"
        autoComplete={autoFillOwnBirthday ? `bday-${key}` : "off"}
        defaultValue={values[key]}
        aria-invalid={error ? true : undefined}
        // No maxLength: a month typed as "March" is read, not cut to "Ma" without a word.
      />
    </div>
  );
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <fieldset className="fieldset" role="group" aria-describedby={describedBy} onFocus={onFocus}>
        <legend className="label">{legend}</legend>
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
        {error && (
          <span className="field-error" id={`${id}-error`}>
            <span className="visually-hidden">Error:</span> {error}
          </span>
        )}
        <div className="date-input">
          {part("day", "Day", "date-input--2")}
          {part("month", "Month", "date-input--4")}
          {part("year", "Year", "date-input--4")}
        </div>
      </fieldset>
    </div>
  );
}
