import { Form, data, redirect, useNavigation } from "react-router";
import { AdminTable } from "#app/components/admin/admin-table";
import {
  AttendeeCard,
  Confirmation,
  attendeeErrorKey,
  type AttendeeActionFailure,
} from "#app/components/admin/attendee-card";
import {
  ClosingTime,
  NhsNumbersNeeded,
  SharedNhsNumbers,
} from "#app/components/admin/attendee-notices";
import { ErrorSummary } from "#app/components/form";
import { LAB_CSV_MESSAGES } from "#app/domain/lab-csv";
import { Link } from "#app/components/link";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import {
  PAYMENT_STATUS_LABELS,
  cleanSearch,
  isAttendeeDoneIntent,
  type AttendeeDoneIntent,
} from "#app/domain/attendees";
import {
  checkInSchema,
  isCheckInState,
  noShowsAtClosingSchema,
  type CheckInState,
} from "#app/domain/check-in";
import { CONSENT_LINK_REFUSALS } from "#app/domain/consent-link";
import { formatLondonDateTime, formatLongDate } from "#app/domain/date-labels";
import { londonDate } from "#app/domain/london-time";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import {
  markRemainingNoShows,
  openAttendeeEvent,
  recordCheckIn,
  viewAttendees,
  type CancelledAttendee,
} from "#app/services/attendees.server";
import { sendConsentLink } from "#app/services/consent-link-mail.server";
import { staffRoute } from "#app/services/guards.server";
import { can } from "#app/domain/permissions";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import type { Route } from "./+types/attendees";

export const meta = () =>
  pageMeta("Attendees", "An event's bookings, check-in on the day and the lab's list.");
export const headers = pipeHeaders;

export const CONSENT_LINK_THROTTLED =
  "A consent link was e-mailed to this person a few minutes ago. Ask him to check his inbox and spam folder, or try again later.";

/**
 * What the list says after a booking was cancelled for him, with where his money stands now: read
 * from the booking, so a reload after the worker made an owed refund, or an edited address, says
 * what is true.
 */
function cancelledMessage(row: CancelledAttendee): string {
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
        isAttendeeDoneIntent(done) && reference
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
  const back = (intent: AttendeeDoneIntent, reference: string, left?: CheckInState) => {
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
    return data<AttendeeActionFailure>(
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
      return data<AttendeeActionFailure>(
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
    return data<AttendeeActionFailure>(
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
    return data<AttendeeActionFailure>(
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
    sharingNhsNumber,
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

  const failure = actionData as AttendeeActionFailure | undefined;
  const failedRow = failure
    ? [...active, ...cancelled].find((row) => row.bookingId === failure.bookingId)
    : undefined;
  const closingError = failure?.field === "closing" ? failure.message : undefined;
  const errors: FieldErrors = closingError
    ? { closing: closingError }
    : failure && failedRow
      ? // Named in the summary: on a list of twenty cards, "the sample id…" alone says not whose.
        {
          [attendeeErrorKey(failure.field, failedRow.reference)]:
            `${failedRow.name} (${failedRow.slotTime}): ${failure.message}`,
        }
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
      <NhsNumbersNeeded
        labName={event.labName}
        withoutNhsNumber={withoutNhsNumber}
        beforeTheDay={checkInOpensOn !== null}
        canCorrectDetails={canCorrectDetails}
        listPath={`${base}/attendees`}
      />
      <SharedNhsNumbers
        sharingNhsNumber={sharingNhsNumber}
        canCorrectDetails={canCorrectDetails}
        listPath={`${base}/attendees`}
      />
      {!checkInOpensOn && (
        <ClosingTime
          endTime={event.endTime}
          stillWaitingCount={totals.waiting}
          stillWaiting={stillWaiting}
          arrivedWithoutSample={arrivedWithoutSample}
          closingTimeReached={closingTimeReached}
          closingError={closingError}
          formAction={formAction}
          busy={busy}
          listPath={`${base}/attendees`}
        />
      )}

      <div className="attendees-downloads">
        <div className="admin-actions">
          <a className="button button--secondary" href={`${base}/attendees/print`}>
            Printable list
          </a>
          {canExportLabCsv && event.labName && (
            <a className="button button--secondary" href={`${base}/lab.csv`}>
              Download the lab CSV
            </a>
          )}
        </div>
        {canExportLabCsv && !event.labName && (
          <p className="notice-panel">
            {LAB_CSV_MESSAGES.noLab} <Link to={base}>Open the event&apos;s page</Link>.
          </p>
        )}
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
          {active.map((row) => (
            <AttendeeCard
              key={row.bookingId}
              row={row}
              event={event}
              today={today}
              formAction={formAction}
              busy={busy}
              failure={failure && failedRow === row ? failure : undefined}
              confirmation={confirmation}
              checkInOpensOn={checkInOpensOn}
              closingTimeReached={closingTimeReached}
              canCorrectDetails={canCorrectDetails}
              canMoveBookings={canMoveBookings}
              canCancelBookings={canCancelBookings}
              canExportLabCsv={canExportLabCsv}
            />
          ))}
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
