import { data } from "react-router";
import type { Route } from "./+types/my-data.json";
import { db } from "#app/db/client.server";
import { londonDate } from "#app/domain/london-time";
import { requireUser } from "#app/services/guards.server";
import { collectMyData } from "#app/services/my-data.server";

/**
 * GET /my-data.json: the same as the My data page, as a file to keep (UK GDPR Articles 15 and 20).
 * Nothing about him in the address; never cached; audited by the service.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const now = new Date();
  const myData = await collectMyData(db(), { userId: user.id }, "json", now);
  if (!myData) throw data(null, { status: 404 });
  return new Response(JSON.stringify(myData, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="my-data-${londonDate(now)}.json"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
