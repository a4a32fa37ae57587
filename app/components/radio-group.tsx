import { Fragment, type ReactNode } from "react";
import { fieldId } from "./form";

export interface RadioOption {
  value: string;
  label: ReactNode;
  /** A line under the label. */
  hint?: string;
}

/**
 * NHS.UK radios in a fieldset. The first input carries the field's id, which the error summary
 * links to. `reveal` opens more questions under one answer; it is in the page without JavaScript,
 * and `open: false` only hides it until scripts run and the answer is chosen.
 */
export function RadioGroup({
  name,
  legend,
  legendClassName = "label",
  hint,
  error,
  checked,
  options,
  reveal,
}: {
  name: string;
  legend: ReactNode;
  legendClassName?: string;
  hint?: string;
  error?: string;
  checked?: string;
  options: readonly RadioOption[];
  reveal?: { when: string; content: ReactNode; open?: boolean };
}) {
  const id = fieldId(name);
  const revealId = `${id}-reveal`;
  const describedBy =
    [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <fieldset className="fieldset" aria-describedby={describedBy}>
        <legend className={legendClassName}>{legend}</legend>
        {hint && (
          <span className="field-hint" id={`${id}-hint`}>
            {hint}
          </span>
        )}
        {error && (
          <span className="field-error" id={`${id}-error`}>
            <span className="visually-hidden">Error:</span> {error}
          </span>
        )}
        <div className="radios">
          {options.map((option, index) => {
            const optionId = index === 0 ? id : `${id}-${index}`;
            const reveals = reveal?.when === option.value;
            return (
              <Fragment key={option.value}>
                <div className="radio">
                  <input
                    className="radio__input"
                    id={optionId}
                    type="radio"
                    name={name}
                    value={option.value}
                    defaultChecked={checked === option.value}
                    aria-controls={reveals ? revealId : undefined}
                  />
                  <label className="radio__label" htmlFor={optionId}>
                    {option.label}
                    {option.hint && (
                      <>
                        <br />
                        <span className="radio__note">{option.hint}</span>
                      </>
                    )}
                  </label>
                </div>
                {reveals && (
                  <div
                    id={revealId}
                    className={`conditional${reveal.open === false ? " conditional--closed" : ""}`}
                  >
                    {reveal.content}
                  </div>
                )}
              </Fragment>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}
