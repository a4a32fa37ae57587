import type { Route } from "./+types/events";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import { parseEventQuery } from "#app/domain/event-query";
import { upcomingEventsJson } from "#app/services/events.server";
import { eventListCacheControl } from "#app/utils/headers";
import { jsonError, jsonEndpoint, methodNotAllowed } from "#app/utils/http.server";

/** GET /api/events?for=community,corporate&location=Ipswich&date=next-week */
export const loader = jsonEndpoint(async ({ request }: Route.LoaderArgs) => {
  const query = parseEventQuery(new URL(request.url).searchParams);
  if (!query.success) {
    return jsonError(400, query.error.issues[0]!.message, {
      fields: Object.fromEntries(
        query.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
      ),
    });
  }
  const body = await upcomingEventsJson(db(), {
    categories: query.data.for,
    location: query.data.location,
    date: query.data.date,
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(body.byteLength),
      "Cache-Control": eventListCacheControl(config().EVENT_LIST_CACHE_MS),
    },
  });
});

/** Reading only: any other method is 405 in JSON. */
export function action() {
  return methodNotAllowed("GET, HEAD");
}
