import { data } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/attendees.print";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import {
  BOOKING_STATUS_LABELS,
  formatDateOfBirth,
  formatNhsNumber,
  printedCount,
} from "#app/domain/attendees";
import { formatLongDate, formatLondonTime } from "#app/domain/date-labels";
import { londonDate } from "#app/domain/london-time";
import { printAttendees } from "#app/services/attendees.server";
import { staffRoute } from "#app/services/guards.server";
import adminStyles from "#app/styles/admin.css?url";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta("Attendee list to print", "An event's attendee list, laid out for A4 paper.");
export const headers = pipeHeaders;
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

/** Everyone with a place at the event, for a paper list at the door. Each person is audited. */
export const loader = staffRoute("attendee:read", async (args: Route.LoaderArgs, staff) => {
  const now = new Date();
  const printed = await printAttendees(db(), staff, { eventId: args.params.eventId, now });
  if (!printed) throw data(null, { status: 404, headers: NO_STORE });
  return data(
    { ...printed, printedOn: londonDate(now), printedAt: now.toISOString() },
    { headers: NO_STORE },
  );
});

/**
 * How to print. The page has no scripts, as none of ours needs them, so there is no button that
 * calls `window.print()`: the browser's own Print command, said for a tablet at the door too.
 */
function PrintHint() {
  return (
    <p className="hint">
      To print, use your browser&apos;s Print command: Ctrl + P on a computer (⌘ + P on a Mac); on a
      tablet or phone, its Share or menu button, then Print.
    </p>
  );
}

function Box({ ticked, label }: { ticked: boolean; label: string }) {
  return (
    <span
      className="tick-box"
      role="img"
      aria-label={ticked ? `${label}: yes` : `${label}: not yet`}
    >
      {ticked ? "✓" : ""}
    </span>
  );
}

export default function PrintableAttendees({ loaderData }: Route.ComponentProps) {
  const { event, rows, printedOn, printedAt } = loaderData;
  return (
    <div className="print-sheet page-width">
      <div className="print-toolbar no-print">
        <Link to={`/admin/events/${event.id}/attendees`}>Back to the attendee list</Link>
        <PrintHint />
      </div>
      <h1>Attendee list: {event.name}</h1>
      <p>
        {formatLongDate(event.eventDate)}, {event.startTime} to {event.endTime}.{" "}
        {event.addressLine1}, {event.city}, {event.postcode}. Lab: {event.labName ?? "not set"}.
      </p>
      <p className="print-sheet__note">
        {printedCount(rows)} Printed {formatLongDate(printedOn)} at {formatLondonTime(printedAt)}.
        This list holds personal details: keep it with you, and shred it after the event once
        check-in has been entered.
      </p>
      {rows.length === 0 ? (
        <p>Nobody has booked yet.</p>
      ) : (
        <div className="table-scroll" role="region" aria-label="Attendees" tabIndex={0}>
          <table className="print-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Name and reference</th>
                <th scope="col">Date of birth</th>
                <th scope="col">NHS number</th>
                <th scope="col">Consent</th>
                <th scope="col">Arrived</th>
                <th scope="col">Sample id</th>
                <th scope="col">No-show</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.bookingId}>
                  <td>{row.slotTime}</td>
                  <th scope="row">
                    {row.name}
                    <span className="attendee__reference">{row.reference}</span>
                    {row.status !== "confirmed" && (
                      <span className="attendee__reference">
                        {BOOKING_STATUS_LABELS[row.status]}
                      </span>
                    )}
                  </th>
                  <td className="nowrap">{formatDateOfBirth(row.dateOfBirth) ?? "Not recorded"}</td>
                  <td className="nowrap">{formatNhsNumber(row.nhsNumber) ?? "Not recorded"}</td>
                  <td>
                    {row.consent ? `Given (version ${row.consent.wordingVersion})` : "Not given"}
                  </td>
                  <td>
                    <Box
                      ticked={row.checkIn === "arrived" || row.checkIn === "sample_taken"}
                      label="Arrived"
                    />
                  </td>
                  <td className="print-table__write-in">{row.sampleId ?? ""}</td>
                  <td>
                    <Box ticked={row.checkIn === "no_show"} label="No-show" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
