import {
  useEffect,
  useId,
  useRef,
  type InputHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  type TextareaHTMLAttributes,
} from "react";
import { HONEYPOT_FIELD, type FieldErrors } from "#app/domain/form-basics";

/**
 * The NHS.UK error summary: a list of links to each bad field. It takes focus when it appears.
 * Without JavaScript a link is an ordinary jump to its field. With it, a click moves focus to the
 * field itself instead: following the `#` would be a history navigation, and React Router drops
 * the action's answer (every error on the page) on any navigation, a hash change included.
 */
export function ErrorSummary({
  errors,
  fieldOrder,
}: {
  errors?: FieldErrors;
  fieldOrder?: readonly string[];
}) {
  const entries = Object.entries(errors ?? {});
  if (fieldOrder) entries.sort(([a], [b]) => fieldOrder.indexOf(a) - fieldOrder.indexOf(b));
  const signature = entries.map(([field, message]) => field + message).join("|");
  if (entries.length === 0) return null;
  return (
    <FocusedAlert block="error-summary" title="There is a problem" focusKey={signature}>
      <ul className="error-summary__list">
        {entries.map(([field, message]) => (
          <li key={field}>
            <a href={`#${fieldId(field)}`} onClick={goToField}>
              {message}
            </a>
          </li>
        ))}
      </ul>
    </FocusedAlert>
  );
}

/**
 * A titled alert that takes focus when it appears and whenever `focusKey` changes (a new answer
 * from the server), so it is read out and scrolled into view: by its `autofocus` on a page the
 * server sent, and by the effect on a page with scripts. `block` is its CSS block name
 * (`error-summary`, `notification`), whose `__title` element styles the heading.
 */
export function FocusedAlert({
  block,
  title,
  focusKey,
  children,
}: {
  block: string;
  title: string;
  focusKey: unknown;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    // Its top in view, heading first: focus alone scrolls a box taller than the screen (a long
    // list of problems at large text) to its middle, past the first problems.
    ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView({ block: "start" });
  }, [focusKey]);
  return (
    // autoFocus: the browser focuses it on a page with no scripts too (a form posted without them).
    <div className={block} role="alert" aria-labelledby={titleId} tabIndex={-1} ref={ref} autoFocus>
      <h2 className={`${block}__title`} id={titleId}>
        {title}
      </h2>
      {children}
    </div>
  );
}

/**
 * Focuses the field a summary link names, with its question in view: the legend of its fieldset
 * (a group of radios or checkboxes, a date) or else its label, as GOV.UK's error summary does.
 */
function goToField(event: MouseEvent<HTMLAnchorElement>) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const id = decodeURIComponent(event.currentTarget.hash.slice(1));
  const input = id ? document.getElementById(id) : null;
  if (!input) return;
  event.preventDefault();
  const legend = input.closest("fieldset")?.querySelector(":scope > legend");
  const label = document.querySelector(`label[for="${CSS.escape(id)}"]`);
  const question = legend ?? label ?? input;
  question.scrollIntoView({ block: "start" });
  // A long group may push the field itself below the screen: then bring the field up instead.
  if (input.getBoundingClientRect().bottom > window.innerHeight)
    input.scrollIntoView({ block: "center" });
  input.focus({ preventScroll: true });
}

export function fieldId(name: string) {
  return `field-${name}`;
}

interface FieldShellProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: (ids: { id: string; describedBy?: string; invalid: boolean }) => ReactNode;
}

function FieldShell({ name, label, hint, error, children }: FieldShellProps) {
  const id = fieldId(name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={errorId}>
          <span className="visually-hidden">Error:</span> {error}
        </span>
      )}
      {children({ id, describedBy, invalid: Boolean(error) })}
    </div>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id"> & {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
};

export function TextField({ name, label, hint, error, className, ...input }: TextFieldProps) {
  return (
    <FieldShell name={name} label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          name={name}
          className={`input${invalid ? " input--error" : ""}${className ? ` ${className}` : ""}`}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          type="text"
          {...input}
        />
      )}
    </FieldShell>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id"> & {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
};

export function TextArea({ name, label, hint, error, ...textarea }: TextAreaProps) {
  return (
    <FieldShell name={name} label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          name={name}
          className={`textarea${invalid ? " textarea--error" : ""}`}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          rows={5}
          {...textarea}
        />
      )}
    </FieldShell>
  );
}

/** A field people never see; a bot that fills it in is quietly ignored. */
export function Honeypot() {
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={`field-${HONEYPOT_FIELD}`}>Leave this field empty</label>
      <input
        id={`field-${HONEYPOT_FIELD}`}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}

/** A big button that says what it does and cannot be pressed twice while the form is sending. */
export function SubmitButton({
  children,
  busy,
  busyLabel = "Sending...",
  className,
  name,
  value,
}: {
  children: ReactNode;
  busy: boolean;
  busyLabel?: string;
  className?: string;
  /** For a form with several buttons: which one was pressed. */
  name?: string;
  value?: string;
}) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      className={`button${className ? ` ${className}` : ""}`}
      disabled={busy}
      aria-disabled={busy || undefined}
    >
      {busy ? busyLabel : children}
    </button>
  );
}
