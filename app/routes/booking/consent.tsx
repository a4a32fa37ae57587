import { TermsBeforeBookingNotice } from "#app/components/terms-before-booking";
import { londonInstant } from "#app/domain/london-time";
import { termsBeforeBooking } from "#app/domain/terms-wording";
import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/consent";
import { ConsentForm } from "#app/components/consent-form";
import { ErrorSummary, SubmitButton } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import {
  HoldLapsedWords,
  HoldNotice,
  MORE_TIME_INTENT,
  MoreTimeOffer,
  moreTimeHint,
} from "#app/components/hold-notice";
import { OrderSummary } from "#app/components/order-summary";
import { SlotPicker } from "#app/components/slot-picker";
import { db } from "#app/db/client.server";
import { bookingJourneyPath, bookingPageFor, bookingPaths } from "#app/domain/booking-paths";
import { consentFormInput, parseConsentForm, type ConsentFailure } from "#app/domain/consent";
import { formatLongDate, formatLondonTime } from "#app/domain/date-labels";
import type { SlotChoice } from "#app/domain/slot-choices";
import { noteDatabaseError } from "#app/db/health.server";
import {
  ConsentStepFailed,
  submitConsentKeepingAnswers,
} from "#app/services/booking/consent.server";
import { askForMoreTime, moreTimeFor } from "#app/services/booking/hold.server";
import { bookingPage } from "#app/services/booking/page.server";
import { findBookingForUser } from "#app/services/booking/view.server";
import { requireUser } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import { NEEDS_SCRIPTS } from "#app/utils/page-scripts";

export const meta = () =>
  pageMeta("Consent form", "Answer a few questions and give your consent for the PSA test.");

export const headers = pipeHeaders;
// The warning before the held time runs out (WCAG 2.2.1) needs scripts.
export const handle = NEEDS_SCRIPTS;

const NEW_TIME = "new-time";

/** Step two of booking: the consent form, while the chosen time is held. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const reference = new URL(request.url).searchParams.get("booking") ?? "";
  const booking = await findBookingForUser(db(), { userId: user.id, reference });
  if (!booking) throw data(null, { status: 404 });
  const belongs = bookingPageFor(booking, "consent");
  if (belongs !== "consent") throw redirect(bookingJourneyPath(belongs, booking.reference));
  const now = new Date();
  return data(
    {
      booking,
      renderedAt: now,
      moreTime: moreTimeFor(booking),
      // A free booking is made by this page's button: its terms are said here, before it.
      terms: booking.paymentRequired
        ? null
        : termsBeforeBooking({
            appointmentStart: londonInstant(booking.eventDate, booking.slotStart),
            pricePence: 0,
            now,
          }),
    },
    { headers: NO_STORE },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const reference = new URL(request.url).searchParams.get("booking") ?? "";
  const form = await readForm(request);
  const intent = form.get("intent");
  // What was typed comes back with every answer but a booking: nothing is lost.
  const values = consentFormInput(form);
  delete values.intent;
  delete values.slotTime;

  if (intent === MORE_TIME_INTENT) {
    const moreTime = await askForMoreTime(db(), { userId: user.id, reference });
    if (moreTime === "not-found") throw data(null, { status: 404 });
    const status = moreTime === "extended" ? 200 : 409;
    return data({ moreTime, values }, { status, headers: NO_STORE });
  }

  const parsed = parseConsentForm(values);
  if (!parsed.ok)
    return data(
      { fieldErrors: parsed.fieldErrors, values: parsed.values },
      { status: 400, headers: NO_STORE },
    );
  const slotTime = intent === NEW_TIME ? String(form.get("slotTime") ?? "") : undefined;
  if (slotTime === "") {
    const booking = await findBookingForUser(db(), { userId: user.id, reference });
    if (!booking) throw data(null, { status: 404 });
    return chooseTime(user.id, values, { eventId: booking.eventId, error: CHOOSE_A_TIME });
  }
  let result: Awaited<ReturnType<typeof submitConsentKeepingAnswers>>;
  try {
    result = await submitConsentKeepingAnswers(db(), {
      userId: user.id,
      reference,
      form: parsed.data,
      clientAddress: context.clientAddress,
      slotTime,
    });
  } catch (error) {
    // An outage is the database gate's (503); any other failure is said here, the answers kept.
    if (noteDatabaseError(error)) throw error;
    const failure: ConsentFailure = error instanceof ConsentStepFailed ? error.step : "unexpected";
    logError(error instanceof ConsentStepFailed ? error.cause : error, {
      route: routeOf(request),
      code: FAILURE_CODES[failure],
    });
    return data({ failure, values }, { status: 500, headers: NO_STORE });
  }
  switch (result.next) {
    case "confirmed":
      return redirect(bookingPaths.success(result.reference));
    case "checkout":
      return redirect(bookingPaths.checkout(result.reference));
    case "choose-time":
      return chooseTime(user.id, values, {
        eventId: result.eventId,
        gone: result.slotTime,
        error: slotTime ? TIME_GONE : undefined,
      });
    case "refused":
      return data(
        { refused: result.message, eventId: result.eventId },
        { status: 409, headers: NO_STORE },
      );
    case "not-found":
      throw data(null, { status: 404 });
  }
}

const FAILURE_CODES: Record<ConsentFailure, string> = {
  consent: "consent_save_failed",
  confirm: "booking_confirm_failed",
  unexpected: "consent_submit_failed",
};

const CHOOSE_A_TIME = "Choose a time";
const TIME_GONE = "That time is no longer available. Please choose another.";

/** The times still free, with the answers kept in the page (never in the address). */
async function chooseTime(
  userId: string,
  values: Record<string, string | string[]>,
  details: { eventId: string; gone?: string; error?: string },
) {
  const { eventId } = details;
  const page = await bookingPage(db(), { userId, eventId, browserUnlocks: [] });
  const choices: SlotChoice[] = page?.choices ?? [];
  return data(
    {
      chooseTime: { choices, gone: details.gone ?? null, error: details.error ?? null },
      values,
    },
    { status: 409, headers: NO_STORE },
  );
}

