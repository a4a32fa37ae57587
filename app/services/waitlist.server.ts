import type { Db } from "#app/db/client.server";
import type { EventRow } from "./booking/places.server";

/**
 * The waiting list of a fully booked event. `offerFreedPlaces` is called, inside the transaction
 * that freed a place (a patient's cancellation or change) with the event's row locked, and by the
 * worker for places freed any other way (a hold running out, an offer lapsing).
 */
export async function offerFreedPlaces(_tx: Db, _event: EventRow, _now: Date): Promise<number> {
  // The waiting list is being built (issue 16); until then no offer is made.
  return 0;
}
