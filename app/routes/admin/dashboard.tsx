import { data } from "react-router";
import { Link } from "#app/components/link";
import { AdminTable } from "#app/components/admin/admin-table";
import { FindBookingForm } from "#app/components/admin/find-booking-form";
import type { Route } from "./+types/dashboard";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLongDate } from "#app/domain/date-labels";
import { can } from "#app/domain/permissions";
import { dashboardSummary } from "#app/services/dashboard.server";
import { owedPatientRefunds } from "#app/services/payments/owed-refunds.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Back office", "The charity's back office.");
export const headers = pipeHeaders;

const STATUS_LABELS = { draft: "Draft", published: "Published", cancelled: "Cancelled" } as const;

export const loader = staffRoute("dashboard:read", async (args: Route.LoaderArgs, staff) => {
  const handlesRefunds = can(staff, "event:cancel");
  const [summary, owedRefunds] = await Promise.all([
    dashboardSummary(db(), staff),
    handlesRefunds ? owedPatientRefunds(db()) : Promise.resolve([]),
  ]);
  return data(
    {
      ...summary,
      owedRefunds: owedRefunds.length,
      stalledRefunds: owedRefunds.filter((row) => row.retriesStopped).length,
      isClinician: can(staff, "result:read"),
      canRunEvents: can(staff, "event:edit"),
      readsEvents: can(staff, "event:read"),
      canCheckIn: can(staff, "attendee:check-in"),
      handlesEnquiries: can(staff, "enquiry:handle"),
      handlesRefunds,
      findsBookings: can(staff, "attendee:read"),
    },
    { headers: NO_STORE },
  );
});

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const {
    events,
    today,
    canCheckIn,
    resultsAwaitingRelease,
    flagsToCheck,
    unhandledEnquiries,
    isClinician,
    canRunEvents,
    readsEvents,
    handlesEnquiries,
    handlesRefunds,
    owedRefunds,
    stalledRefunds,
    findsBookings,
  } = loaderData;
  return (
    <>
      <h1>Dashboard</h1>
      <ul className="admin-stats plain-list">
        {/* Each role sees the work it can do. */}
        {isClinician && (
          <li className="admin-stat">
            <span className="admin-stat__number">{resultsAwaitingRelease}</span>{" "}
            {resultsAwaitingRelease === 1 ? "result" : "results"} awaiting release{" "}
            <Link to="/admin/results">Review results</Link>
          </li>
        )}
        {isClinician && flagsToCheck > 0 && (
          <li className="admin-stat">
            <span className="admin-stat__number">{flagsToCheck}</span> released{" "}
            {flagsToCheck === 1 ? "flag" : "flags"} to check again, as a date of birth changed{" "}
            <Link to="/admin/results?show=to-check">Check the flags</Link>
          </li>
        )}
        {handlesEnquiries && (
          <li className="admin-stat">
            <span className="admin-stat__number">{unhandledEnquiries}</span> unhandled{" "}
            {unhandledEnquiries === 1 ? "enquiry" : "enquiries"}{" "}
            <Link to="/admin/enquiries">Open the inbox</Link>
          </li>
        )}
        {handlesRefunds && owedRefunds > 0 && (
          <li className="admin-stat">
            <span className="admin-stat__number">{owedRefunds}</span>{" "}
            {owedRefunds === 1 ? "refund" : "refunds"} owed to patients
            {stalledRefunds > 0 ? ` (${stalledRefunds} no longer retried: please act)` : ""}{" "}
            <Link to="/admin/refunds">See refunds</Link>
          </li>
        )}
      </ul>

      {findsBookings && <FindBookingForm />}

      {canCheckIn && (
        <section aria-labelledby="today-title">
          <h2 id="today-title">Today</h2>
          {today.length === 0 ? (
            <p>No events today.</p>
          ) : (
            <ul className="plain-list today-events">
              {today.map((row) => (
                <li key={row.id} className="today-event">
                  <span>
                    <strong>{row.name}</strong>, from {row.startTime}: {row.booked} booked
                  </span>
                  <Link className="button" to={`/admin/events/${row.id}/attendees`}>
                    Check in<span className="visually-hidden"> at {row.name}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      {readsEvents && (
        <>
          <h2>Upcoming events</h2>
          {events.length === 0 ? (
            <p>No upcoming events.</p>
          ) : (
            <AdminTable
              label="Upcoming events"
              columns={["Event", "Date", "Status", "Booked", "Held", "Total places"]}
            >
              {events.map((row) => (
                <tr key={row.id}>
                  <th scope="row">
                    {canRunEvents ? (
                      <Link to={`/admin/events/${row.id}`}>{row.name}</Link>
                    ) : (
                      row.name
                    )}
                  </th>
                  <td>
                    {formatLongDate(row.eventDate)}, {row.startTime}
                  </td>
                  <td>{STATUS_LABELS[row.status]}</td>
                  <td>{row.booked}</td>
                  <td>{row.held}</td>
                  <td>{row.total}</td>
                </tr>
              ))}
            </AdminTable>
          )}
        </>
      )}
    </>
  );
}
