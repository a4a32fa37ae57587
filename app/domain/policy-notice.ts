// No imports: pages and the consent form state these in the browser, without the bank-holiday
// calendar that cancellation-policy.ts needs.

/** The notice periods of the cancellation and refund policy (the rule is cancellation-policy.ts). */
export const CHANGE_NOTICE_HOURS = 48;
/** Business days of notice a change needs, at least. */
export const CHANGE_NOTICE_BUSINESS_DAYS = 2;
/** A full refund needs more than this many business days' notice. */
export const REFUND_NOTICE_BUSINESS_DAYS = 2;
/** Refunds reach the original payment method within this many business days. */
export const REFUND_WITHIN_BUSINESS_DAYS = 14;
