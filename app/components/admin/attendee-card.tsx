import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { fieldId } from "#app/components/form";
import { Link } from "#app/components/link";
import {
  ATTENDEE_DONE_MESSAGES,
  BOOKING_STATUS_LABELS,
  CHECK_IN_DONE_MESSAGES,
  CHECK_IN_LABELS,
  PAYMENT_STATUS_LABELS,
  confirmationHolds,
  formatDateOfBirth,
  formatNhsNumber,
  type AttendeeDoneIntent,
} from "#app/domain/attendees";
import type { CheckInState } from "#app/domain/check-in";
import { consentLinkRefusal } from "#app/domain/consent-link";
import { formatLondonTime } from "#app/domain/date-labels";
import { needsNhsNumber } from "#app/domain/eligibility";
import type { AttendeeEvent, AttendeeRow } from "#app/services/attendees.server";

/**
 * One man's card on an event's attendee list: his details, consent, payment, the coordinator's
 * links, and check-in with its confirmation or error.
 */

/** What a check-in, consent link or closing press that was refused sends back to the list. */
export interface AttendeeActionFailure {
  /** Empty for the whole list's "mark the rest as no-shows" (`closing`). */
  bookingId: string;
  field: "sampleId" | "checkIn" | "consentLink" | "closing";
  message: string;
  /** What was typed or scanned, put back in the field. */
  sampleId?: string;
}

/** What the address says was just done, and to whom (`done`, `ref`, `now`). */
export interface ListConfirmation {
  intent: AttendeeDoneIntent;
  reference: string;
  left: CheckInState | null;
}

export function AttendeeCard({
  row,
  event,
  today,
  formAction,
  busy,
  failure,
  confirmation,
  checkInOpensOn,
  closingTimeReached,
  canCorrectDetails,
  canMoveBookings,
  canCancelBookings,
  canExportLabCsv,
}: {
  row: AttendeeRow;
  event: Pick<AttendeeEvent, "id" | "eventDate" | "labName">;
  /** "yyyy-MM-dd", London */
  today: string;
  formAction: string;
  busy: boolean;
  /** the list's last press, refused, when it was for this row */
  failure?: AttendeeActionFailure;
  confirmation: ListConfirmation | null;
  checkInOpensOn: string | null;
  closingTimeReached: boolean;
  canCorrectDetails: boolean;
  canMoveBookings: boolean;
  canCancelBookings: boolean;
  canExportLabCsv: boolean;
}) {
  const base = `/admin/events/${event.id}`;
  const canSendConsentLink =
    consentLinkRefusal({
      status: row.status,
      checkIn: row.checkIn,
      testDate: event.eventDate,
      today,
      hasProfile: row.hasProfile,
    }) === null;
  // What the address says was just done to this row, while it still holds.
  const doneIntent =
    confirmation?.reference === row.reference &&
    (confirmation.intent === "consent-link" ||
      confirmation.intent === "details" ||
      confirmation.intent === "details-unchanged" ||
      confirmationHolds(confirmation.intent, row.checkIn, confirmation.left))
      ? confirmation.intent
      : null;
  return (
    <li
      id={`booking-${row.reference}`}
      className={`attendee${doneIntent ? " attendee--updated" : ""}`}
    >
      <h3 className="attendee__name">
        <span className="attendee__slot">{row.slotTime}</span> {row.name}{" "}
        <span className="attendee__reference">{row.reference}</span>
      </h3>
      <dl className="attendee__details">
        <div>
          <dt>Date of birth</dt>
          <dd>{notRecorded(formatDateOfBirth(row.dateOfBirth))}</dd>
        </div>
        <div>
          <dt>NHS number</dt>
          {row.nhsNumber === null && row.hasProfile && needsNhsNumber(event.labName) ? (
            <dd>
              <strong>Not recorded, and this event's laboratory needs it</strong> before a sample is
              recorded
            </dd>
          ) : (
            <dd className="nowrap">{notRecorded(formatNhsNumber(row.nhsNumber))}</dd>
          )}
        </div>
        <div>
          <dt>Consent</dt>
          <dd>
            <Consent
              row={row}
              canSend={canSendConsentLink}
              formAction={formAction}
              busy={busy}
              error={failure?.field === "consentLink" ? failure.message : undefined}
            />
            {doneIntent === "consent-link" && (
              <Confirmation message={ATTENDEE_DONE_MESSAGES["consent-link"]} />
            )}
          </dd>
        </div>
        <div>
          <dt>Payment</dt>
          <dd>
            {PAYMENT_STATUS_LABELS[row.paymentStatus]}
            {row.status !== "confirmed" && (
              <>
                <br />
                <span className="status-tag">{BOOKING_STATUS_LABELS[row.status]}</span>
              </>
            )}
          </dd>
        </div>
      </dl>
      {canCorrectDetails && row.hasProfile && (
        <p className="attendee__correct">
          <Link to={`${base}/attendees/${row.bookingId}`}>
            Correct date of birth or NHS number
            <span className="visually-hidden"> for {row.name}</span>
          </Link>
        </p>
      )}
      {canMoveBookings &&
        !closingTimeReached &&
        row.status === "confirmed" &&
        row.checkIn === "waiting" && (
          <p className="attendee__correct">
            <Link to={`${base}/attendees/${row.bookingId}/move`}>
              Move to another time
              <span className="visually-hidden"> for {row.name}</span>
            </Link>
          </p>
        )}
      {canCancelBookings && row.status === "confirmed" && row.checkIn === "waiting" && (
        <p className="attendee__correct">
          <Link to={`${base}/attendees/${row.bookingId}/cancel`}>
            Cancel this booking
            <span className="visually-hidden"> for {row.name}</span>
          </Link>
        </p>
      )}
      {(doneIntent === "details" || doneIntent === "details-unchanged") && (
        <Confirmation
          message={
            doneIntent === "details" && row.checkIn === "sample_taken"
              ? `${ATTENDEE_DONE_MESSAGES.details} ${canExportLabCsv ? SAMPLED_DETAILS_CHANGED.canExport : SAMPLED_DETAILS_CHANGED.tellCoordinator}`
              : ATTENDEE_DONE_MESSAGES[doneIntent]
          }
        />
      )}
      <div className="attendee__checkin">
        <CheckInStatus row={row} />
        {doneIntent &&
          doneIntent !== "consent-link" &&
          doneIntent !== "details" &&
          doneIntent !== "details-unchanged" && (
            <Confirmation
              message={
                doneIntent === "undo"
                  ? `Undone. Now: ${CHECK_IN_LABELS[row.checkIn].toLowerCase()}.`
                  : CHECK_IN_DONE_MESSAGES[doneIntent]
              }
            />
          )}
        {failure?.field === "checkIn" && (
          <p
            className="field-error"
            id={fieldId(attendeeErrorKey("checkIn", row.reference))}
            tabIndex={-1}
          >
            <span className="visually-hidden">Error:</span> {failure.message}
          </p>
        )}
        {!row.canCheckIn ? (
          <p className="hint">Not confirmed yet, so cannot be checked in.</p>
        ) : checkInOpensOn ? (
          <p className="hint">Check-in opens on the day.</p>
        ) : (
          <CheckInControls
            row={row}
            formAction={formAction}
            busy={busy}
            error={failure}
            typedSampleId={failure?.sampleId}
            canSendConsentLink={canSendConsentLink}
          />
        )}
      </div>
    </li>
  );
}

