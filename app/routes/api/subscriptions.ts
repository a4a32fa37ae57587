import type { Route } from "./+types/subscriptions";
import { db } from "#app/db/client.server";
import { parseForm } from "#app/domain/forms";
import {
  NEWSLETTER_MESSAGES,
  newsletterFormMessage,
  newsletterSchema,
} from "#app/domain/newsletter";
import { requestNewsletterSubscription } from "#app/services/subscriptions.server";
import { jsonError, methodNotAllowed, readJsonBody, jsonEndpoint } from "#app/utils/http.server";

/**
 * POST /api/subscriptions {name, email, hear_about_event}: e-mails the address a link to confirm
 * (double opt-in). The answer is the same whatever the address's state.
 */
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
  await requestNewsletterSubscription(db(), parsed.data);
  // 202: nothing is subscribed until the owner confirms from their inbox.
  return Response.json(
    { status: "success", message: NEWSLETTER_MESSAGES.success },
    { status: 202 },
  );
});

export function loader() {
  return methodNotAllowed("POST");
}
