import { z } from "zod";
import type { Route } from "./+types/events.check-access-code";
import { db } from "#app/db/client.server";
import {
  ACCESS_CODE_MESSAGES,
  checkAccessCode,
  readUnlockedEvents,
  unlockEventCookieHeader,
} from "#app/services/access-codes.server";
import { findEvent } from "#app/services/events.server";
import { jsonError, methodNotAllowed, parseJsonBody } from "#app/utils/http.server";

const bodySchema = z.object({
  access_code: z
    .string({ error: "access_code is required" })
    .max(100, { error: "access_code is too long" }),
});

/** POST /api/events/{id}/check-access-code {"access_code": "..."} → {"status": "success"} */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await parseJsonBody(request, bodySchema, 1024);
  if (!body.ok) return body.response;
  const view = await findEvent(db(), params.eventId);
  if (!view) return jsonError(404, "Event not found");
  if (!view.is_private) return jsonError(400, "This event is public and needs no access code");

  const result = await checkAccessCode(db(), {
    eventId: view.id,
    code: body.data.access_code,
    clientAddress: context.clientAddress,
    alreadyUnlocked: (await readUnlockedEvents(request)).includes(view.id),
  });
  if (result.status === "rate-limited") {
    return Response.json(
      { status: "error", error: ACCESS_CODE_MESSAGES.tooMany },
      { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
    );
  }
  if (result.status === "invalid") {
    return Response.json({ status: "error", error: ACCESS_CODE_MESSAGES.invalid }, { status: 403 });
  }
  return Response.json(
    { status: "success" },
    { headers: { "Set-Cookie": await unlockEventCookieHeader(request, view.id) } },
  );
}

export function loader() {
  return methodNotAllowed("POST");
}