/** The error summary's key (and the field's id) for one field of one row. */
export function attendeeErrorKey(field: AttendeeActionFailure["field"], reference: string) {
  return `${field}-${reference}`;
}

function time(iso: string | null) {
  return iso ? formatLondonTime(iso) : "";
}

function CheckInStatus({ row }: { row: AttendeeRow }) {
  switch (row.checkIn) {
    case "waiting":
      return <span className="checkin-status">{CHECK_IN_LABELS.waiting}</span>;
    case "arrived":
      return (
        <span className="checkin-status checkin-status--arrived">
          <span aria-hidden="true">✓ </span>
          {CHECK_IN_LABELS.arrived} at {time(row.arrivedAt)}
        </span>
      );
    case "no_show":
      return (
        <span className="checkin-status checkin-status--no-show">
          <span aria-hidden="true">✗ </span>
          {CHECK_IN_LABELS.no_show} (marked at {time(row.noShowAt)})
        </span>
      );
    case "sample_taken":
      return (
        <span className="checkin-status checkin-status--sample">
          <span aria-hidden="true">✓ </span>
          {CHECK_IN_LABELS.sample_taken} at {time(row.sampleTakenAt)}: sample id{" "}
          <strong className="sample-id">{row.sampleId}</strong>
        </span>
      );
  }
}

const UNDO_LABELS: Record<Exclude<CheckInState, "waiting">, string> = {
  arrived: "Undo arrived",
  no_show: "Undo no-show",
  sample_taken: "Undo sample",
};

/**
 * The confirmation after a check-in, in the person's row; it takes focus so it is read out (by its
 * `autofocus` when the page comes from the server, by the effect when it changes in place).
 */
export function Confirmation({ message }: { message: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [message]);
  return (
    <p className="checkin-done" role="status" tabIndex={-1} ref={ref} autoFocus>
      <span aria-hidden="true">✓ </span>
      {message}
    </p>
  );
}

