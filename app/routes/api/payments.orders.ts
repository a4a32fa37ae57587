import { z } from "zod";
import type { Route } from "./+types/payments.orders";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import { singleLine } from "#app/domain/fields";
import { PAYMENT_MESSAGES, startPayment } from "#app/services/booking/checkout.server";
import { requireApiUser } from "#app/services/guards.server";
import { jsonEndpoint, jsonError, methodNotAllowed, parseJsonBody } from "#app/utils/http.server";

const bodySchema = z.object({ reference: singleLine("reference is required").max(32) });

/**
 * POST /api/payments/orders {reference}: creates the payment order for one of the signed-in
 * person's bookings, priced from the booking on the server (the browser sends no amount).
 */
export const action = jsonEndpoint(async ({ request }: Route.ActionArgs) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const body = await parseJsonBody(request, bodySchema, 1024);
  if (!body.ok) return body.response;
  const origin = config().publicBaseUrl;
  const result = await startPayment(db(), {
    userId: user.id,
    reference: body.data.reference,
    returnUrl: `${origin}/checkout/return`,
    cancelUrl: `${origin}/checkout/cancel?booking=${encodeURIComponent(body.data.reference)}`,
  });
  switch (result.outcome) {
    case "redirect":
      return Response.json({ id: result.orderId }, { status: 201 });
    case "not-found":
      return jsonError(404, "Booking not found");
    case "error":
      return jsonError(502, result.message);
    case "consent-required":
      return jsonError(409, "Please complete the consent form first");
    case "expired":
      return jsonError(409, "The time you chose is no longer held");
    case "in-progress":
      return jsonError(409, PAYMENT_MESSAGES.inProgress);
    case "confirmed":
    case "pending":
      return jsonError(409, "This booking needs no payment now");
  }
});

export function loader() {
  return methodNotAllowed("POST");
}
