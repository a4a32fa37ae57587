import { data } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/my-booking";
import {
  BookingActions,
  PaymentCheckingNote,
  BookingFacts,
  BookingTerms,
  LinkRefused,
  RefundNote,
} from "#app/components/my-booking-parts";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { openMyBooking, shownBooking } from "#app/services/booking/my-bookings.server";
import { requireUser } from "#app/services/guards.server";
import { NO_STORE, TOKEN_LINK_HEADERS, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Your booking", "One of your screening bookings.");

export const headers = pipeHeaders;

/**
 * One of the signed-in person's bookings; 404 for anyone else's. Opened from a signed e-mail link
 * (after signing in, if need be), a changed or expired link is refused (an expired one offers his booking).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const opened = await openMyBooking(db(), {
    userId: user.id,
    reference: params.reference,
    query: url.searchParams,
  });
  if (opened.kind === "not-found") throw data(null, { status: 404 });
  if (opened.kind === "link-refused")
    return data(
      { refused: opened.reason, reference: opened.reference },
      { status: opened.reason === "expired" ? 410 : 403, headers: TOKEN_LINK_HEADERS },
    );
  return data(
    {
      booking: shownBooking(opened.booking),
      // The cancel page's "?cancelled" says the booking was just cancelled: only if it truly is.
      cancelled: url.searchParams.has("cancelled") && opened.booking.state === "cancelled",
    },
    { headers: opened.fromLink ? TOKEN_LINK_HEADERS : NO_STORE },
  );
}

export default function MyBooking({ loaderData }: Route.ComponentProps) {
  if ("refused" in loaderData)
    return <LinkRefused reason={loaderData.refused} reference={loaderData.reference} />;
  const { booking, cancelled } = loaderData;
  return (
    <>
      <p>
        <Link to="/my-bookings">Back to My bookings</Link>
      </p>
      <h1>Your booking</h1>
      {cancelled && (
        <div className="success-panel" role="status">
          <p>Your booking is cancelled. We have sent you an e-mail to say so.</p>
        </div>
      )}
      <BookingFacts booking={booking} />
      <PaymentCheckingNote booking={booking} />
      <RefundNote refund={booking.refund} />
      <BookingTerms booking={booking} />
      {booking.state === "upcoming" && (
        <>
          <h2>What to bring</h2>
          <ul>
            {booking.whatToBring.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </>
      )}
      <BookingActions booking={booking} showDetailsLink={false} />
    </>
  );
}
