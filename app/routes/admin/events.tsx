import { Form, data } from "react-router";
import { Link } from "#app/components/link";
import { AdminTable } from "#app/components/admin/admin-table";
import type { Route } from "./+types/events";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLongDate } from "#app/domain/date-labels";
import { can } from "#app/domain/permissions";
import { listEventsForAdmin } from "#app/services/admin-events.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Events", "Create, publish and cancel screening events.");
export const headers = pipeHeaders;

const STATUS_LABELS = { draft: "Draft", published: "Published", cancelled: "Cancelled" } as const;
type Status = keyof typeof STATUS_LABELS;
const isStatus = (value: string | null): value is Status =>
  value !== null && Object.hasOwn(STATUS_LABELS, value);

export const loader = staffRoute("event:edit", async (args: Route.LoaderArgs, staff) => {
  const asked = new URL(args.request.url).searchParams.get("status");
  const status = isStatus(asked) ? asked : null;
  const events = await listEventsForAdmin(db(), { status });
  return data(
    {
      events,
      status,
      canSeeAttendees: can(staff, "attendee:read"),
    },
    { headers: NO_STORE },
  );
});

export default function AdminEvents({ loaderData }: Route.ComponentProps) {
  const { events, status, canSeeAttendees } = loaderData;
  return (
    <>
      <h1>Events</h1>
      <p>
        Upcoming events come first, soonest first; past events follow, most recent first. New events
        are saved as drafts: only published events appear on the site.
      </p>
      <p>
        <Link to="/admin/events/new" className="button">
          Create an event
        </Link>
      </p>

      <Form method="get" className="filter-bar" aria-label="Filter events">
        <div className="form-group">
          <label className="label" htmlFor="status-filter">
            Status
          </label>
          <select id="status-filter" name="status" className="select" defaultValue={status ?? ""}>
            <option value="">All events</option>
            {Object.entries(STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="form-group">
          <button type="submit" className="button button--secondary">
            Show events
          </button>
        </div>
      </Form>

      {events.length === 0 ? (
        <p>{status ? `No ${STATUS_LABELS[status].toLowerCase()} events.` : "No events yet."}</p>
      ) : (
        <>
          <p>
            {events.length === 1 ? "1 event" : `${events.length} events`}
            {status ? ` (${STATUS_LABELS[status].toLowerCase()})` : ""}.
          </p>
          {/* Row links skip route discovery: hundreds of rows would ask for every path at once. */}
          <AdminTable
            label="Events"
            columns={[
              "Event",
              "Date and time",
              "Status",
              "Booked",
              "Held",
              "Total places",
              "Links",
            ]}
          >
            {events.map((row) => (
              <tr key={row.id}>
                <th scope="row">
                  <Link to={`/admin/events/${row.id}`} discover="none">
                    {row.name}
                  </Link>
                  <br />
                  <span className="hint">
                    {row.productName}, {row.city}
                    {row.isPublic ? "" : ", private"}
                  </span>
                </th>
                <td>
                  {formatLongDate(row.eventDate)}, {row.startTime} to {row.endTime}
                </td>
                <td>
                  <span className="status-tag">{STATUS_LABELS[row.status]}</span>
                </td>
                <td>{row.booked}</td>
                <td>{row.held}</td>
                <td>{row.total}</td>
                <td>
                  <ul className="plain-list">
                    <li>
                      <Link
                        to={`/admin/events/${row.id}`}
                        discover="none"
                        aria-label={`Manage ${row.name}`}
                      >
                        Manage
                      </Link>
                    </li>
                    {canSeeAttendees && (
                      <li>
                        <Link
                          to={`/admin/events/${row.id}/attendees`}
                          discover="none"
                          aria-label={`Attendees of ${row.name}`}
                        >
                          Attendees
                        </Link>
                      </li>
                    )}
                    {row.status === "published" && (
                      <li>
                        <Link
                          to={`/event/${row.id}`}
                          discover="none"
                          aria-label={`On the site: ${row.name}`}
                        >
                          On the site
                        </Link>
                      </li>
                    )}
                  </ul>
                </td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
    </>
  );
}
