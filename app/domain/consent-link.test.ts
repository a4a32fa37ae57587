import { describe, expect, it } from "vitest";
import { consentLinkRefusal } from "./consent-link";

const base = {
  status: "confirmed",
  checkIn: "waiting",
  testDate: "2031-05-10",
  today: "2031-05-01",
  hasProfile: true,
} as const;

describe("consentLinkRefusal", () => {
  it("allows a confirmed booking whose test is today or later and not yet done", () => {
    expect(consentLinkRefusal(base)).toBeNull();
    expect(consentLinkRefusal({ ...base, today: "2031-05-10" })).toBeNull();
    expect(consentLinkRefusal({ ...base, checkIn: "arrived" })).toBeNull();
  });

  it("refuses bookings for which consent makes no sense", () => {
    for (const status of ["held", "awaiting_payment", "cancelled", "expired"])
      expect(consentLinkRefusal({ ...base, status })).toBe("not-confirmed");
    expect(consentLinkRefusal({ ...base, today: "2031-05-11" })).toBe("test-passed");
    expect(consentLinkRefusal({ ...base, checkIn: "sample_taken" })).toBe("sample-taken");
    expect(consentLinkRefusal({ ...base, checkIn: "no_show" })).toBe("no-show");
  });

  it("refuses an account with no patient details: a deleted one has no address to send to", () => {
    expect(consentLinkRefusal({ ...base, hasProfile: false })).toBe("no-patient-details");
  });
});
