import { Link } from "#app/components/link";
import { formatLongDate } from "#app/domain/date-labels";
import type { BookingElsewhere } from "#app/services/attendees.server";

/**
 * A coordinator's cancel or move page for a booking that is now at another event (he moved it, or
 * another coordinator did, while the page was open): where it is, and the same page there.
 */
export function BookingAtAnotherEvent({
  title,
  action,
  bookingId,
  fromEventId,
  elsewhere: { reference, slotTime, event },
}: {
  title: string;
  action: "cancel" | "move";
  bookingId: string;
  fromEventId: string;
  elsewhere: BookingElsewhere;
}) {
  return (
    <>
      <h1>{title}</h1>
      <p className="notice-panel">
        Booking {reference} is no longer at this event: it is at {event.name},{" "}
        {formatLongDate(event.eventDate)}, at {slotTime}. Nothing has been changed here.
      </p>
      <p>
        <Link to={`/admin/events/${event.id}/attendees/${bookingId}/${action}`}>
          {action === "cancel" ? "Cancel it at that event" : "Move it from that event"}
        </Link>
      </p>
      <p>
        <Link to={`/admin/events/${fromEventId}/attendees`}>Back to this event's list</Link>
      </p>
    </>
  );
}
