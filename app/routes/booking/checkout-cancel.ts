import { redirect } from "react-router";
import type { Route } from "./+types/checkout-cancel";
import { requireUser } from "#app/services/guards.server";
import { bookingPaths } from "#app/domain/booking-paths";

/** The payer cancelled on PayPal's page: back to checkout, where the time is still held. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  const reference = new URL(request.url).searchParams.get("booking") ?? "";
  if (!/^[A-Za-z0-9 -]{4,20}$/.test(reference)) throw redirect("/events");
  throw redirect(`${bookingPaths.checkout(reference)}&payment=cancelled`);
}
