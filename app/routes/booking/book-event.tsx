import { Link, data, redirect } from "react-router";
import type { Route } from "./+types/book-event";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import { formatPounds } from "#app/domain/events";
import { formatLongDate } from "#app/domain/date-labels";
import { readUnlockedEvents } from "#app/services/access-codes.server";
import { eventSlots, findEvent } from "#app/services/events.server";
import { requireUser } from "#app/services/guards.server";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Book this event", "Choose a time at a screening event.");

export const headers = pipeHeaders;

/**
 * The booking page for one event (`/book-event?event={id}`), reached from BOOK EVENT. It needs a
 * signed-in patient, and for a private event a code entered on the event page. Choosing a time
 * online comes with the booking work; until then the page shows the times and how to book them.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  const eventId = new URL(request.url).searchParams.get("event") ?? undefined;
  const view = await findEvent(db(), eventId);
  if (!view) throw redirect("/events");
  if (view.is_private && !(await readUnlockedEvents(request)).includes(view.id)) {
    throw redirect(`/event/${view.id}?access-code#access-code`);
  }
  const slots = await eventSlots(db(), view);
  return data(
    { event: view, times: slots[view.event_date]?.availableTimeSlots ?? [] },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function BookEvent({ loaderData }: Route.ComponentProps) {
  const { event, times } = loaderData;
  const { booking } = organisation.phones;
  return (
    <section className="section">
      <div className="page-width narrow">
        <BackLink to={`/event/${event.id}`}>Back to the event</BackLink>
        <p className="eyebrow">Booking Information</p>
        <h1>{event.event_name}</h1>
        <dl className="event-details">
          <dt>Date</dt>
          <dd>{formatLongDate(event.event_date)}</dd>
          <dt>Place</dt>
          <dd>
            {event.address_line_1}, {event.city}, {event.postcode}
          </dd>
          <dt>Test</dt>
          <dd>
            {event.product_name}
            {event.price > 0 ? `, ${formatPounds(event.price)}` : ""}
          </dd>
        </dl>
        <h2>Available times</h2>
        {times.length === 0 ? (
          <p className="inset">No time slots found for this event.</p>
        ) : (
          <ul className="time-list" aria-label="Available times">
            {times.map((time) => (
              <li key={time}>{time}</li>
            ))}
          </ul>
        )}
        <div className="inset">
          <h2 className="card__title">How to book a time</h2>
          <p>
            Choosing your time online is coming soon. To book one of these times now, call our
            booking helpline on <a href={`tel:${booking.tel}`}>{booking.display}</a> or e-mail{" "}
            <a href={`mailto:${organisation.emails.bookings}`}>{organisation.emails.bookings}</a>{" "}
            with the event name and the time you would like.
          </p>
        </div>
        <p>
          <Link to="/book-event-main">See other events</Link>
        </p>
      </div>
    </section>
  );
}
