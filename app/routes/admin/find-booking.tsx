import { data, redirect } from "react-router";
import type { Route } from "./+types/find-booking";
import { FindBookingForm } from "#app/components/admin/find-booking-form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import { eventOfBookingReference } from "#app/services/attendees.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Find a booking", "Find a booking by its reference.");
export const headers = pipeHeaders;

export const FIND_BOOKING_MESSAGES = {
  missing: "Enter the booking reference, like MHAT-7KQ3-9XZ2",
  notAReference:
    "That is not a booking reference. It is MHAT and 8 letters and numbers, like MHAT-7KQ3-9XZ2.",
  notFound: (reference: string) =>
    `No booking with the reference ${reference} is on an event's list that you can open. Check it against his e-mail.`,
} as const;

/** To the attendee list of the booking's event, searched for it; else the form, saying why not. */
export const loader = staffRoute("attendee:read", async ({ request }: Route.LoaderArgs, staff) => {
  const asked = new URL(request.url).searchParams.get("reference");
  if (asked === null) return data({ typed: "", error: undefined }, { headers: NO_STORE });
  const typed = asked.trim().slice(0, 40);
  if (!typed)
    return data(
      { typed, error: FIND_BOOKING_MESSAGES.missing },
      { status: 400, headers: NO_STORE },
    );
  // Only a reference is said back: a link cannot put words of its own into the page.
  const reference = normaliseBookingReference(typed);
  if (!reference)
    return data(
      { typed, error: FIND_BOOKING_MESSAGES.notAReference },
      { status: 400, headers: NO_STORE },
    );
  const found = await eventOfBookingReference(db(), staff, reference);
  if (!found)
    return data(
      { typed, error: FIND_BOOKING_MESSAGES.notFound(reference) },
      { status: 404, headers: NO_STORE },
    );
  const search = new URLSearchParams({ q: found.reference });
  return redirect(`/admin/events/${found.eventId}/attendees?${search}`, { headers: NO_STORE });
});

export default function FindBooking({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1>Find a booking</h1>
      <FindBookingForm value={loaderData.typed} error={loaderData.error} />
    </>
  );
}
