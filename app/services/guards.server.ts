import { and, eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { db } from "#app/db/client.server";
import { userRole } from "#app/db/schema";
import { safeRedirect } from "#app/domain/redirect";
import type { StaffRole } from "#app/domain/roles";
import { getSessionUser, type SessionUser } from "./session.server";

/**
 * The guards every protected loader and action starts with. Each either returns who is signed in
 * or throws: a redirect to sign in, or a 403.
 */

/** Where to come back to after signing in; a very long address comes back to its path alone. */
function currentPath(request: Request) {
  const url = new URL(request.url);
  const path = `${url.pathname}${url.search}`;
  if (path.length <= 1024) return path;
  return url.pathname.length <= 1024 ? url.pathname : "/";
}

/** Someone signed in; anyone else goes to /login and comes back afterwards. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect(`/login?redirectTo=${encodeURIComponent(currentPath(request))}`);
  return user;
}

/** For /login and /signup: a signed-in visitor goes straight back to where they were heading. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getSessionUser(request)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/portal"));
  }
}

/** Someone signed in who holds `role`; a signed-in person without it gets 403. */
export async function requireRole(request: Request, role: StaffRole): Promise<SessionUser> {
  const user = await requireUser(request);
  const [held] = await db()
    .select({ role: userRole.role })
    .from(userRole)
    .where(and(eq(userRole.userId, user.id), eq(userRole.role, role)));
  if (!held) throw data({ error: "You do not have permission to see this page." }, { status: 403 });
  return user;
}

/** For JSON endpoints: someone signed in, or a 401 answer in JSON (no redirect to a page). */
export async function requireApiUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user)
    throw Response.json(
      { error: "Unauthorized" },
      { status: 401, headers: { "Cache-Control": "no-store" } },
    );
  return user;
}
