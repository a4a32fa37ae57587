import { data } from "react-router";
import type { Route } from "./+types/my-booking.calendar";
import { db } from "#app/db/client.server";
import { calendarFileName } from "#app/services/booking/calendar.server";
import { myBookingCalendar } from "#app/services/booking/my-bookings.server";
import { requireUser } from "#app/services/guards.server";

/** The calendar entry (.ics) of one of the signed-in person's confirmed bookings; 404 for any other. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const entry = await myBookingCalendar(db(), { userId: user.id, reference: params.reference });
  if (!entry) throw data(null, { status: 404 });
  return new Response(entry.ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8; method=PUBLISH",
      "Content-Disposition": `attachment; filename="${calendarFileName(entry.reference)}"`,
      "Cache-Control": "no-store",
    },
  });
}
