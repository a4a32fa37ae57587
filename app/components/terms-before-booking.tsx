import { WarningIcon } from "#app/components/icons";
import type { TermsBeforeBooking } from "#app/domain/terms-wording";

/**
 * "If you cannot come": this booking's own terms, before the button that books or pays. A warning
 * when paying now would already buy nothing back; a note otherwise.
 */
export function TermsBeforeBookingNotice({ terms }: { terms: TermsBeforeBooking }) {
  if (terms.sentences.length === 0) return null;
  return (
    <section className={terms.noRefund ? "warning" : "inset"} aria-labelledby="terms-title">
      <h2 id="terms-title" className="status">
        {terms.noRefund && (
          <>
            <WarningIcon />{" "}
          </>
        )}
        If you cannot come
      </h2>
      {terms.sentences.map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
    </section>
  );
}
