/**
 * A payment record in words a patient reads on My data: what the site did with PayPal and what
 * PayPal answered, not PayPal's codes ("capture, COMPLETED"). The codes stay in the download.
 */
export function paymentRecordWords(kind: string, status: string): string {
  const done = status === "COMPLETED";
  switch (kind) {
    case "create":
      return "Payment started at PayPal";
    case "capture":
      if (done) return "Payment taken";
      if (status === "REFUNDED" || status === "PARTIALLY_REFUNDED")
        return "Payment taken (since refunded)";
      if (status === "PENDING") return "Payment being checked by PayPal";
      if (status === "DECLINED" || status === "FAILED") return "Payment refused";
      return "Payment not taken";
    case "reconcile":
      // A look at a payment already recorded: not a second one.
      if (done) return "Payment confirmed by PayPal (the same payment, checked)";
      if (status === "PENDING") return "Payment still being checked by PayPal";
      return "Payment checked with PayPal";
    case "refund":
      if (done) return "Refund sent";
      if (status === "PENDING") return "Refund on its way";
      return "Refund not made yet (we try again)";
    default:
      return "Payment record";
  }
}
