import { Outlet, data, redirect } from "react-router";
import type { Route } from "./+types/layout";
import { isBookEventWithoutEvent, NO_EVENT_REDIRECT } from "#app/domain/booking-paths";
import { requireUser } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const headers = pipeHeaders;

/** Booking needs someone signed in; each page's own loader checks again, since loaders run in parallel. */
export async function loader({ request }: Route.LoaderArgs) {
  // Nothing to book: the spec sends anyone, signed in or not, to the events (no sign-in first).
  if (isBookEventWithoutEvent(new URL(request.url))) throw redirect(NO_EVENT_REDIRECT);
  await requireUser(request);
  return data(null, { headers: NO_STORE });
}

export default function BookingLayout() {
  return <Outlet />;
}
