import { Link } from "react-router";
import { bookingPaths } from "#app/domain/booking-paths";
import { formatLondonTime } from "#app/domain/date-labels";

/** "We are holding 10:15 for you until 14:32.", on the consent and checkout steps. */
export function HoldNotice({ slot, until }: { slot: string; until: Date | string | null }) {
  if (!until) return null;
  return (
    <p className="inset" role="status">
      We are holding {slot} for you until {formatLondonTime(until)}.
    </p>
  );
}

/** The hold ran out and someone else has the time: say so, and offer to choose again. */
export function HoldEnded({ slot, eventId }: { slot: string; eventId: string }) {
  return (
    <div className="warning" role="alert">
      <p>
        We could not keep {slot} for you any longer, and it may have been taken. No money has been
        taken. Please choose a time again.
      </p>
      <Link className="button" to={bookingPaths.chooseTime(eventId)}>
        Choose another time
      </Link>
    </div>
  );
}
