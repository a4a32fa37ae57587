import { useEffect, useRef, type ReactNode } from "react";

/**
 * A message that needs acknowledging, as a native modal dialog (Escape or OK closes it and focus
 * returns to where it was). Without JavaScript, pages show the same words inline instead.
 */
export function AlertDialog({
  title,
  open,
  onClose,
  children,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="access-dialog"
      aria-labelledby="alert-dialog-title"
      onClose={onClose}
    >
      <div className="access-dialog__body">
        <h2 id="alert-dialog-title">{title}</h2>
        {children}
        <button type="button" className="button" onClick={() => ref.current?.close()}>
          OK
        </button>
      </div>
    </dialog>
  );
}
