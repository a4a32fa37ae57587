import { Form, Link, data, redirect } from "react-router";
import { AdminTable } from "#app/components/admin/admin-table";
import type { Route } from "./+types/dashboard";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLongDate } from "#app/domain/date-labels";
import { can } from "#app/domain/permissions";
import { formatPounds } from "#app/domain/pricing";
import { REFUND_AUTO_ATTEMPTS } from "#app/domain/refund-retries";
import { dashboardSummary } from "#app/services/dashboard.server";
import { owedPatientRefunds, retryOwedRefund } from "#app/services/payments/owed-refunds.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Back office", "The charity's back office.");
export const headers = pipeHeaders;

const STATUS_LABELS = { draft: "Draft", published: "Published", cancelled: "Cancelled" } as const;

/** What the last "Try again" did, for the line above the owed refunds. */
const RETRY_MESSAGES = {
  refunded: "The refund was made.",
  already: "That refund had already been made: it is marked refunded now.",
  busy: "That refund is being made at this moment. Look again in a minute.",
  failed:
    "The refund failed again. Refund it in PayPal by hand, then press Try again to record it.",
  "not-found": "That booking has no refund owed.",
} as const;
type RetryMessage = keyof typeof RETRY_MESSAGES;

export const loader = staffRoute("dashboard:read", async (args: Route.LoaderArgs, staff) => {
  const handlesRefunds = can(staff, "event:cancel");
  const [summary, owedRefunds] = await Promise.all([
    dashboardSummary(db()),
    handlesRefunds ? owedPatientRefunds(db()) : Promise.resolve([]),
  ]);
  const retried = new URL(args.request.url).searchParams.get("refund");
  return data(
    {
      ...summary,
      owedRefunds,
      retryMessage:
        retried && retried in RETRY_MESSAGES ? RETRY_MESSAGES[retried as RetryMessage] : null,
      isClinician: can(staff, "result:read"),
      canRunEvents: can(staff, "event:edit"),
      handlesEnquiries: can(staff, "enquiry:handle"),
      handlesRefunds,
    },
    { headers: NO_STORE },
  );
});

export const action = staffRoute("event:cancel", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const reference = String(form.get("reference") ?? "");
  const { outcome } = await retryOwedRefund(db(), staff, reference);
  return redirect(`/admin?refund=${outcome}#owed-refunds-title`);
});

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const {
    events,
    resultsAwaitingRelease,
    unhandledEnquiries,
    isClinician,
    canRunEvents,
    handlesEnquiries,
    handlesRefunds,
    owedRefunds,
    retryMessage,
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
        {handlesEnquiries && (
          <li className="admin-stat">
            <span className="admin-stat__number">{unhandledEnquiries}</span> unhandled{" "}
            {unhandledEnquiries === 1 ? "enquiry" : "enquiries"}{" "}
            <Link to="/admin/enquiries">Open the inbox</Link>
          </li>
        )}
      </ul>

      {handlesRefunds && (owedRefunds.length > 0 || retryMessage) && (
        <section aria-labelledby="owed-refunds-title">
          <h2 id="owed-refunds-title">Refunds owed to patients</h2>
          {retryMessage && (
            <p className="success-panel" role="status">
              {retryMessage}
            </p>
          )}
          <p>
            People who cancelled in time for a full refund. The site keeps trying each one by
            itself; after {REFUND_AUTO_ATTEMPTS} failed tries it stops, and the row says so.
          </p>
          {owedRefunds.length > 0 && (
            <AdminTable
              label="Refunds owed to patients"
              columns={["Booking", "Event", "Amount", "Failed tries", "Last problem", "Action"]}
            >
              {owedRefunds.map((row) => (
                <tr key={row.reference}>
                  <th scope="row">{row.reference}</th>
                  <td>
                    {row.eventName}, {formatLongDate(row.eventDate)}
                  </td>
                  <td>{formatPounds(row.amountPence)}</td>
                  <td>
                    {row.failedAttempts}
                    {row.retriesStopped ? " (stopped: please act)" : ""}
                  </td>
                  <td>{row.lastReason ?? "None yet"}</td>
                  <td>
                    <Form method="post">
                      <input type="hidden" name="reference" value={row.reference} />
                      <button type="submit" className="button button--secondary">
                        Try again<span className="visually-hidden"> for {row.reference}</span>
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </AdminTable>
          )}
        </section>
      )}

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
                {canRunEvents ? <Link to={`/admin/events/${row.id}`}>{row.name}</Link> : row.name}
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
  );
}
