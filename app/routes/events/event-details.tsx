import { revalidateWhenAnswered } from "#app/utils/revalidate";
import { useState } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import { MAX_AGE, MIN_AGE } from "#app/domain/age";
import { BookingHelpline } from "#app/components/helpline";
import { Link } from "#app/components/link";
import type { Route } from "./+types/event-details";
import { AccessCodeDialog, AccessCodeField } from "#app/components/access-code-dialog";
import { BackLink } from "#app/components/back-link";
import {
  CORPORATE_ONLY_LABEL,
  EventStatusButton,
  UNAVAILABLE_LABELS,
} from "#app/components/event-card";
import { EventMap } from "#app/components/event-map";
import { BuildingIcon, LockIcon, WarningIcon } from "#app/components/icons";
import { AddressLines, MapLinkToPlace } from "#app/components/address-lines";
import { mapLink } from "#app/domain/map-view";
import { pageMeta } from "#app/components/meta";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import { isCorporateOnly } from "#app/domain/events";
import { needsNhsNumber } from "#app/domain/eligibility";
import { priceLabel } from "#app/domain/pricing";
import { formatLongDate } from "#app/domain/date-labels";
import {
  readBrowserUnlocks,
  eventPageFor,
  unlockPrivateEvent,
} from "#app/services/access-codes.server";
import { getSessionUser } from "#app/services/session.server";
import { pipeHeaders } from "#app/utils/headers";
import { WaitingList, type WaitlistActionData } from "#app/components/waiting-list";
import {
  joinWaitlist,
  leaveWaitlist,
  WAITLIST_MESSAGES,
  waitlistState,
} from "#app/services/waitlist.server";
import { readForm } from "#app/utils/http.server";
import { NEEDS_SCRIPTS } from "#app/utils/page-scripts";

/** Where BOOK EVENT leads: the booking page for this event, which asks a signed-out visitor to sign in first. */
export function bookingPath(eventId: string) {
  return `/book-event?event=${eventId}`;
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const userId = (await getSessionUser(request))?.id ?? null;
  const page = await eventPageFor(db(), params.eventId, {
    userId,
    browserUnlocks: await readBrowserUnlocks(request),
  });
  if (!page) throw data(null, { status: 404 });
  const waitlist = await waitlistState(db(), { eventId: page.event.id, userId });
  // "You have joined/left": only when it is true of him now (the address may be old or shared).
  const answered = new URL(request.url).searchParams.get("waitlist");
  const waitlistNotice =
    answered === "joined" && waitlist?.mine?.status === "waiting"
      ? ("joined" as const)
      : answered === "left" && userId !== null && !waitlist?.mine
        ? ("left" as const)
        : null;
  return {
    ...page,
    waitlist,
    waitlistNotice,
    signedIn: userId !== null,
    offerHours: config().WAITLIST_OFFER_HOURS,
    tileUrl: config().MAP_TILE_URL,
  };
}

export const headers = pipeHeaders;
// The map and the access-code dialog need scripts; the page works without them too.
export const handle = NEEDS_SCRIPTS;

export const meta = ({ loaderData }: Route.MetaArgs) =>
  loaderData
    ? pageMeta(
        loaderData.event.event_name,
        `${loaderData.event.product_name} on ${formatLongDate(loaderData.event.event_date)} in ${loaderData.event.city}.`,
      )
    : [];

export type AccessCodeActionData = { accessError?: string };

/**
 * The event's waiting list; after joining or leaving it, what was done, which the page confirms in
 * a box that takes focus. That has no "#waiting-list": a browser does not autofocus a page
 * opened at a fragment, and the focus brings the box into view.
 */
const waitingListSection = (eventId: string, done?: "joined" | "left") =>
  done ? `/event/${eventId}?waitlist=${done}` : `/event/${eventId}#waiting-list`;

/** Refused for his age (his date of birth changed since the page was read): read it again. */
export const shouldRevalidate = revalidateWhenAnswered("ageRuledOut");

