import { Link } from "#app/components/link";
import { formatCardDate } from "#app/domain/date-labels";
import { isCorporateOnly, type BookingWindow } from "#app/domain/events";
import { isPaidEvent, priceLabel } from "#app/domain/pricing";
import type { EventView } from "#app/services/events.server";
import {
  BuildingIcon,
  CalendarIcon,
  ClockIcon,
  ClosedIcon,
  FullIcon,
  LockIcon,
  PassedIcon,
  PinIcon,
  PriceIcon,
} from "./icons";

/** How an event reserved for one employer's staff (`exclusive_for` CORPORATE) is labelled. */
export const CORPORATE_ONLY_LABEL = "Corporate event: for the host employer's staff only";

/** The words on an event that cannot be booked, always shown with an icon. */
export const UNAVAILABLE_LABELS: Record<Exclude<BookingWindow, "bookable">, string> = {
  passed: "Event Passed",
  full: "Fully Booked",
  closed: "Booking closed",
};

/**
 * An event card: name, product, date, times, place and price, with one of four states. A
 * bookable card links to its event page once (its BOOK button, which carries the event's name);
 * a fully booked one once, to the event's waiting list; the others say why not, in words and with
 * an icon.
 */
export function EventCard({ event, headingLevel = 3 }: { event: EventView; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className="card event-card" aria-labelledby={`event-${event.id}-title`}>
      <Heading className="card__title" id={`event-${event.id}-title`}>
        {event.event_name}
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
        <li className="event-card__price">
          <PriceIcon /> <EventPrice event={event} />
        </li>
        <EventAudience event={event} as="li" />
      </ul>
      <div className="card__actions">
        <EventStatusButton event={event} bookLabel="BOOK" />
        {event.booking_status === "full" && <WaitingListLink event={event} />}
      </div>
    </article>
  );
}

/** "Price: £25.00", or "Free" when the visitor will not pay. */
export function EventPrice({ event }: { event: Pick<EventView, "price" | "payment_required"> }) {
  return isPaidEvent(event) ? <>Price: {priceLabel(event)}</> : <>{priceLabel(event)}</>;
}

/**
 * Who may book, when it is not everyone: a private event (access code) and an event reserved for
 * the host employer's staff. Each is a word and an icon.
 */
export function EventAudience({
  event,
  as: Item,
}: {
  event: Pick<EventView, "is_private" | "exclusive_for">;
  as: "li" | "p";
}) {
  return (
    <>
      {event.is_private && (
        <Item className="event-card__audience">
          <LockIcon /> Private event: access code needed
        </Item>
      )}
      {isCorporateOnly(event.exclusive_for) && (
        <Item className="event-card__audience">
          <BuildingIcon /> {CORPORATE_ONLY_LABEL}
        </Item>
      )}
    </>
  );
}

function UnavailableIcon({ state }: { state: Exclude<BookingWindow, "bookable"> }) {
  if (state === "passed") return <PassedIcon />;
  if (state === "closed") return <ClosedIcon />;
  return <FullIcon />;
}

/** A fully booked event's way in: its page's waiting list, where a signed-in person joins it. */
export function WaitingListLink({ event }: { event: EventView }) {
  return (
    <Link className="event-card__waitlist" to={`/event/${event.id}#waiting-list`}>
      Join the waiting list<span className="visually-hidden">: {event.event_name}</span>
    </Link>
  );
}

/** BOOK (a link to the event), or a disabled button saying Fully Booked, Booking closed or Event Passed. */
export function EventStatusButton({ event, bookLabel }: { event: EventView; bookLabel: string }) {
  const state = event.booking_status;
  if (state === "bookable") {
    return (
      <Link className="button" to={`/event/${event.id}`}>
        {bookLabel}
        <span className="visually-hidden">: {event.event_name}</span>
      </Link>
    );
  }
  return (
    <button type="button" className="button button--unavailable" disabled>
      <UnavailableIcon state={state} />
      {UNAVAILABLE_LABELS[state]}
      <span className="visually-hidden">: {event.event_name}</span>
    </button>
  );
}
