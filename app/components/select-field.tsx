import type { SelectHTMLAttributes } from "react";
import { fieldId } from "./form";

export function SelectField({
  name,
  label,
  options,
  placeholder,
  error,
  hint,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id"> & {
  name: string;
  label: string;
  /** Plain strings are both the value and the label. */
  options: readonly (string | { value: string; label: string })[];
  placeholder?: string;
  error?: string;
  hint?: string;
}) {
  const id = fieldId(name);
  const describedBy =
    [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
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
      <select
        id={id}
        name={name}
        className="select"
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        {...select}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => {
          const { value, label: text } =
            typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}
