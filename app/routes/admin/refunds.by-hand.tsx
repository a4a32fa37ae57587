import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/refunds.by-hand";
import { SubmitButton } from "#app/components/form";
import { Link } from "#app/components/link";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLongDate } from "#app/domain/date-labels";
import { formatPounds } from "#app/domain/pricing";
import { refundProblemInWords } from "#app/domain/refund-retries";
import {
  owedPatientRefund,
  recordOwedRefundByHand,
} from "#app/services/payments/owed-refunds.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta("Record a refund given back another way", "A refund PayPal would not make.");
export const headers = pipeHeaders;

/** The owed refund, to confirm before it is marked as given back. */
export const loader = staffRoute("event:cancel", async ({ params }: Route.LoaderArgs) => {
  const owed = await owedPatientRefund(db(), params.reference);
  if (!owed) throw data(null, { status: 404, headers: NO_STORE });
  return data({ owed }, { headers: NO_STORE });
});

/** Records it, and goes back to the list, which says what happened. */
export const action = staffRoute("event:cancel", async ({ params }: Route.ActionArgs, staff) => {
  const { outcome } = await recordOwedRefundByHand(db(), staff, params.reference);
  return redirect(`/admin/refunds?refund=${outcome === "recorded" ? "by-hand" : outcome}`);
});

export default function RecordRefundByHand({ loaderData }: Route.ComponentProps) {
  const { owed } = loaderData;
  const navigation = useNavigation();
  const amount = formatPounds(owed.amountPence);
  return (
    <>
      <h1>Record a refund given back another way</h1>
      <p>
        Booking {owed.reference}, {owed.eventName}, {formatLongDate(owed.eventDate)}: {amount} owed.
      </p>
      {owed.lastReason && <p>PayPal&apos;s last answer: {refundProblemInWords(owed.lastReason)}</p>}
      {owed.retriesStopped ? (
        <>
          <p>
            Record it only once he has the {amount} back: by a bank transfer, say, or a refund you
            made in PayPal yourself. The booking is then marked refunded, leaves the list of refunds
            owed and the site stops trying; his bookings page says the money has been given back.
          </p>
          <Form method="post" className="form">
            <SubmitButton busy={navigation.state !== "idle"} busyLabel="Recording...">
              He has the {amount} back: record it
            </SubmitButton>
          </Form>
        </>
      ) : (
        <p className="notice-panel">
          The site is still trying this refund through PayPal, so it cannot be recorded as given
          back another way yet: that could give him his money twice.
        </p>
      )}
      <p>
        <Link to="/admin/refunds">Back to refunds owed</Link>
      </p>
    </>
  );
}
