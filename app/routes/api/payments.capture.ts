import type { Route } from "./+types/payments.capture";
import { db } from "#app/db/client.server";
import { capturePayment } from "#app/services/booking/capture.server";
import { requireApiUser } from "#app/services/guards.server";
import { jsonEndpoint, jsonError, methodNotAllowed } from "#app/utils/http.server";

/**
 * POST /api/payments/orders/{id}/capture: takes the payment for an approved order of the
 * signed-in person, and says where the browser goes next. Capturing again is harmless.
 */
export const action = jsonEndpoint(async ({ request, params }: Route.ActionArgs) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request);
  const result = await capturePayment(db(), { userId: user.id, orderId: params.orderId });
  const checkout = (reference: string, notice: string) =>
    `/checkout?booking=${reference}&payment=${notice}`;
  switch (result.outcome) {
    case "confirmed":
    case "pending":
      return Response.json({
        outcome: result.outcome,
        next: `/booking-success?booking=${result.reference}`,
      });
    case "recoverable":
      return Response.json({ outcome: result.outcome, message: result.message }, { status: 402 });
    case "failed":
      return Response.json(
        { outcome: result.outcome, message: result.message, debug_id: result.debugId },
        { status: 402 },
      );
    case "no-response":
      return Response.json(
        {
          outcome: result.outcome,
          message: result.message,
          next: checkout(result.reference, "no-response"),
        },
        { status: 502 },
      );
    case "in-progress":
      return Response.json(
        {
          outcome: result.outcome,
          message: result.message,
          next: checkout(result.reference, "in-progress"),
        },
        { status: 409 },
      );
    case "expired":
      return Response.json(
        { outcome: result.outcome, next: checkout(result.reference, "expired") },
        { status: 409 },
      );
    case "not-found":
      return jsonError(404, "Order not found");
  }
});

export function loader() {
  return methodNotAllowed("POST");
}
