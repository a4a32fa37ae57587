import { z } from "zod";
import type { Route } from "./+types/appointments";
import { db } from "#app/db/client.server";
import { singleLine } from "#app/domain/fields";
import { holdPlace, holdRefusalMessage } from "#app/services/booking/hold.server";
import { requireApiUser } from "#app/services/guards.server";
import { jsonEndpoint, jsonError, methodNotAllowed, parseJsonBody } from "#app/utils/http.server";
import { NO_STORE } from "#app/utils/headers";

const bodySchema = z.object({
  eventId: singleLine("eventId is required").max(64),
  slotTime: z.string({ error: "slotTime is required" }).regex(/^\d{2}:\d{2}$/, {
    error: "slotTime must be HH:mm",
  }),
});

/**
 * POST /api/appointments {eventId, slotTime}: holds that time for the signed-in person while they
 * consent and pay. 201 with the booking reference and when the hold ends; 403 for a private event
 * this person has not unlocked, or when they may not book it; 409 when the time (or the event) is
 * no longer available, or they are paying for another booking; 429 after too many new holds from
 * one address.
 */
export const action = jsonEndpoint(async ({ request, context }: Route.ActionArgs) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const body = await parseJsonBody(request, bodySchema, 1024);
  if (!body.ok) return body.response;
  const result = await holdPlace(db(), {
    userId: user.id,
    ...body.data,
    clientAddress: context.clientAddress,
  });
  if (result.ok) {
    return Response.json(
      {
        reference: result.booking.reference,
        slotTime: result.booking.slotTime,
        holdExpiresAt: result.booking.holdExpiresAt.toISOString(),
      },
      { status: 201, headers: NO_STORE },
    );
  }
  const message = holdRefusalMessage(result);
  if (result.reason === "event-not-found") return jsonError(404, message);
  if (result.reason === "locked") return jsonError(403, message);
  if (result.reason === "not-eligible")
    return jsonError(403, message, { problems: result.problems });
  if (result.reason === "too-many-holds")
    return jsonError(429, message, undefined, { "Retry-After": String(result.retryAfterSeconds) });
  return jsonError(409, message);
});

export function loader() {
  return methodNotAllowed("POST");
}
