import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/book-event";
import { OverEightyPointer } from "#app/components/age-restriction";
import { BookingHelpline } from "#app/components/helpline";
import { organisation } from "#app/content/organisation";
import { BackLink } from "#app/components/back-link";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { WarningIcon } from "#app/components/icons";
import { pageMeta } from "#app/components/meta";
import { OrderSummary } from "#app/components/order-summary";
import { SlotPicker } from "#app/components/slot-picker";
import { OfferedPlace } from "#app/components/waiting-list";
import { CANCELLATION_POLICY } from "#app/content/booking";
import { db } from "#app/db/client.server";
import { noteDatabaseError } from "#app/db/health.server";
import { AGE_MESSAGES } from "#app/domain/age";
import { type AgeRefusal, AGE_ON_THE_DAY_MESSAGES } from "#app/domain/age-on-the-day";
import {
  bookingPaths,
  isBookEventWithoutEvent,
  NO_EVENT_REDIRECT,
} from "#app/domain/booking-paths";
import { formatLondonTime, formatLongDate } from "#app/domain/date-labels";
import { ELIGIBILITY_MESSAGES } from "#app/domain/eligibility";
import type { BookingWindow } from "#app/domain/events";
import { isPaidEvent } from "#app/domain/pricing";
import { nhsNumberField } from "#app/domain/fields";
import { formValues, parseForm, type FieldErrors } from "#app/domain/forms";
import { refundBeforeChoosing, type TermsBeforeBooking } from "#app/domain/terms-wording";
import { RefundForThisEvent } from "#app/components/refund-for-this-event";
import { browserUnlockCookieWithout, readBrowserUnlocks } from "#app/services/access-codes.server";
import { holdPlace, holdRefusalMessage } from "#app/services/booking/hold.server";
import { bookingPage } from "#app/services/booking/page.server";
import { requireUser } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { addMissingNhsNumber } from "#app/services/profiles.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import { z } from "zod";

export const meta = () => pageMeta("Book this event", "Choose a time at a screening event.");

export const headers = pipeHeaders;

export const BOOK_EVENT_MESSAGES = {
  noSlots: "No time slots found for this event.",
  slotsFailed: "Failed to load available time slots. Please try again later.",
  chooseTime: "Choose a time for your appointment",
  timeGone: "That time is no longer available. Please choose another time.",
  nhsMissing: "Enter your NHS number",
  closed: "This event is no longer taking bookings.",
} as const;

/**
 * The booking page for one event (`/book-event?event={id}`): it needs someone signed in (the
 * layout sends anyone else to sign in and back) and, for a private event, the code from the
 * event page. It checks that the person may book this event, then offers its times.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (isBookEventWithoutEvent(url)) throw redirect(NO_EVENT_REDIRECT);
  const user = await requireUser(request);
  const eventId = url.searchParams.get("event")!;
  let page: Awaited<ReturnType<typeof bookingPage>>;
  try {
    page = await bookingPage(db(), {
      userId: user.id,
      eventId,
      browserUnlocks: await readBrowserUnlocks(request),
    });
  } catch (error) {
    // An outage is answered 503 by the database gate; anything else gets the spec's message.
    if (noteDatabaseError(error)) throw error;
    logError(error, { route: routeOf(request), code: "slots_load_failed" });
    return data({ invalid: "slots-failed" as const }, { status: 500, headers: NO_STORE });
  }
  if (!page) throw data(null, { status: 404 });
  const headers = new Headers(NO_STORE);
  if (page.claimedFromBrowser.length > 0)
    headers.set("Set-Cookie", await browserUnlockCookieWithout(request, page.claimedFromBrowser));
  if (page.locked) throw redirect(accessCodeForm(page.event.id), { headers });
  // A paid event's refund with its date, before he fills in the consent form (D-195).
  const refund = isPaidEvent(page.event)
    ? refundBeforeChoosing({
        eventDate: page.event.event_date,
        pricePence: page.event.price,
        now: new Date(),
      })
    : null;
  return data({ invalid: null, ...page, refund }, { headers });
}

type ActionData = {
  fieldErrors?: FieldErrors;
  values?: Record<string, string>;
  /** the booking whose payment is under way elsewhere, to link to (PayPal checking it, or not) */
  elsewhere?: { reference: string; checking: boolean };
};

const nhsSchema = z.object({ nhsNumber: nhsNumberField });

