import { APIError } from "better-auth";
import { auth } from "./auth.server";
import { acceptSecondFactor, type SecondFactorOutcome } from "./session.server";

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