function CheckInControls({
  row,
  formAction,
  busy,
  error,
  typedSampleId,
  canSendConsentLink,
}: {
  row: AttendeeRow;
  formAction: string;
  busy: boolean;
  error?: AttendeeActionFailure;
  typedSampleId?: string;
  /** The Consent column offers "E-mail the consent form" for him. */
  canSendConsentLink: boolean;
}) {
  const who = <span className="visually-hidden"> for {row.name}</span>;
  const sampleFieldName = attendeeErrorKey("sampleId", row.reference);
  const sampleError = error?.field === "sampleId" ? error.message : undefined;
  const hidden = <input type="hidden" name="bookingId" value={row.bookingId} />;
  return (
    <div className="checkin-actions">
      {(row.checkIn === "waiting" || row.checkIn === "no_show") && (
        <Form method="post" action={formAction}>
          {hidden}
          <button
            type="submit"
            name="intent"
            value="arrived"
            className="button button--large"
            disabled={busy}
          >
            Arrived{who}
          </button>
        </Form>
      )}
      {(row.checkIn === "waiting" || row.checkIn === "arrived") && (
        <Form method="post" action={formAction}>
          {hidden}
          <input type="hidden" name="from" value={row.checkIn} />
          <button
            type="submit"
            name="intent"
            value="no-show"
            className="button button--large button--secondary"
            disabled={busy}
          >
            No-show{who}
          </button>
        </Form>
      )}
      {row.checkIn !== "sample_taken" && !row.consent && (
        // Consent comes before the needle; the service refuses a sample without it too.
        <p className="hint" id={fieldId(sampleFieldName)} tabIndex={-1}>
          No consent is recorded, so no sample can be taken yet.
          {canSendConsentLink &&
            " E-mail him the consent form (under Consent) to fill in on his phone, then record the sample."}
        </p>
      )}
      {row.checkIn !== "sample_taken" && row.consent && (
        <Form method="post" action={formAction} className="sample-form" noValidate>
          {hidden}
          <input type="hidden" name="intent" value="sample" />
          <div className={`sample-form__field${sampleError ? " form-group--error" : ""}`}>
            <label className="label" htmlFor={fieldId(sampleFieldName)}>
              Sample id{who}
            </label>
            {sampleError && (
              <span className="field-error" id={`${fieldId(sampleFieldName)}-error`}>
                <span className="visually-hidden">Error:</span> {sampleError}
              </span>
            )}
            <input
              id={fieldId(sampleFieldName)}
              name="sampleId"
              type="text"
              className={`input input--large${sampleError ? " input--error" : ""}`}
              defaultValue={typedSampleId}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={60}
              aria-describedby={sampleError ? `${fieldId(sampleFieldName)}-error` : undefined}
              aria-invalid={sampleError ? true : undefined}
            />
          </div>
          <button type="submit" className="button button--large" disabled={busy}>
            Record sample{who}
          </button>
        </Form>
      )}
      {row.checkIn !== "waiting" && (
        <Form method="post" action={formAction}>
          {hidden}
          <input type="hidden" name="from" value={row.checkIn} />
          {row.checkIn === "sample_taken" && row.sampleId && (
            <input type="hidden" name="sampleId" value={row.sampleId} />
          )}
          <button
            type="submit"
            name="intent"
            value="undo"
            className="button button--secondary checkin-undo"
            disabled={busy}
          >
            {UNDO_LABELS[row.checkIn]}
            {who}
          </button>
        </Form>
      )}
    </div>
  );
}

/** Consent given, or not, with a button to e-mail the consent form's link when it makes sense. */
function Consent({
  row,
  canSend,
  formAction,
  busy,
  error,
}: {
  row: AttendeeRow;
  canSend: boolean;
  formAction: string;
  busy: boolean;
  error?: string;
}) {
  const consent = row.consent;
  if (!consent)
    return (
      <>
        <span aria-hidden="true">✗ </span>Not given
        {error && (
          <p
            className="field-error"
            id={fieldId(attendeeErrorKey("consentLink", row.reference))}
            tabIndex={-1}
          >
            <span className="visually-hidden">Error:</span> {error}
          </p>
        )}
        {canSend && (
          <Form method="post" action={formAction} className="consent-link-form">
            <input type="hidden" name="bookingId" value={row.bookingId} />
            <button
              type="submit"
              name="intent"
              value="consent-link"
              className="button button--secondary"
              disabled={busy}
            >
              E-mail the consent form
              <span className="visually-hidden"> to {row.name}</span>
            </button>
          </Form>
        )}
      </>
    );
  return (
    <>
      <span aria-hidden="true">✓ </span>Given
      <br />
      <span className="hint">Version {consent.wordingVersion}</span>
    </>
  );
}

/** After a sampled man's details are corrected: the lab's file may already hold the old ones. */
const SAMPLED_DETAILS_CHANGED = {
  canExport:
    "His sample is already recorded: if the lab CSV has gone to the lab, download it again and send the new one.",
  tellCoordinator:
    "His sample is already recorded: tell the event's coordinator, who sends the lab its file, that his details changed.",
};

function notRecorded(value: string | null) {
  return value ?? <span className="hint">Not recorded</span>;
}
