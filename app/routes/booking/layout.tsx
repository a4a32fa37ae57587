import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { requireUser } from "#app/services/session.server";

/** Booking needs someone signed in; each page's own loader checks again, since loaders run in parallel. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export const headers = () => ({ "Cache-Control": "no-store" });

export default function BookingLayout() {
  return <Outlet />;
}
