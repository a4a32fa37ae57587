import { data, redirect } from "react-router";
import type { Route } from "./+types/consent";
import { ConsentForm } from "#app/components/consent-form";
import { pageMeta } from "#app/components/meta";
import { HoldEnded, HoldNotice } from "#app/components/hold-notice";
import { OrderSummary } from "#app/components/order-summary";
import { db } from "#app/db/client.server";
import { bookingJourneyPath, bookingPageFor, bookingPaths } from "#app/domain/booking-paths";
import { consentFormInput, parseConsentForm, type ConsentFailure } from "#app/domain/consent";
import { formatLongDate } from "#app/domain/date-labels";
import { noteDatabaseError } from "#app/db/health.server";
import { ConsentStepFailed, submitConsent } from "#app/services/booking/consent.server";
import { findBookingForUser } from "#app/services/booking/view.server";
import { requireUser } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Consent form", "Answer a few questions and give your consent for the PSA test.");

export const headers = pipeHeaders;

/** Step two of booking: the consent form, while the chosen time is held. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const reference = new URL(request.url).searchParams.get("booking") ?? "";
  const booking = await findBookingForUser(db(), { userId: user.id, reference });
  if (!booking) throw data(null, { status: 404 });
  const belongs = bookingPageFor(booking, "consent");
  if (belongs !== "consent") throw redirect(bookingJourneyPath(belongs, booking.reference));
  return data({ booking }, { headers: NO_STORE });
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const reference = new URL(request.url).searchParams.get("booking") ?? "";
  const form = await readForm(request);
  const parsed = parseConsentForm(form);
  if (!parsed.ok)
    return data(
      { fieldErrors: parsed.fieldErrors, values: parsed.values },
      { status: 400, headers: NO_STORE },
    );
  let result: Awaited<ReturnType<typeof submitConsent>>;
  try {
    result = await submitConsent(db(), { userId: user.id, reference, form: parsed.data });
  } catch (error) {
    // An outage is the database gate's (503); any other failure is said here, the answers kept.
    if (noteDatabaseError(error)) throw error;
    const failure: ConsentFailure = error instanceof ConsentStepFailed ? error.step : "unexpected";
    logError(error instanceof ConsentStepFailed ? error.cause : error, {
      route: routeOf(request),
      code: FAILURE_CODES[failure],
    });
    return data({ failure, values: consentFormInput(form) }, { status: 500, headers: NO_STORE });
  }
  switch (result.next) {
    case "confirmed":
      return redirect(bookingPaths.success(result.reference));
    case "checkout":
      return redirect(bookingPaths.checkout(result.reference));
    case "expired":
      return data({ expired: true as const }, { status: 409, headers: NO_STORE });
    case "not-found":
      throw data(null, { status: 404 });
  }
}

const FAILURE_CODES: Record<ConsentFailure, string> = {
  consent: "consent_save_failed",
  confirm: "booking_confirm_failed",
  unexpected: "consent_submit_failed",
};

export default function Consent({ loaderData, actionData }: Route.ComponentProps) {
  const { booking } = loaderData;
  const expired = (actionData && "expired" in actionData) || !booking.holdActive;
  const errors = actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined;
  const values = actionData && "values" in actionData ? actionData.values : undefined;
  const failure = actionData && "failure" in actionData ? actionData.failure : undefined;
  return (
    <section className="section">
      <div className="page-width">
        <div className="booking-layout">
          <div>
            <p className="eyebrow">Step 2 of {booking.paymentRequired ? 3 : 2}</p>
            <h1>Consent form</h1>
            <p className="lede">
              {booking.eventName}, {formatLongDate(booking.eventDate)}, at {booking.slotStart}.
            </p>
            {expired ? (
              <HoldEnded slot={booking.slotStart} eventId={booking.eventId} />
            ) : (
              <>
                <HoldNotice slot={booking.slotStart} until={booking.holdExpiresAt} />
                <ConsentForm
                  values={values}
                  errors={errors}
                  failure={failure}
                  submitLabel={booking.paymentRequired ? "Continue to payment" : "Complete booking"}
                />
              </>
            )}
          </div>
          <aside>
            <OrderSummary
              eventName={booking.eventName}
              productName={booking.productName}
              description={booking.eventDescription}
              price={booking.pricePence}
              paymentRequired={booking.paymentRequired}
            />
          </aside>
        </div>
      </div>
    </section>
  );
}
