import type { Route } from "./+types/subscriptions";
import { db } from "#app/db/client.server";
import { parseForm } from "#app/domain/forms";
import {
  NEWSLETTER_MESSAGES,
  newsletterFormMessage,
  newsletterSchema,
} from "#app/domain/newsletter";
import { subscribeToNewsletter } from "#app/services/subscriptions.server";
import { jsonError, methodNotAllowed, readJsonBody, jsonEndpoint } from "#app/utils/http.server";

/** POST /api/subscriptions {name, email, hear_about_event}: subscribing twice is not an error. */
export const action = jsonEndpoint(async ({ request }: Route.ActionArgs) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readJsonBody(request, 4 * 1024);
  if (!body.ok) return body.response;
  const raw =
    typeof body.value === "object" && body.value !== null
      ? (body.value as Record<string, unknown>)
      : {};
  const parsed = parseForm(newsletterSchema, raw);
  if (!parsed.ok)
    return jsonError(400, newsletterFormMessage(parsed.fieldErrors), {
      fields: parsed.fieldErrors,
    });
  await subscribeToNewsletter(db(), parsed.data);
  return Response.json(
    { status: "success", message: NEWSLETTER_MESSAGES.success },
    { status: 201 },
  );
});

export function loader() {
  return methodNotAllowed("POST");
}
