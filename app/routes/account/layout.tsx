import { Outlet, data } from "react-router";
import type { Route } from "./+types/layout";
import { PortalPanel } from "#app/components/portal-panel";
import { db } from "#app/db/client.server";
import { findProfileForUser } from "#app/services/profiles.server";
import { requireUser } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const headers = pipeHeaders;

/** The account area: someone signed in, and the portal's side panel around every page. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const profile = await findProfileForUser(db(), user.id);
  return data(
    {
      name: profile ? `${profile.firstName} ${profile.lastName}` : user.name,
      reference: profile?.reference ?? null,
    },
    { headers: NO_STORE },
  );
}

export default function AccountLayout({ loaderData }: Route.ComponentProps) {
  return (
    <section className="section">
      <div className="page-width portal">
        <PortalPanel name={loaderData.name} reference={loaderData.reference} />
        <div>
          <Outlet />
        </div>
      </div>
    </section>
  );
}
