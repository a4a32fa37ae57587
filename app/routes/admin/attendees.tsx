import { useEffect, useRef } from "react";
import { AdminTable } from "#app/components/admin/admin-table";
import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/attendees";
import { ErrorSummary, fieldId } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import {
  BOOKING_STATUS_LABELS,
  CHECK_IN_DONE_MESSAGES,
  CHECK_IN_LABELS,
  PAYMENT_STATUS_LABELS,
  cleanSearch,
  confirmationHolds,
  formatDateOfBirth,
  formatNhsNumber,
} from "#app/domain/attendees";
import {
  checkInSchema,
  isCheckInState,
  noShowsAtClosingSchema,
  type CheckInState,
} from "#app/domain/check-in";
import { CONSENT_LINK_REFUSALS, consentLinkRefusal } from "#app/domain/consent-link";
import { formatLondonDateTime, formatLongDate, formatLondonTime } from "#app/domain/date-labels";
import { needsNhsNumber } from "#app/domain/eligibility";
import { londonDate } from "#app/domain/london-time";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import {
  markRemainingNoShows,
  openAttendeeEvent,
  recordCheckIn,
  viewAttendees,
  type AttendeeRow,
} from "#app/services/attendees.server";
import { sendConsentLink } from "#app/services/consent-link-mail.server";
import { staffRoute } from "#app/services/guards.server";
import { can } from "#app/domain/permissions";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Attendees", "An event's bookings, check-in on the day and the lab's list.");
export const headers = pipeHeaders;

const DONE_MESSAGES = {
  ...CHECK_IN_DONE_MESSAGES,
  "consent-link": "Consent link sent by e-mail.",
  details: "Date of birth and NHS number saved.",
  "details-unchanged": "Nothing changed: those were already his details.",
} as const;

type DoneIntent = keyof typeof DONE_MESSAGES;

function isDoneIntent(value: string | null): value is DoneIntent {
  return value !== null && Object.hasOwn(DONE_MESSAGES, value);
}

export const CONSENT_LINK_THROTTLED =
  "A consent link was e-mailed to this person a few minutes ago. Ask him to check his inbox and spam folder, or try again later.";

/**
 * What the list says after a booking was cancelled for him, with where his money stands now: read
 * from the booking, so a reload after the worker made an owed refund, or an edited address, says
 * what is true.
 */
function cancelledMessage(row: AttendeeRow): string {
  const done = `${row.name}'s booking ${row.reference} is cancelled, and he has been e-mailed.`;
  if (row.paymentStatus === "refunded") return `${done} His refund has gone to PayPal.`;
  if (row.refundOwed)
    return `${done} His refund could not be made just now: it is tried again by itself, and listed under Refunds until it is made.`;
  return `${done} Nothing is paid back.`;
}

function listPath(eventId: string, search: string) {
  const base = `/admin/events/${eventId}/attendees`;
  return search ? `${base}?${new URLSearchParams({ q: search })}` : base;
}

/**
 * The list. `q` searches by name or booking reference; `done` and `ref` say what the last
 * check-in did, for the confirmation in that person's row. Each person shown is audited.
 */
export const loader = staffRoute("attendee:read", async (args: Route.LoaderArgs, staff) => {
  const url = new URL(args.request.url);
  const view = await viewAttendees(db(), staff, {
    eventId: args.params.eventId,
    search: url.searchParams.get("q"),
  });
  if (!view) throw data(null, { status: 404, headers: NO_STORE });
  const done = url.searchParams.get("done");
  const reference = url.searchParams.get("ref");
  const left = url.searchParams.get("now");
  // "Mark the rest as no-shows" was done; said only while nobody confirmed is still waiting.
  const closed = url.searchParams.has("closed") && view.totals.waiting === 0;
  // A booking cancelled (attendees.cancel.tsx) or moved (attendees.move.tsx) for him; said only
  // while the list still shows it so.
  const cancelledRow =
    done === "cancelled" ? view.cancelled.find((row) => row.reference === reference) : undefined;
  const movedRow =
    done === "moved" ? view.active.find((row) => row.reference === reference) : undefined;
  return data(
    {
      ...view,
      confirmation:
        isDoneIntent(done) && reference
          ? { intent: done, reference, left: isCheckInState(left) ? left : null }
          : null,
      closed,
      bookingNotice: cancelledRow
        ? cancelledMessage(cancelledRow)
        : movedRow
          ? `${movedRow.name}'s booking ${movedRow.reference} is moved to ${movedRow.slotTime} at this event, and he has been e-mailed his new time.`
          : null,
      today: londonDate(new Date()),
      // Event staff check people in; the event's own page and the lab's file are the coordinator's.
      canEditEvent: can(staff, "event:edit"),
      canExportLabCsv: can(staff, "lab-csv:export"),
      canCorrectDetails: can(staff, "attendee:correct-details"),
      canCancelBookings: can(staff, "booking:cancel"),
      canMoveBookings: can(staff, "booking:move"),
    },
    { headers: NO_STORE },
  );
});