/** The consent answers as hidden fields, so that choosing a time sends them again. */
function KeptAnswers({ values }: { values: Record<string, string | string[] | undefined> }) {
  return Object.entries(values).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((item, index) => (
      <input key={`${name}-${index}`} type="hidden" name={name} value={item} />
    )),
  );
}

export default function Consent(props: Route.ComponentProps) {
  const { booking } = props.loaderData;
  if (booking.status === "cancelled") return <BookingCancelled booking={booking} />;
  return <ConsentStep {...props} />;
}

function ConsentStep({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, renderedAt } = loaderData;
  const navigation = useNavigation();
  const submitLabel = booking.paymentRequired ? "Continue to payment" : "Complete booking";
  const errors = actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined;
  const values = actionData && "values" in actionData ? actionData.values : undefined;
  const failure = actionData && "failure" in actionData ? actionData.failure : undefined;
  const moreTimeAnswer = actionData && "moreTime" in actionData ? actionData.moreTime : null;
  const until = booking.holdExpiresAt ? formatLondonTime(booking.holdExpiresAt) : "";

  let body;
  if (actionData && "refused" in actionData) {
    body = (
      <div className="warning" role="alert">
        <p>{actionData.refused}</p>
        <Link className="button" to={bookingPaths.chooseTime(actionData.eventId)}>
          Choose another time
        </Link>
      </div>
    );
  } else if (actionData && "chooseTime" in actionData) {
    const { choices, gone, error } = actionData.chooseTime;
    body = (
      <>
        {gone && (
          <div className="warning" role="alert">
            <p>
              Sorry: someone else booked {gone} after we stopped holding it for you. We have kept
              your answers. Please choose another time, and we will book it with them.
            </p>
          </div>
        )}
        <Form method="post" noValidate className="form">
          {error && <ErrorSummary errors={{ slotTime: error }} fieldOrder={["slotTime"]} />}
          <KeptAnswers values={actionData.values} />
          <input type="hidden" name="intent" value={NEW_TIME} />
          {choices.length > 0 ? (
            <SlotPicker choices={choices} error={error ?? undefined} />
          ) : (
            <p className="inset">No time slots found for this event.</p>
          )}
          <SubmitButton busy={navigation.state === "submitting"}>{submitLabel}</SubmitButton>
        </Form>
      </>
    );
  } else {
    body = (
      <ConsentForm
        values={values}
        errors={errors}
        failure={failure}
        submitLabel={submitLabel}
        hiddenFields={
          <>
            {/* Enter in a field sends the form, not "I need more time" (the first button). */}
            <button type="submit" hidden tabIndex={-1} />
            <HoldNotice
              slot={booking.slotStart}
              until={booking.holdExpiresAt}
              renderedAt={renderedAt}
              warningHint={moreTimeHint(loaderData.moreTime, "Please send the form before then.")}
              lapsed={<HoldLapsedWords slot={booking.slotStart} />}
            >
              {booking.holdActive && (
                <MoreTimeOffer
                  slot={booking.slotStart}
                  until={until}
                  state={loaderData.moreTime}
                  answer={moreTimeAnswer}
                  whenCapped="If the time runs out, your answers are kept."
                />
              )}
            </HoldNotice>
            {loaderData.terms && <TermsBeforeBookingNotice terms={loaderData.terms} />}
          </>
        }
      />
    );
  }

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
            {body}
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

/**
 * A booking that has been cancelled (staff cancelled its event, or it was cancelled after it was
 * made): said plainly, with what happened to any money and where to go next, instead of a form.
 */
function BookingCancelled({ booking }: { booking: Route.ComponentProps["loaderData"]["booking"] }) {
  // A booking that was made has its refund (or why there is none) on its My bookings page; one
  // cancelled before it was made had any money taken given back in full.
  const money = booking.confirmedAt
    ? null
    : booking.paymentStatus === "refunded"
      ? "The money you paid has been refunded in full."
      : booking.paymentStatus === "paid" || booking.paymentStatus === "pending"
        ? "The money you paid is being refunded in full, to the card or PayPal account you paid with."
        : "No money has been taken.";
  return (
    <section className="section">
      <div className="page-width narrow">
        <h1>This booking has been cancelled</h1>
        <p className="lede">
          {booking.eventName}, {formatLongDate(booking.eventDate)}, at {booking.slotStart}.
        </p>
        <div className="inset" role="status">
          {booking.eventCancelled && <p>We have had to cancel this event. We are sorry.</p>}
          {money && <p>{money}</p>}
        </div>
        <p>
          <Link className="button" to="/book-event-main">
            Find another event
          </Link>
        </p>
        {booking.confirmedAt && (
          <p>
            <Link to={`/my-bookings/${booking.reference}`}>
              See this booking, and any refund, in My bookings
            </Link>
          </p>
        )}
      </div>
    </section>
  );
}
