import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { AccessCodeActionData } from "#app/routes/events/event-details";

/**
 * The access-code modal for a private event: a native <dialog>, so focus stays inside it and
 * Escape closes it. Closing clears the code and any error.
 */
export function AccessCodeDialog({
  eventName,
  action,
  open,
  onClose,
}: {
  eventName: string;
  action: string;
  open: boolean;
  onClose: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  // A new fetcher key after each close forgets the last answer.
  const [attempt, setAttempt] = useState(0);
  const fetcher = useFetcher<AccessCodeActionData>({ key: `access-code-${attempt}` });
  const busy = fetcher.state !== "idle";
  const error = fetcher.data?.accessError;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const close = () => {
    setAttempt((value) => value + 1);
    onClose();
  };

  return (
    <dialog
      ref={dialogRef}
      className="access-dialog"
      aria-labelledby="access-dialog-title"
      onClose={close}
      onKeyDown={(event) => trapTab(event, dialogRef.current)}
    >
      <div className="access-dialog__body">
        <div className="access-dialog__header">
          <h2 id="access-dialog-title">{eventName}</h2>
          <button type="button" className="close-button" aria-label="Close" onClick={close}>
            ×
          </button>
        </div>
        <fetcher.Form method="post" action={action} noValidate key={attempt}>
          <input type="hidden" name="intent" value="access-code" />
          <AccessCodeField idPrefix="dialog" error={error} autoFocus />
          <div className="button-group">
            <button type="button" className="button button--secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button" disabled={busy}>
              {busy ? "Checking..." : "Submit"}
            </button>
          </div>
        </fetcher.Form>
      </div>
    </dialog>
  );
}

/** Keeps Tab and Shift+Tab inside the dialog, instead of letting focus reach the page behind or the browser. */
function trapTab(event: React.KeyboardEvent, dialog: HTMLDialogElement | null) {
  if (event.key !== "Tab" || !dialog) return;
  const focusable = [
    ...dialog.querySelectorAll<HTMLElement>(
      "button:not([disabled]), input:not([type=hidden]), a[href]",
    ),
  ];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/** The code field, shared by the dialog and the page's no-JavaScript form. */
export function AccessCodeField({
  idPrefix,
  error,
  autoFocus = false,
}: {
  /** The dialog and the no-JavaScript form are both in the page, so their ids differ. */
  idPrefix: string;
  error?: string;
  autoFocus?: boolean;
}) {
  const id = `${idPrefix}-access_code`;
  return (
    <div className={`form-group${error ? " form-group--error" : ""}`}>
      <label className="label" htmlFor={id}>
        Please enter Access Code
      </label>
      <span className="field-hint" id={`${id}-hint`}>
        The lodge, club or employer holding this event gives its members the code. Capital letters,
        spaces and dashes do not matter.
      </span>
      {error && (
        <span className="field-error" id={`${id}-error`} role="alert">
          <span className="visually-hidden">Error:</span> {error}
        </span>
      )}
      <input
        id={id}
        name="access_code"
        type="text"
        className={`input${error ? " input--error" : ""}`}
        placeholder="Access code"
        required
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        autoFocus={autoFocus}
      />
    </div>
  );
}
