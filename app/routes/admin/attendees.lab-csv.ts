import type { Route } from "./+types/attendees.lab-csv";
import { db } from "#app/db/client.server";
import { LAB_CSV_MESSAGES } from "#app/domain/lab-csv";
import { exportLabCsv } from "#app/services/attendees.server";
import { staffRoute } from "#app/services/guards.server";

/**
 * The lab's CSV for one event, as a download: the confirmed bookings whose sample was taken.
 * The file name carries the event's date and name only. Each person in it is audited.
 */
export const loader = staffRoute("lab-csv:export", async (args: Route.LoaderArgs, staff) => {
  const exported = await exportLabCsv(db(), staff, { eventId: args.params.eventId });
  const plain = { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" };
  if (!exported) return new Response("Not found", { status: 404, headers: plain });
  if (exported === "no-lab")
    return new Response(LAB_CSV_MESSAGES.noLab, { status: 409, headers: plain });
  return new Response(exported.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exported.filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
