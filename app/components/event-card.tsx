import { Link } from "react-router";
import { formatCardDate } from "#app/domain/date-labels";
import type { EventView } from "#app/services/events.server";
import { CalendarIcon, ClockIcon, FullIcon, LockIcon, PassedIcon, PinIcon } from "./icons";

/**
 * An event card: name, product, date, times and place, with one of three states. Only a
 * bookable card links to its event page; the others say why not, in words and with an icon.
 */
export function EventCard({ event, headingLevel = 3 }: { event: EventView; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const bookable = event.booking_status === "bookable";
  return (
    <article className="card event-card" aria-labelledby={`event-${event.id}-title`}>
      <Heading className="card__title" id={`event-${event.id}-title`}>
        {bookable ? <Link to={`/event/${event.id}`}>{event.event_name}</Link> : event.event_name}
      </Heading>
      <p className="event-card__product">{event.product_name}</p>
      <ul className="plain-list event-card__facts">
        <li>
          <CalendarIcon /> {formatCardDate(event.event_date)}
        </li>
        <li>
          <ClockIcon /> {event.start_time} to {event.end_time}
        </li>
        <li>
          <PinIcon /> {event.city}, {event.postcode}
        </li>
        {event.is_private && (
          <li>
            <LockIcon /> Private event: access code needed
          </li>
        )}
      </ul>
      <div className="card__actions">
        <EventStatusButton event={event} bookLabel="BOOK" />
      </div>
    </article>
  );
}

/** BOOK (a link to the event), or a disabled button saying Fully Booked or Event Passed. */
export function EventStatusButton({ event, bookLabel }: { event: EventView; bookLabel: string }) {
  if (event.booking_status === "bookable") {
    return (
      <Link className="button" to={`/event/${event.id}`}>
        {bookLabel}
        <span className="visually-hidden">: {event.event_name}</span>
      </Link>
    );
  }
  const passed = event.booking_status === "passed";
  return (
    <button type="button" className="button button--unavailable" disabled>
      {passed ? <PassedIcon /> : <FullIcon />}
      {passed ? "Event Passed" : "Fully Booked"}
      <span className="visually-hidden">: {event.event_name}</span>
    </button>
  );
}