/** The event's page with its access-code form open. */
const accessCodeForm = (eventId: string) => `/event/${eventId}?access-code#access-code`;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const eventId = new URL(request.url).searchParams.get("event") ?? "";
  const form = await readForm(request);
  const values = formValues(form);

  if (form.get("intent") === "nhs-number") {
    const parsed = parseForm(nhsSchema, values);
    const nhsNumber = parsed.ok ? parsed.data.nhsNumber : null;
    if (!parsed.ok || !nhsNumber) {
      const fieldErrors = parsed.ok
        ? { nhsNumber: BOOK_EVENT_MESSAGES.nhsMissing }
        : parsed.fieldErrors;
      return data<ActionData>({ fieldErrors, values }, { status: 400, headers: NO_STORE });
    }
    await addMissingNhsNumber(db(), user.id, nhsNumber);
    return redirect(`/book-event?event=${encodeURIComponent(eventId)}`);
  }

  const slotTime = values.slotTime ?? "";
  if (!slotTime)
    return data<ActionData>(
      { fieldErrors: { slotTime: BOOK_EVENT_MESSAGES.chooseTime } },
      { status: 400, headers: NO_STORE },
    );
  const result = await holdPlace(db(), {
    eventId,
    userId: user.id,
    slotTime,
    clientAddress: context.clientAddress,
  });
  if (result.ok) return redirect(bookingPaths.consent(result.booking.reference));
  if (result.reason === "event-not-found") throw data(null, { status: 404 });
  if (result.reason === "locked") throw redirect(accessCodeForm(eventId));
  const message =
    result.reason === "slot-unavailable"
      ? BOOK_EVENT_MESSAGES.timeGone
      : holdRefusalMessage(result);
  const status = result.reason === "too-many-holds" ? 429 : 409;
  const headers = new Headers(NO_STORE);
  if (result.reason === "too-many-holds")
    headers.set("Retry-After", String(result.retryAfterSeconds));
  const elsewhere =
    result.reason === "paying-elsewhere"
      ? { reference: result.reference, checking: result.checking }
      : undefined;
  return data<ActionData>(
    { fieldErrors: { slotTime: message }, values, elsewhere },
    { status, headers },
  );
}

export default function BookEvent({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.invalid) {
    return (
      <section className="section">
        <div className="page-width narrow">
          <h1>Book an event</h1>
          <p className="warning" role="alert">
            {BOOK_EVENT_MESSAGES.slotsFailed}
          </p>
          <Link className="button" to="/book-event-main">
            Find an event
          </Link>
        </div>
      </section>
    );
  }
  const { event, eligibility, choices, current, offer, refund } = loaderData;
  const errors = actionData?.fieldErrors ?? {};
  const ageRefusal =
    eligibility.problems.find(
      (problem): problem is AgeRefusal => problem === "too-young" || problem === "too-old",
    ) ?? null;

  return (
    <section className="section">
      <div className="page-width">
        <BackLink to={`/event/${event.id}`}>Back to the event</BackLink>
        <div className="booking-layout">
          <div>
            <p className="eyebrow">Booking Information</p>
            <h1>{event.event_name}</h1>
            <dl className="event-details">
              <dt>Date</dt>
              <dd>{formatLongDate(event.event_date)}</dd>
              <dt>Place</dt>
              <dd>{[event.address_line_1, event.city, event.postcode].join(", ")}</dd>
            </dl>
            <ErrorSummary errors={errors} fieldOrder={["nhsNumber", "slotTime"]} />
            {actionData?.elsewhere && (
              <p>
                {actionData.elsewhere.checking ? (
                  <Link to={`/my-bookings/${actionData.elsewhere.reference}`}>
                    See booking {actionData.elsewhere.reference}
                  </Link>
                ) : (
                  <Link to={bookingPaths.checkout(actionData.elsewhere.reference)}>
                    Go to booking {actionData.elsewhere.reference} to finish paying
                  </Link>
                )}
              </p>
            )}

            {current?.status === "confirmed" ? (
              <div className="success-panel" role="status">
                <p>
                  You are booked for {current.slotTime} at this event (booking reference{" "}
                  {current.reference}).
                </p>
                <Link to={`/booking-success?booking=${current.reference}`}>See your booking</Link>
              </div>
            ) : ageRefusal ? (
              // Said to a man who has an account already: why, where to read, whom to ask.
              <div className="warning" role="alert">
                <h2 className="status">
                  <WarningIcon /> {AGE_MESSAGES.errorTitle}
                </h2>
                <p>{AGE_ON_THE_DAY_MESSAGES[ageRefusal]}</p>
                {ageRefusal === "too-old" && <OverEightyPointer />}
                <p>
                  If you have any questions, e-mail{" "}
                  <a href={`mailto:${organisation.emails.bookings}`}>
                    {organisation.emails.bookings}
                  </a>
                  . <BookingHelpline lead="Or" />
                </p>
              </div>
            ) : eligibility.problems.includes("no-date-of-birth") ? (
              <div className="warning" role="alert">
                <p>{ELIGIBILITY_MESSAGES["no-date-of-birth"]}</p>
                <Link
                  className="button"
                  to={`/portal?edit&redirectTo=${encodeURIComponent(bookingPaths.chooseTime(event.id))}`}
                >
                  Add your date of birth
                </Link>
              </div>
            ) : eligibility.problems.includes("nhs-number-needed") ? (
              <NhsNumberForm error={errors.nhsNumber} value={actionData?.values?.nhsNumber} />
            ) : (
              <ChooseTime
                choices={choices}
                error={errors.slotTime}
                selected={actionData?.values?.slotTime ?? current?.slotTime}
                holding={current}
                offer={offer}
                window={event.booking_status}
                paid={isPaidEvent(event)}
                refund={refund}
                eventId={event.id}
              />
            )}
          </div>
          {/* No order beside a refusal: nothing is being ordered. */}
          {ageRefusal === null && (
            <aside>
              <OrderSummary
                eventName={event.event_name}
                productName={event.product_name}
                description={event.event_description}
                price={event.price}
                paymentRequired={event.payment_required}
              />
            </aside>
          )}
        </div>
      </div>
    </section>
  );
}

