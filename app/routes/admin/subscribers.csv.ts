import type { Route } from "./+types/subscribers.csv";
import { db } from "#app/db/client.server";
import { staffRoute } from "#app/services/guards.server";
import { exportSubscribers } from "#app/services/subscriptions.server";

/** GET /admin/subscribers.csv: the current newsletter subscribers, as a download. */
export const loader = staffRoute("subscriber:export", async (args: Route.LoaderArgs, staff) => {
  const { csv, filename } = await exportSubscribers(db(), staff);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
