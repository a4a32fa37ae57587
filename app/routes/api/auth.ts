import type { Route } from "./+types/auth";
import { safeRedirect } from "#app/domain/redirect";
import { EXPOSED_AUTH_ENDPOINTS, auth } from "#app/services/auth.server";
import { jsonError } from "#app/utils/http.server";

/**
 * The links in our e-mails (confirm your address, reset your password) are better-auth's own
 * endpoints. Only they are reachable; every other path of the library answers 404, so sign-up,
 * sign-in and profile changes happen only through the site's forms, with the site's rules.
 */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const exposed = EXPOSED_AUTH_ENDPOINTS.some(
    (endpoint) => endpoint.method === request.method && endpoint.path.test(url.pathname),
  );
  if (!exposed) return jsonError(404, "Not found");
  // Where the link sends people afterwards must be a path on this site.
  const callback = url.searchParams.get("callbackURL");
  if (callback !== null) url.searchParams.set("callbackURL", safeRedirect(callback, "/portal"));
  return auth().handler(new Request(url, { method: "GET", headers: request.headers }));
}

export function action() {
  return jsonError(404, "Not found");
}
