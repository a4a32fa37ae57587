import { Outlet, data } from "react-router";
import type { Route } from "./+types/layout";
import { requireUser } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const headers = pipeHeaders;

/** Booking needs someone signed in; each page's own loader checks again, since loaders run in parallel. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return data(null, { headers: NO_STORE });
}

export default function BookingLayout() {
  return <Outlet />;
}
