import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/refunds";
import { AdminTable } from "#app/components/admin/admin-table";
import { Link } from "#app/components/link";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLongDate } from "#app/domain/date-labels";
import { formatPounds } from "#app/domain/pricing";
import { REFUND_AUTO_ATTEMPTS, refundProblemInWords } from "#app/domain/refund-retries";
import { owedPatientRefunds, retryOwedRefund } from "#app/services/payments/owed-refunds.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import { ownEntry } from "#app/utils/own-entry";

export const meta = () => pageMeta("Refunds owed to patients", "Refunds still to be made.");
export const headers = pipeHeaders;

/** What the last "Try again" did, for the line above the owed refunds. */
const RETRY_MESSAGES = {
  refunded: "The refund was made.",
  already: "That refund had already been made: it is marked refunded now.",
  busy: "That refund is being made at this moment. Look again in a minute.",
  failed: "The refund failed again: its row says why.",
  "by-hand": "The refund given back another way is recorded: the booking is marked refunded.",
  "answer-lost":
    "PayPal did not answer the last try, so it may have made that refund. Press Try again first: PayPal will say whether it did.",
  "still-trying":
    "The site is still trying that refund through PayPal: it can be recorded as given back another way only once it stops.",
  "not-found": "That booking has no refund owed.",
} as const;

/** Refunds still owed to patients (references and amounts only: no one's details). */
export const loader = staffRoute("event:cancel", async (args: Route.LoaderArgs) => {
  const owedRefunds = await owedPatientRefunds(db());
  const retried = new URL(args.request.url).searchParams.get("refund");
  return data(
    {
      owedRefunds,
      retryMessage: ownEntry(RETRY_MESSAGES, retried) ?? null,
    },
    { headers: NO_STORE },
  );
});

export const action = staffRoute("event:cancel", async (args: Route.ActionArgs, staff) => {
  const form = await readForm(args.request);
  const reference = String(form.get("reference") ?? "");
  const { outcome } = await retryOwedRefund(db(), staff, reference);
  return redirect(`/admin/refunds?refund=${outcome}`);
});

export default function Refunds({ loaderData }: Route.ComponentProps) {
  const { owedRefunds, retryMessage } = loaderData;
  return (
    <>
      <h1>Refunds owed to patients</h1>
      {retryMessage && (
        <p className="success-panel" role="status">
          {retryMessage}
        </p>
      )}
      <p>
        People who cancelled in time for a full refund, people a coordinator cancelled for with a
        refund, and people whose event was cancelled. The site keeps trying each one by itself;
        after {REFUND_AUTO_ATTEMPTS} failed tries it stops, and the row says so. It stops at once
        when PayPal refuses a refund for good (a payment too old, or disputed): give the money back
        another way, then record it on the row.
      </p>
      {owedRefunds.length === 0 ? (
        <p>No refunds are owed to patients.</p>
      ) : (
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
              <td>
                {row.underReview
                  ? "PayPal is still reviewing the payment. Once it accepts it, the site refunds it by itself."
                  : row.lastReason
                    ? refundProblemInWords(row.lastReason)
                    : "None yet"}
              </td>
              <td>
                {row.underReview ? (
                  "Nothing to do yet"
                ) : (
                  <>
                    <Form method="post">
                      <input type="hidden" name="reference" value={row.reference} />
                      <button type="submit" className="button button--secondary">
                        Try again<span className="visually-hidden"> for {row.reference}</span>
                      </button>
                    </Form>
                    {row.retriesStopped && (
                      <Link to={`/admin/refunds/${row.reference}/by-hand`}>
                        Given back another way
                        <span className="visually-hidden"> for {row.reference}</span>
                      </Link>
                    )}
                  </>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </>
  );
}
