import { eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { db } from "#app/db/client.server";
import { user as userTable, userRole } from "#app/db/schema";
import { can, PermissionDenied, type Capability } from "#app/domain/permissions";
import { safeRedirect } from "#app/domain/redirect";
import { STAFF_SESSION_HOURS, type StaffRole } from "#app/domain/roles";
import { withErrorReference } from "./error-reference.server";
import { getSessionUser, signOut, type SessionUser } from "./session.server";
import { NO_STORE } from "#app/utils/headers";

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

/**
 * The sign-in page's address, to come back here afterwards. A form sent without a session (it ran
 * out while the page was open) was not saved: `unsaved` has the sign-in page say so, since coming
 * back shows the page as it was before, and a tap at the door would seem to have been recorded.
 */
function signInPath(request: Request, reason?: "expired") {
  let path = `/login?redirectTo=${encodeURIComponent(currentPath(request))}`;
  if (reason) path += `&${reason}`;
  if (request.method !== "GET" && request.method !== "HEAD") path += "&unsaved";
  return path;
}

/** Someone signed in; anyone else goes to /login and comes back afterwards. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect(signInPath(request));
  return user;
}

/** For /login and /signup: a signed-in visitor goes straight back to where they were heading. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getSessionUser(request)) {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/portal"));
  }
}

export const FORBIDDEN_MESSAGE = "You do not have permission to see this page.";

/** A staff member signed in with two factors; `clientAddress` is where the request came from, for the audit log. */
export interface StaffUser extends SessionUser {
  roles: StaffRole[];
  clientAddress: string;
}

export const TWO_FACTOR_ENROLMENT_PATH = "/admin/two-factor";

/**
 * For everything under /admin. In this order: anyone not signed in goes to /login; someone who
 * holds no staff role (a patient), or whose account is deactivated, gets 403; a staff session
 * older than STAFF_SESSION_HOURS, or one in which no code from the app was typed, is ended and sent
 * to sign in again; staff without two-factor sign-in go to enrolment; and when `capability` is
 * given, staff whose roles do not give it (`can`, app/domain/permissions.ts) get 403.
 */
export async function requireStaff(
  { request, context }: { request: Request; context: { clientAddress: string } },
  capability?: Capability,
  options: { allowWithoutTwoFactor?: boolean } = {},
): Promise<StaffUser> {
  const user = await requireUser(request);
  const rows = await db()
    .select({ role: userRole.role, deactivatedAt: userTable.deactivatedAt })
    .from(userTable)
    .innerJoin(userRole, eq(userRole.userId, userTable.id))
    .where(eq(userTable.id, user.id));
  const roles = rows.filter((row) => !row.deactivatedAt).map((row) => row.role);
  if (roles.length === 0) throw forbidden();

  const ageMs = Date.now() - user.sessionCreatedAt.getTime();
  if (ageMs > STAFF_SESSION_HOURS * 60 * 60_000) {
    const headers = await signOut(request);
    throw redirect(signInPath(request, "expired"), { headers });
  }
  if (user.twoFactorEnabled && !user.twoFactorVerified) {
    // A session made without the code (before enrolment, or by an e-mailed link): sign in again.
    const headers = await signOut(request);
    throw redirect(signInPath(request), { headers });
  }
  if (!user.twoFactorEnabled && !options.allowWithoutTwoFactor) {
    throw redirect(TWO_FACTOR_ENROLMENT_PATH);
  }
  if (capability !== undefined && !can({ roles }, capability)) throw forbidden();
  return { ...user, roles, clientAddress: context.clientAddress };
}

function forbidden() {
  return data({ error: FORBIDDEN_MESSAGE }, { status: 403 });
}

/**
 * A back-office loader or action: `requireStaff` with the page's capability, then `handler` with
 * the staff member. Services check their own capability as well (the same table); a refusal from
 * one (PermissionDenied) is answered with the same 403 as the guard's, never a 500. An unexpected
 * error is answered with a 500 that carries its log's id, which the error page shows.
 */
export function staffRoute<
  Args extends { request: Request; context: { clientAddress: string } },
  R,
>(
  capability: Capability,
  handler: (args: Args, staff: StaffUser) => Promise<R>,
): (args: Args) => Promise<R> {
  return async (args) => {
    const staff = await requireStaff(args, capability);
    try {
      return await handler(args, staff);
    } catch (error) {
      if (error instanceof PermissionDenied) throw forbidden();
      throw withErrorReference(error, args.request);
    }
  };
}

/** For JSON endpoints: someone signed in, or a 401 answer in JSON (no redirect to a page). */
export async function requireApiUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw Response.json({ error: "Unauthorized" }, { status: 401, headers: NO_STORE });
  return user;
}
