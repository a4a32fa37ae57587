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
    case "reconcile":
      if (done) return "Payment taken";
      if (status === "PENDING") return "Payment being checked by PayPal";
      if (status === "DECLINED" || status === "FAILED") return "Payment refused";
      return "Payment not taken";
    case "refund":
      if (done) return "Refund sent";
      if (status === "PENDING") return "Refund on its way";
      return "Refund not made yet (we try again)";
    default:
      return "Payment record";
  }
}

/** "1 year", "2 years". */
export function yearsWords(years: number): string {
  return `${years} ${years === 1 ? "year" : "years"}`;
}
