import { describe, expect, it } from "vitest";
import { parseForm } from "./forms";
import { STAFF_CANCEL_MESSAGES, staffCancelSchema } from "./staff-cancel";

describe("the coordinator's cancel form", () => {
  it("reads the refund chosen and the policy's refund shown", () => {
    expect(parseForm(staffCancelSchema, { refund: "full", policyRefundPence: "0" })).toMatchObject({
      ok: true,
      data: { refund: "full", policyRefundPence: 0 },
    });
  });

  it("asks for a choice when none was made", () => {
    expect(parseForm(staffCancelSchema, { policyRefundPence: "2500" })).toMatchObject({
      ok: false,
      fieldErrors: { refund: STAFF_CANCEL_MESSAGES.refundMissing },
    });
  });

  it("refuses a refund that is not a whole number of pence", () => {
    expect(
      parseForm(staffCancelSchema, { refund: "policy", policyRefundPence: "12.5" }),
    ).toMatchObject({ ok: false });
    expect(
      parseForm(staffCancelSchema, { refund: "everything", policyRefundPence: "0" }),
    ).toMatchObject({ ok: false });
    // An empty field is not "nothing shown": it would let a cancellation for less through.
    expect(parseForm(staffCancelSchema, { refund: "policy", policyRefundPence: "" })).toMatchObject(
      { ok: false },
    );
    expect(parseForm(staffCancelSchema, { refund: "policy" })).toMatchObject({ ok: false });
  });
});
