import { data, redirect } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/booking-success";
import { CheckIcon } from "#app/components/icons";
import { AddressLines } from "#app/components/address-lines";
import { pageMeta } from "#app/components/meta";
import { HOW_TO_CHANGE_BY_PHONE } from "#app/content/booking";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import { appointmentInstants } from "#app/domain/calendar";
import { formatLongDate } from "#app/domain/date-labels";
import { bookingTermsSentences } from "#app/domain/terms-wording";
import { bookingPageFor, bookingPaths } from "#app/domain/booking-paths";
import { findBookingForUser } from "#app/services/booking/view.server";
import { requireUser } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Booking confirmed", "Your screening appointment is booked.");

export const headers = pipeHeaders;

export const SUCCESS_MESSAGE = "Successfully confirmed your booking!";

/** The confirmation: reference, date, time, place and what to bring. It prints on one page. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const reference = new URL(request.url).searchParams.get("booking");
  if (!reference) throw redirect("/events");
  const booking = await findBookingForUser(db(), { userId: user.id, reference });
  if (!booking) throw data(null, { status: 404 });
  // Only a confirmed booking, or one kept while PayPal checks its payment, has this page; the
  // consent page explains the rest (a cancelled booking included).
  if (booking.status !== "confirmed" && bookingPageFor(booking, "consent") !== "success")
    throw redirect(bookingPaths.consent(booking.reference));
  // This booking's own dates for cancelling and changing (none while the payment is checked).
  const terms =
    booking.status === "confirmed"
      ? bookingTermsSentences({
          appointmentStart: appointmentInstants(booking.eventDate, booking.slotStart, 0).start,
          now: new Date(),
          paidPence: booking.paymentStatus === "paid" ? booking.pricePence : 0,
          sampleTakenOrResult: false,
        })
      : [];
  return data({ booking, terms }, { headers: NO_STORE });
}

export default function BookingSuccess({ loaderData }: Route.ComponentProps) {
  const { booking, terms } = loaderData;
  const manage = `/my-bookings/${booking.reference}`;
  const pending = booking.status !== "confirmed";
  return (
    <section className="section">
      <div className="page-width narrow booking-success">
        <div className="success-panel" role="status">
          <p className="status">
            <CheckIcon />{" "}
            {pending
              ? `Transaction PENDING: ${booking.reference}. Please wait while we process your payment.`
              : SUCCESS_MESSAGE}
          </p>
        </div>
        <h1>{pending ? "Your place is kept while your payment is checked" : "You are booked"}</h1>
        <dl className="event-details booking-details">
          <dt>Booking reference</dt>
          <dd className="reference">{booking.reference}</dd>
          <dt>Event</dt>
          <dd>{booking.eventName}</dd>
          <dt>Date</dt>
          <dd>{formatLongDate(booking.eventDate)}</dd>
          <dt>Time</dt>
          <dd>
            {booking.slotStart} to {booking.slotEnd}
          </dd>
          <dt>Place</dt>
          <dd>
            <AddressLines lines={booking.addressLines} />
          </dd>
        </dl>
        <h2>What to bring</h2>
        <ul>
          {booking.whatToBring.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        {booking.needsNhsNumber && (
          <p className="inset">
            The laboratory for this event needs your NHS number. We have it on your profile; please
            check it is right on your <Link to="/portal">profile page</Link>.
          </p>
        )}
        {pending ? (
          <p>
            We have not sent you a confirmation e-mail yet. PayPal is checking your payment, and we
            keep your place while it does. When PayPal accepts the payment, we will e-mail your
            confirmation with a calendar entry. If PayPal does not accept it, no money is taken and
            your place is let go. {HOW_TO_CHANGE_BY_PHONE}
          </p>
        ) : (
          <>
            <p>
              We have sent a confirmation e-mail with a calendar entry. If it has not arrived, check
              your inbox and your spam folder.
            </p>
            <h2>Changing or cancelling</h2>
            {terms.map((sentence) => (
              <p key={sentence}>{sentence}</p>
            ))}
            <p>
              To change the time or cancel, go to{" "}
              <Link to={manage}>your booking {booking.reference}</Link>. {HOW_TO_CHANGE_BY_PHONE}
            </p>
          </>
        )}
        <p>
          Questions? E-mail{" "}
          <a href={`mailto:${organisation.emails.bookings}`}>{organisation.emails.bookings}</a>.
        </p>
        <div className="inset no-print">
          <h2 className="card__title">Help more men get tested</h2>
          <p>Screening events run on donations. If you can, please help us reach more men.</p>
          <Link className="button button--donate" to={organisation.donatePath}>
            Donate
          </Link>
        </div>
        <div className="button-group no-print">
          <Link className="button button--secondary" to="/">
            Go to Home
          </Link>
          <Link className="button button--secondary" to="/my-bookings">
            My bookings
          </Link>
        </div>
      </div>
    </section>
  );
}