type ActionData = {
  /** Empty for the whole list's "mark the rest as no-shows" (`closing`). */
  bookingId: string;
  field: "sampleId" | "checkIn" | "consentLink" | "closing";
  message: string;
  /** What was typed or scanned, put back in the field. */
  sampleId?: string;
};

/**
 * One check-in button or the sample form: `intent` and `bookingId`, validated. A booking that is
 * not this event's is a 404; a form that is not one of ours a 400. Then back to the list, at the
 * person's row, with the search kept.
 */
export const action = staffRoute("attendee:check-in", async (args: Route.ActionArgs, staff) => {
  const { request, params } = args;
  // Another day's event is refused (event staff) before anything sent is read.
  if (!(await openAttendeeEvent(db(), staff, params.eventId)))
    throw data(null, { status: 404, headers: NO_STORE });
  const form = await readForm(request);
  const values = formValues(form);
  const search = cleanSearch(new URL(request.url).searchParams.get("q"));
  const back = (intent: DoneIntent, reference: string, left?: CheckInState) => {
    const next = new URLSearchParams();
    if (search) next.set("q", search);
    next.set("done", intent);
    next.set("ref", reference);
    if (left) next.set("now", left);
    // No "#booking-…": a page opened at a fragment skips `autofocus`, and the confirmation's
    // focus is what brings his card into view and has it read out.
    return redirect(`/admin/events/${params.eventId}/attendees?${next}`);
  };

  if (values.intent === "consent-link") {
    const sent = await sendConsentLink(db(), staff, {
      eventId: params.eventId,
      bookingId: values.bookingId ?? "",
    });
    if (sent.outcome === "not-found") throw data(null, { status: 404, headers: NO_STORE });
    if (sent.outcome === "sent") return back("consent-link", sent.reference);
    return data<ActionData>(
      {
        bookingId: values.bookingId ?? "",
        field: "consentLink",
        message:
          sent.outcome === "throttled"
            ? CONSENT_LINK_THROTTLED
            : CONSENT_LINK_REFUSALS[sent.reason],
      },
      { status: sent.outcome === "throttled" ? 429 : 409, headers: NO_STORE },
    );
  }

  if (values.intent === "no-show-rest") {
    const listed = noShowsAtClosingSchema.safeParse({ bookingIds: form.getAll("bookingId") });
    if (!listed.success)
      throw data({ error: "The form could not be read" }, { status: 400, headers: NO_STORE });
    const closing = await markRemainingNoShows(db(), staff, {
      eventId: params.eventId,
      bookingIds: listed.data.bookingIds,
    });
    if (closing.outcome === "not-found") throw data(null, { status: 404, headers: NO_STORE });
    if (closing.outcome === "refused")
      return data<ActionData>(
        { bookingId: "", field: "closing", message: closing.message },
        { status: 409, headers: NO_STORE },
      );
    const next = new URLSearchParams();
    if (search) next.set("q", search);
    next.set("closed", String(closing.marked));
    return redirect(`/admin/events/${params.eventId}/attendees?${next}`);
  }

  const parsed = parseForm(checkInSchema, values);
  if (!parsed.ok) {
    const { sampleId, ...others } = parsed.fieldErrors;
    if (Object.keys(others).length > 0 || !sampleId)
      throw data({ error: "The form could not be read" }, { status: 400, headers: NO_STORE });
    return data<ActionData>(
      {
        bookingId: values.bookingId ?? "",
        field: "sampleId",
        message: sampleId,
        sampleId: values.sampleId ?? "",
      },
      { status: 400, headers: NO_STORE },
    );
  }
  const command = parsed.data;
  const result = await recordCheckIn(db(), staff, { eventId: params.eventId, command });
  if (result.outcome === "not-found") throw data(null, { status: 404, headers: NO_STORE });
  if (result.outcome === "refused")
    return data<ActionData>(
      {
        bookingId: command.bookingId,
        field: result.field,
        message: result.message,
        sampleId: command.intent === "sample" ? command.sampleId : undefined,
      },
      { status: result.field === "sampleId" ? 400 : 409, headers: NO_STORE },
    );
  return back(command.intent, result.reference, command.intent === "undo" ? result.to : undefined);
});

