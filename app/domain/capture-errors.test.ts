import { describe, expect, it } from "vitest";
import { captureErrorMeaning } from "./capture-errors";

describe("what a failed capture means (found by a payments review)", () => {
  it("uses an earlier capture of the same order", () => {
    expect(captureErrorMeaning({ status: 422, issue: "ORDER_ALREADY_CAPTURED" })).toBe(
      "already-captured",
    );
  });

  it("sends him back to PayPal after a decline he can put right", () => {
    for (const issue of [
      "INSTRUMENT_DECLINED",
      "PAYER_ACTION_REQUIRED",
      "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING",
      "ORDER_NOT_APPROVED",
    ])
      expect(captureErrorMeaning({ status: 422, issue })).toBe("payer-can-retry");
  });

  it("lets the place go only on a refusal PayPal documents as final, or an order it no longer has", () => {
    for (const issue of ["TRANSACTION_REFUSED", "PAYER_CANNOT_PAY", "COMPLIANCE_VIOLATION"])
      expect(captureErrorMeaning({ status: 422, issue })).toBe("refused");
    expect(captureErrorMeaning({ status: 404, issue: "RESOURCE_NOT_FOUND" })).toBe("refused");
  });

  it("keeps the place when it cannot know whether the money was taken", () => {
    const unknown = [
      // The same request still being worked on (a second tab, or the worker at the same time).
      { status: 409, issue: "PREVIOUS_REQUEST_IN_PROGRESS" },
      { status: 422, issue: "ORDER_COMPLETION_IN_PROGRESS" },
      // Our credentials refused, or too many requests: nothing about his payment.
      { status: 401, issue: undefined },
      { status: 403, issue: "PERMISSION_DENIED" },
      { status: 429, issue: "RATE_LIMIT_REACHED" },
      // An answer of success that could not be read.
      { status: 201, issue: undefined },
      { status: 503, issue: undefined },
      // A 422 not known to be final.
      { status: 422, issue: "SOMETHING_NEW" },
    ];
    for (const error of unknown) expect(captureErrorMeaning(error)).toBe("unknown");
  });
});
