import type { Route } from "./+types/events.slots";
import { db } from "#app/db/client.server";
import { eventSlots, findEvent } from "#app/services/events.server";
import { jsonError, jsonEndpoint, methodNotAllowed } from "#app/utils/http.server";
import { NO_STORE } from "#app/utils/headers";

/** GET /api/events/{id}/slots: {"2026-12-01": {"availableTimeSlots": ["10:00", ...]}} */
export const loader = jsonEndpoint(async ({ params }: Route.LoaderArgs) => {
  const view = await findEvent(db(), params.eventId);
  if (!view) return jsonError(404, "Event not found");
  return Response.json(await eventSlots(db(), view), { headers: NO_STORE });
});

/** Reading only: any other method is 405 in JSON. */
export function action() {
  return methodNotAllowed("GET, HEAD");
}
