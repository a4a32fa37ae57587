import { organisation } from "#app/content/organisation";
import {
  CHANGE_NOTICE_BUSINESS_DAYS,
  CHANGE_NOTICE_HOURS,
  REFUND_NOTICE_BUSINESS_DAYS,
} from "./policy-notice";

/**
 * The cancellation and change terms in general words, for the booking page, the consent form and
 * the refund policy: light enough for the browser (one booking's own dates are terms-wording.ts,
 * on the server). True to the rule in `cancellation-policy.ts`; the Monday examples are checked
 * against it in terms-wording.test.ts.
 */

const helpline = organisation.phones.booking;
const refundDaysLeft = REFUND_NOTICE_BUSINESS_DAYS + 1;

export const WORKING_DAYS_EXPLAINED =
  "Working days are Monday to Friday, not counting bank holidays.";

export const CANCEL_ANY_TIME = "You can cancel at any time before your appointment.";

/** The refund rule, for a paid appointment. The Monday example is checked against the rule. */
export const REFUND_TERMS = `To get back everything you paid, cancel while at least ${refundDaysLeft} full working days are left before the day of your appointment: for a Monday appointment, by the end of the Tuesday before. If you cancel later, nothing is refunded.`;

/** The change rule. The Monday example is checked against the rule. */
export const CHANGE_TERMS = `You can change the time online while at least ${CHANGE_NOTICE_BUSINESS_DAYS} full working days are left before the day of your appointment, and it is more than ${CHANGE_NOTICE_HOURS} hours away: for a Monday appointment, until the end of the Wednesday before.`;

/** The whole rule, in the order a person needs it; the refund only when there is a price. */
export function generalTermsSentences(paid: boolean): string[] {
  return [CANCEL_ANY_TIME, ...(paid ? [REFUND_TERMS] : []), CHANGE_TERMS, WORKING_DAYS_EXPLAINED];
}

/** The same, as one paragraph (the consent wording, the calendar entry). */
export function generalTerms(paid: boolean): string {
  return generalTermsSentences(paid).join(" ");
}

/** "booking helpline on 01632 960 001", for a sentence that asks him to call. */
export const BOOKING_HELPLINE = `${helpline.label.toLowerCase()} on ${helpline.display}`;

/** After the change deadline: call us. */
export const CHANGE_BY_PHONE = `After that, please call our ${BOOKING_HELPLINE}.`;
