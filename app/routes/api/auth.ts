import type { Route } from "./+types/auth";
import { auth } from "#app/services/auth.server";

/** better-auth's own endpoints: e-mail verification links, reset links, sessions. */
export function loader({ request }: Route.LoaderArgs) {
  return auth().handler(request);
}

export function action({ request }: Route.ActionArgs) {
  return auth().handler(request);
}
