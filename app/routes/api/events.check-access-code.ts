import { z } from "zod";
import type { Route } from "./+types/events.check-access-code";
import { db } from "#app/db/client.server";
import { singleLine } from "#app/domain/fields";
import { unlockPrivateEvent } from "#app/services/access-codes.server";
import { getSessionUser } from "#app/services/session.server";
import { jsonEndpoint, methodNotAllowed, parseJsonBody } from "#app/utils/http.server";

const bodySchema = z.object({
  access_code: singleLine("access_code is required").max(100, { error: "access_code is too long" }),
});

/** POST /api/events/{id}/check-access-code {"access_code": "..."} → {"status": "success"} */
export const action = jsonEndpoint(async ({ request, params, context }: Route.ActionArgs) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await parseJsonBody(request, bodySchema, 1024);
  if (!body.ok) return body.response;
  const result = await unlockPrivateEvent(db(), request, {
    eventId: params.eventId,
    code: body.data.access_code,
    clientAddress: context.clientAddress,
    // Signed in: the unlock is kept as this person's, which is what taking a place checks.
    userId: (await getSessionUser(request))?.id,
  });
  if (result.status === 200)
    return Response.json({ status: "success" }, { headers: { "Set-Cookie": result.setCookie } });
  return Response.json(
    { status: "error", error: result.error },
    {
      status: result.status,
      headers:
        result.status === 429 ? { "Retry-After": String(result.retryAfterSeconds) } : undefined,
    },
  );
});

export function loader() {
  return methodNotAllowed("POST");
}
