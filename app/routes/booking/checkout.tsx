import { lazy, useState } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/checkout";
import { ClientOnly } from "#app/components/client-only";
import { pageMeta } from "#app/components/meta";
import {
  HoldEnded,
  HoldNotice,
  MORE_TIME_INTENT,
  MoreTimeOffer,
  moreTimeHint,
} from "#app/components/hold-notice";
import { BookingHelpline } from "#app/components/helpline";
import { Link } from "#app/components/link";
import { TermsBeforeBookingNotice } from "#app/components/terms-before-booking";
import { OrderSummary } from "#app/components/order-summary";
import { SubmitButton } from "#app/components/form";
import { WarningIcon } from "#app/components/icons";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import { formatLondonTime, formatLongDate } from "#app/domain/date-labels";
import { londonInstant } from "#app/domain/london-time";
import { termsBeforeBooking } from "#app/domain/terms-wording";
import { PAYMENT_MESSAGES, startPayment } from "#app/services/booking/checkout.server";
import { askForMoreTime, moreTimeFor } from "#app/services/booking/hold.server";
import { findBookingForUser } from "#app/services/booking/view.server";
import { requireUser } from "#app/services/guards.server";
import { paymentProviderName } from "#app/services/payments/provider.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import { bookingJourneyPath, bookingPageFor, bookingPaths } from "#app/domain/booking-paths";
import { NEEDS_SCRIPTS } from "#app/utils/page-scripts";
import { ownEntry } from "#app/utils/own-entry";

/**
 * PayPal's buttons (and their SDK) load only on this page, and only in the browser: the server
 * build leaves `*.client` modules empty, so they are rendered inside `ClientOnly`.
 */
const PayPalButtons = lazy(() => import("#app/components/paypal-buttons.client"));

/** The spec's message when PayPal's script cannot be loaded; the redirect button then shows. */
const SDK_LOAD_FAILED = "Failed to load the PayPal JS SDK script.";

export const meta = () => pageMeta("Checkout", "Pay for your screening appointment.");

export const headers = pipeHeaders;
// PayPal's buttons need scripts; without them the page sends people to PayPal's own page.
export const handle = NEEDS_SCRIPTS;

/** What a return from the payment page says, by the `payment` query value. */
const CHECKOUT_NOTICES = {
  declined: PAYMENT_MESSAGES.declined,
  cancelled: "You cancelled the payment. Your time is still held: you can pay below.",
  failed: PAYMENT_MESSAGES.failed,
  "no-response": PAYMENT_MESSAGES.noResponse,
  "in-progress": PAYMENT_MESSAGES.inProgress,
} as const;
const CANCELLED_AFTER_HOLD = "You cancelled the payment.";

