import { describe, expect, it } from "vitest";
import { paymentRecordWords } from "./payment-record-words";

describe("a payment record in words", () => {
  it.each([
    ["create", "CREATED", "Payment started at PayPal"],
    ["capture", "COMPLETED", "Payment taken"],
    ["reconcile", "COMPLETED", "Payment confirmed by PayPal (the same payment, checked)"],
    ["capture", "REFUNDED", "Payment taken (since refunded)"],
    ["capture", "PENDING", "Payment being checked by PayPal"],
    ["capture", "DECLINED", "Payment refused"],
    ["capture", "INSTRUMENT_DECLINED", "Payment not taken"],
    ["refund", "COMPLETED", "Refund sent"],
    ["refund", "PENDING", "Refund on its way"],
    ["refund", "FAILED", "Refund not made yet (we try again)"],
  ])("%s, %s: %s", (kind, status, words) => {
    expect(paymentRecordWords(kind, status)).toBe(words);
  });

  it("never shows PayPal's codes", () => {
    expect(paymentRecordWords("something-new", "ODD_CODE")).toBe("Payment record");
  });
});
