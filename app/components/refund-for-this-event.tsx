import { WarningIcon } from "#app/components/icons";
import type { TermsBeforeBooking } from "#app/domain/terms-wording";

/** This event's refund, with its date: a warning when paying would already buy nothing back. */
export function RefundForThisEvent({ refund }: { refund: TermsBeforeBooking }) {
  return refund.noRefund ? (
    <div className="warning">
      {refund.sentences.map((sentence) => (
        <p key={sentence}>
          <WarningIcon /> {sentence}
        </p>
      ))}
    </div>
  ) : (
    refund.sentences.map((sentence) => (
      <p key={sentence}>
        <strong>{sentence}</strong>
      </p>
    ))
  );
}