/** The last step of a paid booking: the order, and two ways to pay. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const reference = url.searchParams.get("booking");
  if (!reference) throw redirect("/events");
  const booking = await findBookingForUser(db(), { userId: user.id, reference });
  if (!booking) throw data(null, { status: 404 });
  const belongs = bookingPageFor(booking, "checkout");
  if (belongs !== "checkout") throw redirect(bookingJourneyPath(belongs, booking.reference));
  const notice = url.searchParams.get("payment");
  // Back from PayPal after the hold ran out: the page says that below, so no "still held" here.
  const message =
    notice === "cancelled" && !booking.holdActive
      ? CANCELLED_AFTER_HOLD
      : (ownEntry(CHECKOUT_NOTICES, notice) ?? null);
  const now = new Date();
  return data(
    {
      booking,
      renderedAt: now,
      terms: termsBeforeBooking({
        appointmentStart: londonInstant(booking.eventDate, booking.slotStart),
        pricePence: booking.paymentRequired ? booking.pricePence : 0,
        now,
      }),
      moreTime: moreTimeFor(booking),
      provider: paymentProviderName(),
      paypalClientId: config().PAYPAL_CLIENT_ID ?? null,
      notice: notice && message ? { kind: notice, message } : null,
    },
    { headers: NO_STORE },
  );
}

/**
 * "I need more time" (before any payment has started); or "Pay with PayPal or card" without
 * JavaScript: create the order, then go to its approval page.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const reference = new URL(request.url).searchParams.get("booking") ?? "";
  const form = await readForm(request);
  if (form.get("intent") === MORE_TIME_INTENT) {
    const moreTime = await askForMoreTime(db(), { userId: user.id, reference });
    if (moreTime === "not-found") throw data(null, { status: 404 });
    const status = moreTime === "extended" ? 200 : 409;
    return data({ moreTime }, { status, headers: NO_STORE });
  }
  const origin = config().publicBaseUrl;
  const result = await startPayment(db(), {
    userId: user.id,
    reference,
    returnUrl: `${origin}/checkout/return`,
    cancelUrl: `${origin}/checkout/cancel?booking=${encodeURIComponent(reference)}`,
  });
  switch (result.outcome) {
    case "redirect":
      return redirect(result.approvalUrl);
    case "confirmed":
    case "pending":
      return redirect(bookingPaths.success(result.reference));
    case "consent-required":
      return redirect(`/book-event/consent?booking=${result.reference}`);
    case "in-progress":
      return redirect(`${bookingPaths.checkout(result.reference)}&payment=in-progress`);
    case "expired":
      return data({ error: "expired" as const }, { status: 409, headers: NO_STORE });
    case "error":
      return data({ error: result.message }, { status: 502, headers: NO_STORE });
    case "not-found":
      throw data(null, { status: 404 });
  }
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, renderedAt, terms, moreTime, provider, paypalClientId, notice } = loaderData;
  const navigation = useNavigation();
  const [buttonsFailed, setButtonsFailed] = useState(false);
  const failed = actionData && "error" in actionData ? actionData.error : null;
  const moreTimeAnswer = actionData && "moreTime" in actionData ? actionData.moreTime : null;
  const expired = failed === "expired" || !booking.holdActive;
  const error = failed && failed !== "expired" ? failed : null;
  const until = booking.holdExpiresAt ? formatLondonTime(booking.holdExpiresAt) : "";
  const paying =
    navigation.state !== "idle" && navigation.formData?.get("intent") !== MORE_TIME_INTENT;
  const useButtons = provider === "paypal" && paypalClientId && !buttonsFailed;

  return (
    <section className="section">
      <div className="page-width">
        <div className="booking-layout">
          <div>
            <p className="eyebrow">Step 3 of 3</p>
            <h1>Checkout</h1>
            <p className="lede">
              {booking.eventName}, {formatLongDate(booking.eventDate)}, at {booking.slotStart}.
            </p>
            {notice && (
              <div className={notice.kind === "cancelled" ? "inset" : "warning"} role="alert">
                <p>{notice.message}</p>
                {notice.kind !== "cancelled" && (
                  <p>
                    <BookingHelpline lead="Need help?" />
                  </p>
                )}
              </div>
            )}
            {error && (
              <div className="warning" role="alert">
                <p>{error}</p>
                <p>
                  <BookingHelpline lead="Need help?" />
                </p>
              </div>
            )}
            {expired ? (
              <HoldEnded slot={booking.slotStart} eventId={booking.eventId} />
            ) : (
              <>
                <HoldNotice
                  slot={booking.slotStart}
                  until={booking.holdExpiresAt}
                  renderedAt={renderedAt}
                  warningHint={moreTimeHint(moreTime, "Please pay before then.")}
                  lapsed={
                    <p>
                      You can still try to pay: if {booking.slotStart} is still free, we may be able
                      to hold it for you again. If not, please{" "}
                      <Link to={bookingPaths.chooseTime(booking.eventId)}>choose a time again</Link>
                      .
                    </p>
                  }
                >
                  <Form method="post">
                    <MoreTimeOffer
                      slot={booking.slotStart}
                      until={until}
                      state={moreTime}
                      answer={moreTimeAnswer}
                      whenCapped="If the time runs out before you pay, you can choose a time again."
                    />
                  </Form>
                </HoldNotice>
                {/* Before the pay button: what paying now commits him to. */}
                <TermsBeforeBookingNotice terms={terms} />
                {provider === "simulated" && (
                  <p className="warning simulated-notice" role="note">
                    <WarningIcon /> <strong>Test payment — no money is taken.</strong> This site is
                    running without PayPal, for demonstration.
                  </p>
                )}
                {buttonsFailed && <p className="warning">{SDK_LOAD_FAILED}</p>}
                {useButtons && (
                  <ClientOnly loading={<p className="loading">Loading PayPal…</p>}>
                    <PayPalButtons
                      clientId={paypalClientId}
                      reference={booking.reference}
                      onUnavailable={() => setButtonsFailed(true)}
                    />
                  </ClientOnly>
                )}
                <Form method="post" className={useButtons ? "no-js-only" : undefined}>
                  <input type="hidden" name="intent" value="pay" />
                  <SubmitButton busy={paying} busyLabel="Please wait while we process your payment">
                    Pay with PayPal or card
                  </SubmitButton>
                </Form>
                <p className="hint">
                  You can pay with a PayPal account or with a debit or credit card; you do not need
                  a PayPal account.
                </p>
              </>
            )}
          </div>
          <aside>
            <OrderSummary
              eventName={booking.eventName}
              productName={booking.productName}
              price={booking.pricePence}
              paymentRequired={booking.paymentRequired}
              totals="order-total"
            />
          </aside>
        </div>
      </div>
    </section>
  );
}
