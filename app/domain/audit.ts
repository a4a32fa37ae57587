/**
 * What the audit log records, as dotted codes: "<thing>.<what was done>". Every staff read of a
 * person's health data or personal details, every export, import and release, and every change
 * to who may do what.
 */
export const AUDIT_ACTIONS = {
  "attendees.view": "Viewed an event's attendee list",
  "attendees.print": "Printed an event's attendee list",
  "attendees.export": "Exported the lab CSV",
  "attendees.consent-link": "Sent someone a link to the consent form",
  "checkin.update": "Recorded a check-in",
  "attendee.details.view": "Opened someone's date of birth and NHS number to correct them",
  "attendee.details.correct": "Corrected someone's date of birth or NHS number",
  "booking.view": "Opened someone's booking to cancel it or move it when he asked",
  "booking.cancel": "Cancelled someone's booking when he asked",
  "booking.move": "Moved someone's booking to another time when he asked",
  "results.import.preview": "Uploaded a results file",
  "results.import.commit": "Imported results",
  "results.view": "Viewed results",
  "result.view": "Viewed a result",
  "result.release": "Released a result",
  "result.correct": "Corrected a released result",
  "result.flag-confirm": "Confirmed a released flag after his date of birth changed",
  "result.withdraw": "Withdrew an unreleased result whose sample was recorded for the wrong man",
  "thresholds.update": "Changed the PSA thresholds",
  "enquiries.view": "Viewed enquiries",
  "enquiry.handled": "Marked an enquiry handled",
  "enquiry.reopened": "Marked an enquiry not handled",
  "subscribers.export": "Exported newsletter subscribers",
  "event.create": "Created an event",
  "event.update": "Changed an event",
  "event.publish": "Published an event",
  "event.unpublish": "Unpublished an event",
  "event.cancel": "Cancelled an event (or retried its refunds)",
  "refund.retry": "Tried again a refund owed to a patient",
  "refund.by-hand": "Recorded a refund given back outside PayPal",
  "product.create": "Made a screening product",
  "product.update": "Changed a screening product (its price applies to events that use it)",
  "access-code.create": "Made an access code",
  "access-code.revoke": "Revoked an access code",
  "staff.two-factor": "Turned on two-factor sign-in",
  "staff.two-factor.reset": "Reset someone's two-factor sign-in",
  "staff.two-factor.replayed": "Typed a two-factor code already used (refused)",
  "staff.invite": "Invited a staff member",
  "staff.invite.revoke": "Revoked a staff invitation",
  "staff.setup": "Set up a staff account",
  "staff.roles": "Changed roles",
  "staff.deactivate": "Deactivated an account",
  "staff.reactivate": "Reactivated an account",
  "staff.view": "Viewed the staff list",
  "audit.view": "Read the audit log",
  "my-data.export": "Read or downloaded everything held about them (My data)",
  "my-data.erase": "Deleted their own account",
  "retained-result.erase": "Erased a result kept after its account was deleted",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === "string" && Object.hasOwn(AUDIT_ACTIONS, value);
}

/** The fields of the audit log's filter form, in the order the page shows them. */
export const AUDIT_FILTER_FIELDS = ["action", "actor", "subject", "from", "to"] as const;
