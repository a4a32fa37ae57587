import { Form, data, redirect } from "react-router";
import type { Route } from "./+types/checkout-simulated";
import { SubmitButton } from "#app/components/form";
import { WarningIcon } from "#app/components/icons";
import { pageMeta } from "#app/components/meta";
import { formatPounds } from "#app/domain/pricing";
import { db } from "#app/db/client.server";
import { isOwnPaymentOrder } from "#app/services/booking/checkout.server";
import { requireUser } from "#app/services/guards.server";
import { simulatedProvider } from "#app/services/payments/provider.server";
import type { SimulatedDecision } from "#app/services/payments/simulated.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () => pageMeta("Test payment", "A simulated payment page for demonstration.");

export const headers = pipeHeaders;

const DECISIONS: [SimulatedDecision, string][] = [
  ["approve", "Pay (test: succeeds)"],
  ["decline", "Pay with a card that is declined (test)"],
  ["refuse", "Pay and have it refused for good (test)"],
  ["pending", "Pay and have it held for review (test)"],
  ["cancel", "Cancel and go back"],
];

/** Stands in for PayPal's approval page when the site runs without PayPal (never in production). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const provider = simulatedProvider();
  const orderId = new URL(request.url).searchParams.get("order") ?? "";
  const order = provider?.describe(orderId);
  // Another person's order is not found, as at PayPal, where only its payer can approve it.
  if (!provider || !order || !(await isOwnPaymentOrder(db(), user.id, orderId)))
    throw data(null, { status: 404 });
  return data({ order }, { headers: NO_STORE });
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const provider = simulatedProvider();
  const orderId = new URL(request.url).searchParams.get("order") ?? "";
  const decision = String((await readForm(request)).get("decision") ?? "");
  if (!provider || !DECISIONS.some(([value]) => value === decision))
    throw data(null, { status: 400 });
  if (!(await isOwnPaymentOrder(db(), user.id, orderId))) throw data(null, { status: 404 });
  const next = provider.decide(orderId, decision as SimulatedDecision);
  if (!next) throw data(null, { status: 404 });
  return redirect(next);
}

export default function SimulatedCheckout({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <section className="section">
      <div className="page-width narrow">
        <p className="warning simulated-notice" role="note">
          <WarningIcon /> <strong>Test payment — no money is taken.</strong> This page stands in for
          PayPal while the site runs without PayPal, for demonstration.
        </p>
        <h1>Test payment</h1>
        <dl className="event-details">
          <dt>For</dt>
          <dd>{order.description}</dd>
          <dt>Amount</dt>
          <dd>{formatPounds(order.amountPence)}</dd>
        </dl>
        <Form method="post" className="button-stack">
          {DECISIONS.map(([value, label]) => (
            <SubmitButton
              key={value}
              busy={false}
              name="decision"
              value={value}
              className={value === "approve" ? undefined : "button--secondary"}
            >
              {label}
            </SubmitButton>
          ))}
        </Form>
      </div>
    </section>
  );
}
