import { BookingHelpline } from "#app/components/helpline";
import { Link } from "#app/components/link";
import { AddressLines, MapLinkToPlace } from "./address-lines";
import { formatLongDate } from "#app/domain/date-labels";
import { paidLine, type MyBookingState, type RefundState } from "#app/domain/my-bookings";
import { formatPounds } from "#app/domain/pricing";

/** The parts of "My bookings" shown on the list and on one booking's page. */

export interface ShownBooking {
  reference: string;
  eventName: string;
  eventDate: string;
  slotStart: string;
  slotEnd: string;
  addressLines: string[];
  mapUrl: string;
  state: MyBookingState;
  whatToBring: readonly string[];
  canCancel: boolean;
  canChange: boolean;
  paidPence: number;
  refund: {
    state: RefundState;
    pence: number;
    by: string | null;
    /** the last day cancelling gave a full refund ("kept": it had passed) */
    lastFullRefundDay: string;
  } | null;
  /** this booking's own dates for changing and cancelling, in words (upcoming bookings) */
  terms: string[];
}

const STATE_LABELS: Record<ShownBooking["state"], string> = {
  upcoming: "Booked",
  past: "Past appointment",
  cancelled: "Cancelled",
  "payment-checking": "Payment being checked",
  "payment-checking-ended": "Payment being checked",
};

/**
 * Reference, date, time and place, with a link to the place on a map; the event's name too,
 * unless a heading above already gives it.
 */
export function BookingFacts({
  booking,
  withEvent = true,
}: {
  booking: ShownBooking;
  withEvent?: boolean;
}) {
  return (
    <dl className="event-details booking-details">
      <dt>Booking reference</dt>
      <dd className="reference">{booking.reference}</dd>
      <dt>Status</dt>
      <dd>{STATE_LABELS[booking.state]}</dd>
      {withEvent && (
        <>
          <dt>Event</dt>
          <dd>{booking.eventName}</dd>
        </>
      )}
      <dt>Date</dt>
      <dd>{formatLongDate(booking.eventDate)}</dd>
      <dt>Time</dt>
      <dd>
        {booking.slotStart} to {booking.slotEnd}
      </dd>
      {booking.paidPence > 0 && (
        <>
          <dt>Paid</dt>
          <dd>{paidLine(booking.paidPence, booking.refund?.state ?? null)}</dd>
        </>
      )}
      <dt>Place</dt>
      <dd>
        <AddressLines lines={booking.addressLines} />
        <MapLinkToPlace href={booking.mapUrl} />
      </dd>
    </dl>
  );
}

/**
 * A place kept while PayPal checks the payment: what happens next, and that he need do nothing.
 * Once the appointment is over there is no place left to keep, so it says only who to ask.
 */
export function PaymentCheckingNote({ booking }: { booking: ShownBooking }) {
  if (booking.state === "payment-checking-ended") {
    return (
      <p className="inset">
        PayPal is still checking the payment you made for this appointment. <BookingHelpline />
      </p>
    );
  }
  if (booking.state !== "payment-checking") return null;
  return (
    <p className="inset">
      PayPal is checking your payment. We are keeping your place meanwhile, and we will e-mail your
      confirmation as soon as PayPal accepts the payment. You do not need to do anything.
    </p>
  );
}

/** Where the money of a cancelled paid booking stands, calmly. */
export function RefundNote({ refund }: { refund: ShownBooking["refund"] }) {
  if (!refund) return null;
  const amount = formatPounds(refund.pence);
  const by = refund.by
    ? ` It will reach the card or PayPal account you paid with by ${formatLongDate(refund.by)}.`
    : "";
  switch (refund.state) {
    case "made":
      return (
        <p>
          We have given back the {amount} you paid.{by}
        </p>
      );
    case "owed":
      return (
        <p className="inset">
          Your refund of {amount} is on its way. We are still sending it to PayPal, and we keep
          trying by ourselves until it is done: you do not need to do anything.{by}
        </p>
      );
    case "stalled":
      return (
        <p className="inset">
          Your refund of {amount} has not gone through yet. Our team has been told and will sort it
          out. <BookingHelpline />
        </p>
      );
    case "kept":
      return (
        <p>
          The {amount} you paid was not refunded: the last day to cancel with a full refund was{" "}
          {formatLongDate(refund.lastFullRefundDay)}.
        </p>
      );
  }
}

/** This booking's own dates for changing and cancelling. */
export function BookingTerms({ booking }: { booking: ShownBooking }) {
  if (booking.state !== "upcoming" || booking.terms.length === 0) return null;
  return (
    <>
      <h2>Changing or cancelling</h2>
      {booking.terms.map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
    </>
  );
}

/** What he can do with the booking now: see it, add it to his calendar, change the time, cancel. */
export function BookingActions({
  booking,
  showDetailsLink,
}: {
  booking: ShownBooking;
  showDetailsLink: boolean;
}) {
  const base = `/my-bookings/${booking.reference}`;
  const forThis = <span className="visually-hidden"> for booking {booking.reference}</span>;
  return (
    <ul className="plain-list booking-actions">
      {showDetailsLink && (
        <li>
          <Link to={base}>See this booking{forThis}</Link>
        </li>
      )}
      {booking.state === "upcoming" && (
        <li>
          <a href={`${base}/calendar.ics`} download>
            Add it to the calendar on your phone or computer{forThis}
          </a>
        </li>
      )}
      {booking.canChange && (
        <li>
          <Link to={`${base}/change`}>Change time{forThis}</Link>
        </li>
      )}
      {booking.canCancel && (
        <li>
          <Link to={`${base}/cancel`}>Cancel booking{forThis}</Link>
        </li>
      )}
    </ul>
  );
}

export const LINK_REFUSED = {
  invalid:
    "This link does not work: it is not complete, or it has been changed. Your bookings are all on the My bookings page.",
  expired:
    "This link has expired: links in our e-mails stop working after the appointment they were sent for. As you are signed in, you can still see your booking.",
} as const;

/** A changed or expired e-mail link: said plainly, with the way to his booking or bookings. */
export function LinkRefused({
  reason,
  reference,
}: {
  reason: keyof typeof LINK_REFUSED;
  reference: string;
}) {
  return (
    <>
      <h1>{reason === "expired" ? "This link has expired" : "This link does not work"}</h1>
      <p className="warning" role="alert">
        {LINK_REFUSED[reason]}
      </p>
      <p>
        {reason === "expired" ? (
          <Link className="button" to={`/my-bookings/${reference}`}>
            See booking {reference}
          </Link>
        ) : (
          <Link className="button" to="/my-bookings">
            Go to My bookings
          </Link>
        )}
      </p>
    </>
  );
}