function ChooseTime({
  choices,
  error,
  selected,
  holding,
  offer,
  window,
  paid,
  refund,
  eventId,
}: {
  choices: { time: string; state: "available" | "full" | "passed" }[];
  error?: string;
  selected?: string;
  holding: {
    reference: string;
    status: string;
    slotTime: string;
    holdExpiresAt: Date | string | null;
  } | null;
  /** a place the waiting list holds for them: its time shows as taken here, as for everyone */
  offer: { entryId: string; slotTime: string; expiresAt: Date | string } | null;
  /** whether the event is taking bookings, and if not, why not */
  window: BookingWindow;
  /** Charges are spoken of only where there is a price. */
  paid: boolean;
  /** this event's own refund, with its date (paid events) */
  refund: TermsBeforeBooking | null;
  eventId: string;
}) {
  const navigation = useNavigation();
  const offered = offer && !holding && (
    <div className="inset" role="status">
      <OfferedPlace offer={offer} />
    </div>
  );
  const allTaken = (
    <p className="inset">
      Every time at this event is taken.{" "}
      <Link to={`/event/${eventId}#waiting-list`}>Join the waiting list</Link> and we will e-mail
      you if a place comes up.
    </p>
  );
  // Consented, on the way to paying: a payment may be under way, so this time is kept until he
  // pays or we stop holding it (hold.server.ts refuses another meanwhile).
  if (holding?.status === "awaiting_payment")
    return (
      <div className="inset" role="status">
        <p>
          You have started booking the {holding.slotTime} appointment.{" "}
          <Link to={bookingPaths.checkout(holding.reference)}>Carry on to payment</Link>.
        </p>
        {holding.holdExpiresAt && (
          <p>
            To choose another time instead, leave this one: once we stop holding it, at{" "}
            {formatLondonTime(holding.holdExpiresAt)}, you can choose again here.
          </p>
        )}
      </div>
    );
  if (choices.length === 0)
    return holding ? (
      <div className="inset" role="status">
        <p>
          We are already holding {holding.slotTime} for you.{" "}
          <Link to={bookingPaths.consent(holding.reference)}>Carry on with this time</Link>.
        </p>
      </div>
    ) : (
      offered ||
        (window === "full" ? (
          allTaken
        ) : window === "closed" || window === "passed" ? (
          <p className="inset">
            {BOOK_EVENT_MESSAGES.closed} <Link to="/book-event-main">Find another event</Link>.
          </p>
        ) : (
          <p className="inset">{BOOK_EVENT_MESSAGES.noSlots}</p>
        ))
    );
  const noneFree = !holding && !offer && choices.every((choice) => choice.state !== "available");
  return (
    <>
      {offered}
      {holding && (
        <div className="inset" role="status">
          <p>
            We are already holding {holding.slotTime} for you.{" "}
            <Link to={bookingPaths.consent(holding.reference)}>Carry on with this time</Link>, or
            choose another below.
          </p>
        </div>
      )}
      {noneFree && allTaken}
      <Form method="post" noValidate className="form">
        <input type="hidden" name="intent" value="hold" />
        <SlotPicker choices={choices} selected={selected} error={error} />
        {paid && (
          <>
            <h2 className="form-section">Cancellation Policy</h2>
            {refund && <RefundForThisEvent refund={refund} />}
            {CANCELLATION_POLICY.map((sentence) => (
              <p key={sentence}>{sentence}</p>
            ))}
          </>
        )}
        <SubmitButton busy={navigation.state !== "idle"} busyLabel="Processing...">
          Proceed to Consent Form
        </SubmitButton>
      </Form>
    </>
  );
}

/** The laboratory needs an NHS number: asked for here, checked, and saved to the profile. */
function NhsNumberForm({ error, value }: { error?: string; value?: string }) {
  const navigation = useNavigation();
  return (
    <div className="warning">
      <h2 className="status">
        <WarningIcon /> NHS number needed
      </h2>
      <p>
        Samples from this event are tested by the ESNEFT hospital laboratory, which rejects a sample
        without a correct NHS number. Please add yours to go on.
      </p>
      <Form method="post" noValidate className="form">
        <input type="hidden" name="intent" value="nhs-number" />
        <TextField
          name="nhsNumber"
          label="NHS number"
          hint="10 digits, on any letter from the NHS, a prescription or the NHS App."
          inputMode="numeric"
          autoComplete="off"
          className="input--width-20"
          defaultValue={value}
          error={error}
        />
        <SubmitButton busy={navigation.state !== "idle"} busyLabel="Saving...">
          Save and continue
        </SubmitButton>
      </Form>
    </div>
  );
}
