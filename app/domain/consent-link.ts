import type { CheckInState } from "./check-in";

/**
 * When a coordinator may send someone a link to the stand-alone consent form (`/test-consent`):
 * consent is asked before a PSA test, so only for a confirmed booking whose test is still to come
 * (its day is today or later, and no sample has been taken or no-show marked). A cancelled,
 * expired or unfinished booking, a past test or one already done has nothing to consent to.
 */
export type ConsentLinkRefusal =
  "not-confirmed" | "test-passed" | "sample-taken" | "no-show" | "no-patient-details";

export const CONSENT_LINK_REFUSALS: Record<ConsentLinkRefusal, string> = {
  "not-confirmed": "This booking is not confirmed, so there is no test to consent to.",
  "test-passed": "This test has already taken place, so consent can no longer be given for it.",
  "sample-taken": "A sample has already been taken for this booking.",
  "no-show": "This person is marked as a no-show. Undo the no-show first if he is here.",
  "no-patient-details":
    "This account has no patient details (he may have deleted it), so there is no one to send the form to.",
};

export function consentLinkRefusal(booking: {
  status: string;
  checkIn: CheckInState;
  /** "yyyy-MM-dd" */
  testDate: string;
  /** "yyyy-MM-dd", in London */
  today: string;
  /** whether his account has patient details (none once he has deleted it) */
  hasProfile: boolean;
}): ConsentLinkRefusal | null {
  if (booking.status !== "confirmed") return "not-confirmed";
  if (booking.checkIn === "sample_taken") return "sample-taken";
  if (booking.checkIn === "no_show") return "no-show";
  if (booking.testDate < booking.today) return "test-passed";
  if (!booking.hasProfile) return "no-patient-details";
  return null;
}
