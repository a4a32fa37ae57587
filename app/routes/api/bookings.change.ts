import { z } from "zod";
import type { Route } from "./+types/bookings.change";
import { db } from "#app/db/client.server";
import { CHANGE_REFUSAL_MESSAGES } from "#app/domain/booking-change";
import { changeOwnBooking } from "#app/services/booking/change.server";
import { requireApiUser } from "#app/services/guards.server";
import { jsonEndpoint, jsonError, methodNotAllowed, parseJsonBody } from "#app/utils/http.server";

const bodySchema = z.object({
  eventId: z.string({ error: "eventId is required" }).min(1, "eventId is required").max(64),
  slotTime: z
    .string({ error: "slotTime is required" })
    .regex(/^\d{2}:\d{2}$/, "slotTime must be HH:mm"),
});

/**
 * POST /api/bookings/{reference}/change {eventId, slotTime}: moves one of the signed-in person's
 * confirmed bookings to another free time, with every rule of the change page (the service
 * checks them all).
 */
export const action = jsonEndpoint(async ({ request, params }: Route.ActionArgs) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const body = await parseJsonBody(request, bodySchema, 1024);
  if (!body.ok) return body.response;
  const result = await changeOwnBooking(db(), {
    userId: user.id,
    reference: params.reference,
    ...body.data,
  });
  if (result.ok) {
    const { reference, eventId, eventDate, slotTime } = result.booking;
    return Response.json({ reference, eventId, eventDate, slotTime });
  }
  if (result.reason === "not-found") return jsonError(404, "Booking not found");
  return jsonError(409, CHANGE_REFUSAL_MESSAGES[result.reason], { reason: result.reason });
});

export function loader() {
  return methodNotAllowed("POST");
}
