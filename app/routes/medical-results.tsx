import { data } from "react-router";
import type { Route } from "./+types/medical-results";
import { pageMeta } from "#app/components/meta";
import { PortalPanel } from "#app/components/portal-panel";
import { db } from "#app/db/client.server";
import { findProfileForUser } from "#app/services/profiles.server";
import { requireUser } from "#app/services/session.server";

export const meta = () => pageMeta("Medical results", "Your medical results and appointments.");
export const headers = () => ({ "Cache-Control": "no-store" });

/** Results and appointments arrive with the booking and results work; the page and its guard exist now. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const profile = await findProfileForUser(db(), user.id);
  return data(
    {
      name: profile ? `${profile.firstName} ${profile.lastName}` : user.name,
      reference: profile?.reference ?? null,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function MedicalResults({ loaderData }: Route.ComponentProps) {
  return (
    <section className="section">
      <div className="page-width portal">
        <PortalPanel name={loaderData.name} reference={loaderData.reference} />
        <div>
          <h1>All Results</h1>
          <p className="lede">Your medical results and appointments</p>
          <p className="inset">No medical results or any appointment found</p>
        </div>
      </div>
    </section>
  );
}
