import { Outlet, data } from "react-router";
import type { Route } from "./+types/layout";
import { AdminNav } from "#app/components/admin/admin-nav";
import { sectionsFor } from "#app/domain/admin-nav";
import { ROLE_LABELS } from "#app/domain/roles";
import { requireStaff } from "#app/services/guards.server";
import adminStyles from "#app/styles/admin.css?url";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";

export const headers = pipeHeaders;
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

/**
 * The back office's frame. Every page under it checks its own role too: a layout's loader runs
 * beside its children's, not before them.
 */
export async function loader(args: Route.LoaderArgs) {
  const staff = await requireStaff(args);
  return data(
    {
      name: staff.name,
      roleLabels: staff.roles.map((role) => ROLE_LABELS[role]),
      sections: sectionsFor(staff).map(({ href, label }) => ({ href, label })),
    },
    { headers: NO_STORE },
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="admin page-width">
      <AdminNav {...loaderData} />
      <div className="admin__content">
        <Outlet />
      </div>
    </div>
  );
}
