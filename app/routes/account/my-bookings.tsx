import { data } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/my-bookings";
import {
  BookingActions,
  BookingFacts,
  PaymentCheckingNote,
  RefundNote,
} from "#app/components/my-booking-parts";
import { isComingUp } from "#app/domain/my-bookings";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { listMyBookings, shownBooking } from "#app/services/booking/my-bookings.server";
import { myWaitingLists } from "#app/services/waitlist.server";
import { OfferedPlace, ordinalPlace } from "#app/components/waiting-list";
import { formatLongDate } from "#app/domain/date-labels";
import { requireUser } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("My bookings", "Your screening bookings.");

export const headers = pipeHeaders;

/** The signed-in person's bookings: upcoming soonest first, then past and cancelled ones. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [bookings, waitingLists] = await Promise.all([
    listMyBookings(db(), user.id),
    myWaitingLists(db(), user.id),
  ]);
  return data({ bookings: bookings.map(shownBooking), waitingLists }, { headers: NO_STORE });
}

export default function MyBookings({ loaderData }: Route.ComponentProps) {
  const upcoming = loaderData.bookings.filter((booking) => isComingUp(booking.state));
  const history = loaderData.bookings.filter((booking) => !isComingUp(booking.state));
  return (
    <>
      <h1>My bookings</h1>
      {loaderData.bookings.length === 0 && loaderData.waitingLists.length === 0 && (
        <p className="inset">
          You have no bookings yet. <Link to="/book-event-main">Find a screening event</Link>.
        </p>
      )}
      {upcoming.length > 0 && (
        <section aria-labelledby="upcoming-title">
          <h2 id="upcoming-title">Coming up</h2>
          <ul className="result-list">
            {upcoming.map((booking) => (
              <li key={booking.reference} className="card result-item">
                <h3 className="card__title">{booking.eventName}</h3>
                <BookingFacts booking={booking} withEvent={false} />
                <PaymentCheckingNote booking={booking} />
                <h4>What to bring</h4>
                <ul>
                  {booking.whatToBring.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
                <BookingActions booking={booking} showDetailsLink />
              </li>
            ))}
          </ul>
        </section>
      )}
      {loaderData.waitingLists.length > 0 && (
        <section aria-labelledby="waiting-lists-title">
          <h2 id="waiting-lists-title">Waiting lists</h2>
          <ul className="result-list">
            {loaderData.waitingLists.map((list) => (
              <li key={list.eventId} className="card result-item">
                <h3 className="card__title">{list.eventName}</h3>
                <p>{formatLongDate(list.eventDate)}</p>
                {list.place.status === "offered" ? (
                  <OfferedPlace offer={list.place} />
                ) : (
                  <>
                    <p>
                      <strong>{ordinalPlace(list.place.position)}</strong> If a place comes up, we
                      will e-mail you.
                    </p>
                    <p>
                      <Link to={`/event/${list.eventId}#waiting-list`}>
                        See the event, or leave its waiting list
                      </Link>
                    </p>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {history.length > 0 && (
        <section aria-labelledby="history-title">
          <h2 id="history-title">Past and cancelled bookings</h2>
          <ul className="result-list">
            {history.map((booking) => (
              <li key={booking.reference} className="card result-item">
                <h3 className="card__title">{booking.eventName}</h3>
                <BookingFacts booking={booking} withEvent={false} />
                <PaymentCheckingNote booking={booking} />
                <RefundNote refund={booking.refund} />
                <BookingActions booking={booking} showDetailsLink />
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