export async function action({ params, request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "join-waitlist" || intent === "leave-waitlist") {
    const eventId = params.eventId ?? "";
    const user = await getSessionUser(request);
    // Signed out (a session that ended while the page was open): sign in, then back here.
    if (!user) throw redirect(`/login?redirectTo=${encodeURIComponent(`/event/${eventId}`)}`);
    if (intent === "leave-waitlist") {
      await leaveWaitlist(db(), { eventId, userId: user.id });
      return redirect(waitingListSection(eventId, "left"));
    }
    const joined = await joinWaitlist(db(), { eventId, userId: user.id });
    if (joined.ok) return redirect(waitingListSection(eventId, "joined"));
    if (joined.reason === "event-not-found") throw data(null, { status: 404 });
    return data<WaitlistActionData>(
      {
        waitlistError: WAITLIST_MESSAGES[joined.reason],
        overEighty: joined.reason === "too-old",
        ageRuledOut: joined.reason === "too-young" || joined.reason === "too-old",
      },
      { status: 409 },
    );
  }
  if (intent !== "access-code") throw data(null, { status: 400 });
  const user = await getSessionUser(request);
  const result = await unlockPrivateEvent(db(), request, {
    eventId: params.eventId,
    code: String(form.get("access_code") ?? ""),
    clientAddress: context.clientAddress,
    userId: user?.id,
  });
  if (result.status === 404) throw data(null, { status: 404 });
  if (result.status !== 200) {
    return data<AccessCodeActionData>(
      { accessError: result.error },
      {
        status: result.status,
        headers:
          result.status === 429 ? { "Retry-After": String(result.retryAfterSeconds) } : undefined,
      },
    );
  }
  // Signed in: straight to booking (or, for a full event, its waiting list). Signed out: sign in
  // first, then back there.
  const eventId = params.eventId!;
  const there =
    form.get("then") === "waiting-list" ? waitingListSection(eventId) : bookingPath(eventId);
  const next = user ? there : `/login?redirectTo=${encodeURIComponent(there)}`;
  return redirect(next, { headers: { "Set-Cookie": result.setCookie } });
}

