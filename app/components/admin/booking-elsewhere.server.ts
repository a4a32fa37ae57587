import { data } from "react-router";
import { db } from "#app/db/client.server";
import type { StaffActor } from "#app/domain/permissions";
import { bookingElsewhere } from "#app/services/attendees.server";
import { NO_STORE } from "#app/utils/headers";

/**
 * The loader answer of a coordinator's cancel or move page when the booking is not at the page's
 * event: where it is now (for `BookingAtAnotherEvent`), or 404 when it is nowhere.
 */
export async function bookingAtAnotherEventOr404(
  staff: StaffActor,
  params: { eventId: string; bookingId: string },
) {
  const elsewhere = await bookingElsewhere(db(), staff, params);
  if (!elsewhere) throw data(null, { status: 404, headers: NO_STORE });
  return data({ elsewhere }, { headers: NO_STORE });
}
