import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/waiting-list-offer";
import { BackLink } from "#app/components/back-link";
import { SubmitButton } from "#app/components/form";
import { WarningIcon } from "#app/components/icons";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { bookingPaths } from "#app/domain/booking-paths";
import { formatLondonDateTime, formatLongDate } from "#app/domain/date-labels";
import { formatPounds } from "#app/domain/pricing";
import { refundBeforeChoosing } from "#app/domain/terms-wording";
import { config } from "#app/config.server";
import { RefundForThisEvent } from "#app/components/refund-for-this-event";
import { holdRefusalMessage } from "#app/services/booking/hold.server";
import { takeOfferedPlace } from "#app/services/booking/offer.server";
import { requireUser } from "#app/services/guards.server";
import { leaveWaitlist, offerFor } from "#app/services/waitlist.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("A place held for you", "A place has come up from the waiting list.");

export const headers = pipeHeaders;

export const OFFER_MESSAGES = {
  declined: "You have turned this place down, so it can go to someone else.",
  ended:
    "This place is no longer held for you. It was not taken in time, or it has been turned down or taken already.",
} as const;

/**
 * The page the waiting list's offer e-mail links to (`/waiting-list/{entry}`): only for the
 * signed-in person offered the place (anyone else gets a 404; the booking layout asks a
 * signed-out visitor to sign in and brings them back). Taking it holds the place as any booking
 * does and goes on to the consent form.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const offer = await offerFor(db(), { entryId: params.entryId, userId: user.id });
  if (!offer) throw data(null, { status: 404 });
  // What taking it leads to, said before he takes it: the price and its refund, and the time he
  // then has to finish, as the booking page says them.
  const refund = refundBeforeChoosing({
    eventDate: offer.eventDate,
    pricePence: offer.pricePence,
    now: new Date(),
  });
  return data({ offer, refund, holdMinutes: config().HOLD_MINUTES }, { headers: NO_STORE });
}

type ActionData = { error: string };

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  if (form.get("intent") === "decline") {
    await leaveWaitlist(db(), { entryId: params.entryId, userId: user.id });
    return redirect(`/waiting-list/${params.entryId}`);
  }
  const result = await takeOfferedPlace(db(), {
    entryId: params.entryId,
    userId: user.id,
    clientAddress: context.clientAddress,
  });
  if (result.ok) return redirect(bookingPaths.consent(result.booking.reference));
  if (result.reason === "offer-not-found" || result.reason === "event-not-found")
    throw data(null, { status: 404 });
  const error =
    result.reason === "offer-ended" || result.reason === "slot-unavailable"
      ? OFFER_MESSAGES.ended
      : holdRefusalMessage(result);
  const headers = new Headers(NO_STORE);
  if (result.reason === "too-many-holds")
    headers.set("Retry-After", String(result.retryAfterSeconds));
  return data<ActionData>(
    { error },
    { status: result.reason === "too-many-holds" ? 429 : 409, headers },
  );
}

export default function WaitingListOffer({ loaderData, actionData }: Route.ComponentProps) {
  const { offer, refund, holdMinutes } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const taken = offer.status === "accepted";
  return (
    <section className="section">
      <div className="page-width narrow">
        <BackLink to={`/event/${offer.eventId}`}>Back to the event</BackLink>
        <p className="eyebrow">Waiting list</p>
        <h1>{offer.live ? "A place is held for you" : "This offer has ended"}</h1>
        <dl className="event-details">
          <dt>Event</dt>
          <dd>{offer.eventName}</dd>
          <dt>Date</dt>
          <dd>{formatLongDate(offer.eventDate)}</dd>
          <dt>Time</dt>
          <dd>{offer.slotTime}</dd>
          <dt>Place</dt>
          <dd>{offer.address}</dd>
          <dt>Price</dt>
          <dd>{offer.pricePence > 0 ? formatPounds(offer.pricePence) : "Free"}</dd>
        </dl>
        {actionData?.error && (
          <p className="warning" role="alert">
            <WarningIcon /> {actionData.error}
          </p>
        )}
        {offer.live ? (
          <>
            <p>
              We are holding this place for you until{" "}
              <strong>{formatLondonDateTime(offer.expiresAt, " at ")}</strong>. Take it now, then
              fill in the consent form{offer.pricePence > 0 ? " and pay" : ""} to finish booking:
              once you take it, you have {holdMinutes} minutes for that, and can ask for more time
              on the form.
            </p>
            {refund && <RefundForThisEvent refund={refund} />}
            <Form method="post" className="form">
              <input type="hidden" name="intent" value="take" />
              <SubmitButton busy={busy} busyLabel="Processing...">
                Take this place
              </SubmitButton>
            </Form>
            <Form method="post" className="form">
              <input type="hidden" name="intent" value="decline" />
              <p>If you no longer want it, let it go to the next person on the list.</p>
              <SubmitButton busy={busy} busyLabel="Processing..." className="button--secondary">
                No thanks, give it to someone else
              </SubmitButton>
            </Form>
          </>
        ) : taken ? (
          <p>
            You have taken this place already.{" "}
            <Link to={bookingPaths.chooseTime(offer.eventId)}>Carry on booking</Link>.
          </p>
        ) : (
          <>
            {!actionData?.error && (
              <p>{offer.status === "left" ? OFFER_MESSAGES.declined : OFFER_MESSAGES.ended}</p>
            )}
            <p>
              <Link to={`/event/${offer.eventId}`}>See the event</Link>, where you can join the
              waiting list again if it is still full.
            </p>
          </>
        )}
      </div>
    </section>
  );
}
