import { APIError } from "better-auth";
import type { Db } from "#app/db/client.server";
import { auth } from "./auth.server";
import { acceptSecondFactor, type SecondFactorOutcome } from "./session.server";
import { enrolmentPassCookie, replaceWithStandardKey } from "./two-factor.server";

/**
 * A staff member turning two-factor sign-in on (/admin/two-factor): the password first, which
 * makes a key and recovery codes, then the first code from the app, which turns it on.
 */

/** Confirms the password and begins the set-up. False for a wrong password. */
export async function startTwoFactorEnrolment(request: Request, password: string) {
  try {
    await auth().api.enableTwoFactor({ body: { password }, headers: request.headers });
    return true;
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    return false;
  }
}

/**
 * Right after the set-up page, which has just taken the new password (typed twice) and signed in
 * with it: that password is the confirmation D-59 asks for, so the set-up begins here with it,
 * for the new session only. Returns the enrolment pass cookie (the key shown to this browser for
 * 15 minutes), or null if it could not begin (then the two-factor page asks as usual).
 */
export async function startEnrolmentAfterSetup(
  db: Db,
  request: Request,
  signInHeaders: Headers,
  password: string,
): Promise<string | null> {
  const headers = new Headers(request.headers);
  const cookies = signInHeaders.getSetCookie().map((cookie) => cookie.split(";")[0]);
  if (cookies.length === 0) return null;
  headers.set("cookie", cookies.join("; "));
  const session = await auth().api.getSession({ headers });
  if (!session || session.user.twoFactorEnabled === true) return null;
  if (!(await startTwoFactorEnrolment(new Request(request.url, { headers }), password)))
    return null;
  await replaceWithStandardKey(db, session.user.id);
  return enrolmentPassCookie({
    id: session.user.id,
    sessionCreatedAt: new Date(session.session.createdAt),
  });
}

export type EnrolmentResult =
  { ok: false } | { ok: true; outcome: SecondFactorOutcome; headers: Headers };

/**
 * Checks the first code from the app, which turns two-factor sign-in on, then marks the new
 * session better-auth sets (the code is claimed, so it cannot also sign someone in elsewhere) and
 * audits the enrolment with it (staff.two-factor). `ok: false` for a wrong code.
 */
export async function finishTwoFactorEnrolment(
  request: Request,
  staff: { id: string; email: string; clientAddress: string },
  code: string,
): Promise<EnrolmentResult> {
  let headers: Headers;
  try {
    ({ headers } = await auth().api.verifyTOTP({
      body: { code },
      headers: request.headers,
      returnHeaders: true,
    }));
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    return { ok: false };
  }
  const outcome = await acceptSecondFactor(headers, {
    appCode: code,
    clientAddress: staff.clientAddress,
    enrolled: staff,
  });
  return { ok: true, outcome, headers };
}