function errorKey(field: ActionData["field"], reference: string) {
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
function Confirmation({ message }: { message: string }) {
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
  error?: ActionData;
  typedSampleId?: string;
  /** The Consent column offers "E-mail the consent form" for him. */
  canSendConsentLink: boolean;
}) {
  const who = <span className="visually-hidden"> for {row.name}</span>;
  const sampleFieldName = errorKey("sampleId", row.reference);
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
            id={fieldId(errorKey("consentLink", row.reference))}
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

export default function Attendees({ loaderData, actionData }: Route.ComponentProps) {
  const {
    event,
    active,
    cancelled,
    waitlist,
    totals,
    search,
    confirmation,
    checkInOpensOn,
    closingTimeReached,
    stillWaiting,
    arrivedWithoutSample,
    withoutNhsNumber,
    closed,
    bookingNotice,
    today,
    canEditEvent,
    canExportLabCsv,
    canCorrectDetails,
    canCancelBookings,
    canMoveBookings,
  } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const formAction = listPath(event.id, search);
  const base = `/admin/events/${event.id}`;

  const failure = actionData as ActionData | undefined;
  const failedRow = failure
    ? [...active, ...cancelled].find((row) => row.bookingId === failure.bookingId)
    : undefined;
  const closingError = failure?.field === "closing" ? failure.message : undefined;
  const errors: FieldErrors = closingError
    ? { closing: closingError }
    : failure && failedRow
      ? { [errorKey(failure.field, failedRow.reference)]: failure.message }
      : {};

  return (
    <>
      <h1>
        Attendees<span className="visually-hidden">:</span>
        <span className="admin-subtitle">{event.name}</span>
      </h1>
      <p>
        {formatLongDate(event.eventDate)}, {event.startTime} to {event.endTime}.{" "}
        {event.addressLine1}, {event.city}, {event.postcode}. Lab: {event.labName ?? "not set"}.
      </p>
      <p>
        {canEditEvent ? (
          <Link to={base}>Back to the event</Link>
        ) : (
          <Link to="/admin">Back to today&apos;s events</Link>
        )}
      </p>
      {event.status === "cancelled" && (
        <p className="notice-panel">
          <strong>This event is cancelled.</strong>
        </p>
      )}
      {checkInOpensOn && (
        <p className="notice-panel">
          Check-in opens on the day of the appointment, {formatLongDate(checkInOpensOn)}.
        </p>
      )}

      <ul className="admin-stats attendee-totals plain-list" aria-label="Check-in so far">
        <li className="admin-stat">
          <span className="admin-stat__number">{totals.booked}</span> confirmed
        </li>
        <li className="admin-stat">
          <span className="admin-stat__number">{totals.arrived}</span> arrived
        </li>
        <li className="admin-stat">
          <span className="admin-stat__number">{totals.samples}</span>{" "}
          {totals.samples === 1 ? "sample" : "samples"} taken
        </li>
        <li className="admin-stat">
          <span className="admin-stat__number">{totals.noShows}</span>{" "}
          {totals.noShows === 1 ? "no-show" : "no-shows"}
        </li>
      </ul>

      {closed && (
        <Confirmation message="Everyone who was still waiting is now marked as a no-show." />
      )}
      {bookingNotice && <Confirmation message={bookingNotice} />}
      {withoutNhsNumber.length > 0 && (
        <section className="closing notice-panel" aria-labelledby="nhs-numbers-title">
          <h2 id="nhs-numbers-title">NHS numbers needed</h2>
          <p>
            This event&apos;s laboratory ({event.labName}) rejects a sample without an NHS number,
            and{" "}
            {withoutNhsNumber.length === 1
              ? "1 man booked has none recorded. No sample can be recorded for him until it is."
              : `${withoutNhsNumber.length} men booked have none recorded. No sample can be recorded for them until it is.`}{" "}
            Ask for it{checkInOpensOn ? " by phone before the day, or" : ""} at the door: it is on a
            letter from the NHS, a prescription or the NHS App.
            {canCorrectDetails && " Add it with “Correct date of birth or NHS number” on his card."}
          </p>
          <ul>
            {withoutNhsNumber.map((row) => (
              <li key={row.bookingId}>
                <a href={`${base}/attendees#booking-${row.reference}`}>
                  {row.slotTime} {row.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      {!checkInOpensOn &&
        (stillWaiting.length > 0 || (closingTimeReached && arrivedWithoutSample.length > 0)) && (
          <section className="closing" aria-labelledby="closing-title">
            <h2 id="closing-title">Closing time</h2>
            {closingTimeReached && arrivedWithoutSample.length > 0 && (
              <>
                <p>
                  {arrivedWithoutSample.length === 1
                    ? "1 man arrived but has no sample recorded. Record his sample, or, if he left without one, mark him as a no-show"
                    : `${arrivedWithoutSample.length} men arrived but have no sample recorded. Record each sample, or, if he left without one, mark him as a no-show`}
                  : until then his results page says that a result is coming.
                </p>
                <ul>
                  {arrivedWithoutSample.map((row) => (
                    <li key={row.bookingId}>
                      <a href={`${base}/attendees#booking-${row.reference}`}>
                        {row.slotTime} {row.name}
                      </a>
                    </li>
                  ))}
                </ul>
              </>
            )}
            {stillWaiting.length > 0 && (
              <p id={fieldId("closing")} tabIndex={-1}>
                {stillWaiting.length} confirmed{" "}
                {stillWaiting.length === 1 ? "booking is" : "bookings are"} still waiting.{" "}
                {closingTimeReached
                  ? "If they have not come, mark them as no-shows: their results page then says that no test was taken."
                  : `When the event ends at ${event.endTime}, you can mark them all as no-shows here.`}
              </p>
            )}
            {closingError && (
              <p className="field-error">
                <span className="visually-hidden">Error:</span> {closingError}
              </p>
            )}
            {closingTimeReached && stillWaiting.length > 0 && (
              // A second step, so that one stray tap marks no one.
              <details className="closing__confirm">
                <summary className="button button--secondary">
                  Mark the {stillWaiting.length} still waiting as no-shows
                </summary>
                <Form method="post" action={formAction}>
                  <p>
                    {stillWaiting.length === 1 ? "This booking" : "These bookings"} will be marked
                    as {stillWaiting.length === 1 ? "a no-show" : "no-shows"}. Each mark can be
                    undone on its own.
                  </p>
                  <ul>
                    {stillWaiting.map((row) => (
                      <li key={row.bookingId}>
                        {row.slotTime} {row.name}
                        <input type="hidden" name="bookingId" value={row.bookingId} />
                      </li>
                    ))}
                  </ul>
                  <button
                    type="submit"
                    name="intent"
                    value="no-show-rest"
                    className="button"
                    disabled={busy}
                  >
                    Yes, mark{" "}
                    {stillWaiting.length === 1 ? "this one" : `these ${stillWaiting.length}`} as{" "}
                    {stillWaiting.length === 1 ? "a no-show" : "no-shows"}
                  </button>
                </Form>
              </details>
            )}
          </section>
        )}

      <div className="attendees-downloads">
        <div className="admin-actions">
          <a className="button button--secondary" href={`${base}/attendees/print`}>
            Printable list
          </a>
          {canExportLabCsv && (
            <a className="button button--secondary" href={`${base}/lab.csv`}>
              Download the lab CSV
            </a>
          )}
        </div>
        {canExportLabCsv && (
          <p className="hint">
            The lab CSV lists the confirmed bookings whose sample has been taken, since those are
            the samples that go to the lab ({totals.samples} so far). Its columns: reference, name,
            date of birth, NHS number, sample id, event date and lab. It holds personal details:
            keep the file safe and delete it once the lab has it.
          </p>
        )}
      </div>

      <Form method="get" action={`${base}/attendees`} role="search" className="attendee-search">
        <label className="label" htmlFor="attendee-search">
          Search by name or booking reference
        </label>
        <div className="attendee-search__row">
          <input
            id="attendee-search"
            name="q"
            type="search"
            className="input input--large"
            defaultValue={search}
            key={search}
            autoComplete="off"
            spellCheck={false}
            maxLength={100}
          />
          <button type="submit" className="button button--large">
            Search
          </button>
        </div>
        {search && (
          <p>
            Showing people matching &ldquo;{search}&rdquo;.{" "}
            <Link to={`${base}/attendees`}>Show everyone</Link>
          </p>
        )}
      </Form>

      <ErrorSummary errors={errors} />

      <h2>
        Booked ({active.length}
        {search ? " found" : ""})
      </h2>
      {active.length === 0 ? (
        <p>{search ? "Nobody booked matches that search." : "Nobody has booked yet."}</p>
      ) : (
        <ol className="attendee-list plain-list" aria-label="Bookings in time-slot order">
          {active.map((row) => {
            const rowError = failure && failedRow === row ? failure : undefined;
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
                key={row.bookingId}
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
                        <strong>Not recorded, and this event's laboratory needs it</strong> before a
                        sample is recorded
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
                        error={rowError?.field === "consentLink" ? rowError.message : undefined}
                      />
                      {doneIntent === "consent-link" && (
                        <Confirmation message={DONE_MESSAGES["consent-link"]} />
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
                        ? `${DONE_MESSAGES.details} ${canExportLabCsv ? SAMPLED_DETAILS_CHANGED.canExport : SAMPLED_DETAILS_CHANGED.tellCoordinator}`
                        : DONE_MESSAGES[doneIntent]
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
                  {rowError?.field === "checkIn" && (
                    <p
                      className="field-error"
                      id={fieldId(errorKey("checkIn", row.reference))}
                      tabIndex={-1}
                    >
                      <span className="visually-hidden">Error:</span> {rowError.message}
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
                      error={rowError}
                      typedSampleId={rowError?.sampleId}
                      canSendConsentLink={canSendConsentLink}
                    />
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      )}

      {cancelled.length > 0 && (
        <>
          <h2>Cancelled bookings ({cancelled.length})</h2>
          <AdminTable label="Cancelled bookings" columns={["Time", "Name", "Reference", "Payment"]}>
            {cancelled.map((row) => (
              <tr key={row.bookingId} id={`booking-${row.reference}`}>
                <td>{row.slotTime}</td>
                <th scope="row">{row.name}</th>
                <td>{row.reference}</td>
                <td>{PAYMENT_STATUS_LABELS[row.paymentStatus]}</td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}

      {waitlist.length > 0 && (
        <>
          <h2>Waiting list ({waitlist.length})</h2>
          <AdminTable
            label="Waiting list"
            columns={["Place", "Name", "E-mail", "Joined", "Status"]}
          >
            {waitlist.map((row) => (
              <tr key={row.entryId}>
                <td>{row.position}</td>
                <th scope="row">{row.name}</th>
                <td>{row.email}</td>
                <td>{formatLondonDateTime(row.joinedAt)}</td>
                <td>
                  {row.status === "offered" && row.offerExpiresAt
                    ? `Offered ${row.offeredSlotTime}, held until ${formatLondonDateTime(row.offerExpiresAt)}`
                    : "Waiting"}
                </td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
    </>
  );
}
