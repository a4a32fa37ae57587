import { data, redirect } from "react-router";
import type { Route } from "./+types/consent";
import { ConsentForm } from "#app/components/consent-form";
import { pageMeta } from "#app/components/meta";
import { HoldEnded, HoldNotice } from "#app/components/hold-notice";
import { OrderSummary } from "#app/components/order-summary";
import { db } from "#app/db/client.server";
import { bookingJourneyPath, bookingPageFor, bookingPaths } from "#app/domain/booking-paths";
import { parseConsentForm } from "#app/domain/consent";
import { formatLongDate } from "#app/domain/date-labels";
import { submitConsent } from "#app/services/booking/consent.server";
import { findBookingForUser } from "#app/services/booking/view.server";
import { requireUser } from "#app/services/guards.server";
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
  const parsed = parseConsentForm(await readForm(request));
  if (!parsed.ok)
    return data(
      { fieldErrors: parsed.fieldErrors, values: parsed.values },
      { status: 400, headers: NO_STORE },
    );
  const result = await submitConsent(db(), { userId: user.id, reference, form: parsed.data });
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

export default function Consent({ loaderData, actionData }: Route.ComponentProps) {
  const { booking } = loaderData;
  const expired = (actionData && "expired" in actionData) || !booking.holdActive;
  const errors = actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined;
  const values = actionData && "values" in actionData ? actionData.values : undefined;
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
                  submitLabel={booking.paymentRequired ? "Continue to payment" : "Confirm booking"}
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
