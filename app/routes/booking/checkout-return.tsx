import { data, redirect } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/checkout-return";
import { pageMeta } from "#app/components/meta";
import { WarningIcon } from "#app/components/icons";
import { db } from "#app/db/client.server";
import { capturePayment } from "#app/services/booking/capture.server";
import { requireUser } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { bookingPaths } from "#app/domain/booking-paths";

export const meta = () => pageMeta("Your payment", "The result of your payment.");

export const headers = pipeHeaders;

/**
 * Where PayPal (or the simulated page) sends the payer back: `?token={order}&PayerID=…`. The
 * server captures here, so a browser without JavaScript pays too. Capturing twice is harmless.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const orderId = new URL(request.url).searchParams.get("token") ?? "";
  const result = await capturePayment(db(), { userId: user.id, orderId });
  switch (result.outcome) {
    case "confirmed":
    case "pending":
      throw redirect(bookingPaths.success(result.reference));
    case "recoverable":
      throw redirect(`${bookingPaths.checkout(result.reference)}&payment=declined`);
    case "no-response":
      throw redirect(`${bookingPaths.checkout(result.reference)}&payment=no-response`);
    case "in-progress":
      throw redirect(`${bookingPaths.checkout(result.reference)}&payment=in-progress`);
    case "expired":
      throw redirect(bookingPaths.checkout(result.reference));
    case "not-found":
      throw data(null, { status: 404 });
    case "failed":
      return data(
        { reference: result.reference, message: result.message, refunding: !!result.refunding },
        { status: 402, headers: NO_STORE },
      );
  }
}

/** A payment PayPal refused for good: the spec's message with PayPal's reference, and no booking. */
export default function CheckoutReturn({ loaderData }: Route.ComponentProps) {
  // Money taken and being given back: the message says so, and "no money taken" would not be true.
  const { refunding, message } = loaderData;
  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>{refunding ? "Your booking could not be made" : "Your payment did not go through"}</h1>
        <div className="warning" role="alert">
          <p className="status">
            <WarningIcon /> {message}
          </p>
          {!refunding && (
            <p>
              Sorry, your transaction could not be processed. Please try again later or with a
              different payment card.
            </p>
          )}
        </div>
        <p>
          {refunding
            ? "You do not need to do anything: the refund is on its way."
            : "No money has been taken, and your booking has not been made."}
        </p>
        <Link className="button" to="/book-event-main">
          Find an event
        </Link>
      </div>
    </section>
  );
}