export default function EventPage({ loaderData, actionData }: Route.ComponentProps) {
  const { event, unlocked, tileUrl, waitlist, signedIn, offerHours } = loaderData;
  const [dialogOpen, setDialogOpen] = useState(false);
  const address = [
    event.address_line_1,
    event.address_line_2,
    event.city,
    event.postcode,
    event.country,
  ].filter((line): line is string => Boolean(line));
  const bookable = event.booking_status === "bookable";
  const needsCode = event.is_private && !unlocked;
  const accessError =
    actionData && "accessError" in actionData ? actionData.accessError : undefined;
  const corporateOnly = isCorporateOnly(event.exclusive_for);
  const hasMap = event.latitude !== null && event.longitude !== null;

  return (
    <article className="section">
      <div className="page-width">
        <BackLink to="/book-event-main">Back to all events</BackLink>
        <div className="event-page">
          <div>
            <p className="eyebrow">{event.product_name}</p>
            <h1>{event.event_name}</h1>
            {event.event_description && <p className="lede">{event.event_description}</p>}
            <dl className="event-details">
              <dt>Price</dt>
              <dd>{priceLabel(event)}</dd>
              <dt>Date</dt>
              <dd>{formatLongDate(event.event_date)}</dd>
              <dt>Time</dt>
              <dd>
                {event.start_time} to {event.end_time}
              </dd>
              <dt>Event</dt>
              <dd className="event-details__labels">
                {event.is_private && (
                  <span className="status">
                    <LockIcon /> Private Event
                  </span>
                )}
                {corporateOnly && (
                  <span className="status">
                    <BuildingIcon /> {CORPORATE_ONLY_LABEL}
                  </span>
                )}
                {!event.is_private && !corporateOnly && "Public Event"}
              </dd>
              <dt>Who can book</dt>
              <dd>
                People aged {MIN_AGE} to {MAX_AGE} on the day of the event
              </dd>
              <dt>Spaces</dt>
              <dd>
                {event.spaces_left > 0
                  ? `${event.spaces_left} ${event.spaces_left === 1 ? "space" : "spaces"} available`
                  : UNAVAILABLE_LABELS.full}
              </dd>
              {event.contact_email && (
                <>
                  <dt>Contact</dt>
                  <dd>
                    <a href={`mailto:${event.contact_email}`}>{event.contact_email}</a>
                  </dd>
                </>
              )}
              <dt>Address</dt>
              <dd>
                <AddressLines lines={address} />
                <MapLinkToPlace
                  href={mapLink({
                    latitude: event.latitude,
                    longitude: event.longitude,
                    address: address.join(", "),
                  })}
                />
              </dd>
            </dl>

            {needsNhsNumber(event.lab_name) && (
              <div className="warning" role="note">
                <p className="status">
                  <WarningIcon /> NHS number needed
                </p>
                <p>
                  Samples from this event are tested by the ESNEFT hospital laboratory. You must
                  give your NHS number when you register, and it must be correct (10 digits), or the
                  laboratory will reject your sample.
                </p>
              </div>
            )}

            <div className="button-group">
              {!bookable ? (
                <EventStatusButton event={event} bookLabel="BOOK EVENT" />
              ) : needsCode ? (
                <Link
                  className="button"
                  to="?access-code#access-code"
                  preventScrollReset
                  onClick={(click) => {
                    click.preventDefault();
                    setDialogOpen(true);
                  }}
                >
                  BOOK EVENT
                </Link>
              ) : (
                <Link className="button" to={bookingPath(event.id)}>
                  BOOK EVENT
                </Link>
              )}
            </div>
            {waitlist &&
              !needsCode &&
              (waitlist.open ||
                waitlist.mine ||
                (event.booking_status === "full" && !waitlist.hasPlace)) && (
                <WaitingList
                  eventId={event.id}
                  state={waitlist}
                  signedIn={signedIn}
                  offerHours={offerHours}
                  notice={loaderData.waitlistNotice}
                  error={
                    actionData && "waitlistError" in actionData
                      ? actionData.waitlistError
                      : undefined
                  }
                  overEighty={actionData && "overEighty" in actionData && actionData.overEighty}
                />
              )}
            {event.booking_status === "closed" && (
              <p>
                Booking for a public event closes 24 hours before it ends. Please choose another
                event. <BookingHelpline />
              </p>
            )}
            {bookable && needsCode && (
              <>
                <AccessCodeDialog
                  eventName={event.event_name}
                  action={`/event/${event.id}`}
                  open={dialogOpen}
                  onClose={() => setDialogOpen(false)}
                />
                <AccessCodeForm eventId={event.id} error={accessError} purpose="book" />
              </>
            )}
            {needsCode && event.booking_status === "full" && (
              <AccessCodeForm eventId={event.id} error={accessError} purpose="waiting-list" />
            )}
          </div>
          {hasMap && (
            <EventMap
              size="tall"
              markers={[
                {
                  id: event.id,
                  name: event.event_name,
                  latitude: event.latitude!,
                  longitude: event.longitude!,
                },
              ]}
              tileUrl={tileUrl}
              label={`Map showing ${event.event_name}`}
            />
          )}
        </div>
      </div>
    </article>
  );
}

/** Without JavaScript the dialog cannot open, so the same form sits on the page instead. */
/**
 * The access code as a plain form: to book, where scripts open it as a dialog instead (so it shows
 * only without them); and to reach the waiting list of a full private event, which has no BOOK
 * EVENT button to open the dialog, so it always shows.
 */
function AccessCodeForm({
  eventId,
  error,
  purpose,
}: {
  eventId: string;
  error?: string;
  purpose: "book" | "waiting-list";
}) {
  const navigation = useNavigation();
  return (
    <section
      id="access-code"
      className={purpose === "book" ? "no-js-only inset" : "inset"}
      aria-labelledby="access-code-title"
    >
      <h2 id="access-code-title">
        <LockIcon /> This is a private event
      </h2>
      <p>
        {purpose === "book"
          ? "Enter the access code you were given to book a place."
          : "Every place is taken. Enter the access code you were given to join its waiting list."}
      </p>
      <Form method="post" action={`/event/${eventId}#access-code`} noValidate>
        <input type="hidden" name="intent" value="access-code" />
        {purpose === "waiting-list" && <input type="hidden" name="then" value="waiting-list" />}
        <AccessCodeField idPrefix="page" error={error} />
        <button type="submit" className="button" disabled={navigation.state !== "idle"}>
          Submit
        </button>
      </Form>
    </section>
  );
}
