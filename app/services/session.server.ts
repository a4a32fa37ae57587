import { APIError } from "better-auth";
import { db } from "#app/db/client.server";
import { auth } from "./auth.server";
import { logError, routeOf } from "./log.server";
import { hitRateLimit, peekRateLimit } from "./rate-limit.server";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

/** One session lookup per request: the root loader and a page's guard share it. */
const lookups = new WeakMap<Request, Promise<SessionUser | null>>();

export function getSessionUser(request: Request): Promise<SessionUser | null> {
  let lookup = lookups.get(request);
  if (!lookup) {
    lookup = lookUpSession(request);
    lookups.set(request, lookup);
  }
  return lookup;
}

async function lookUpSession(request: Request): Promise<SessionUser | null> {
  if (!request.headers.get("cookie")) return null;
  const result = await auth().api.getSession({ headers: request.headers });
  if (!result) return null;
  const { id, name, email, emailVerified } = result.user;
  return { id, name, email, emailVerified };
}

export const SIGN_IN_MESSAGES = {
  failed: "The email address or password is not right. Check them and try again.",
  throttled:
    "Too many failed attempts to sign in. Please wait 15 minutes and try again, or reset your password.",
  unexpected: "An unexpected error occurred. Please try again.",
} as const;

/** ASVS 6.3.1: ten failures per address (or 50 from one network address) in 15 minutes, then wait. */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60_000, perAccount: 10, perAddress: 50 };

export type SignInResult =
  { ok: true; headers: Headers } | { ok: false; status: 401 | 429 | 500; message: string };

export async function signIn(
  request: Request,
  email: string,
  password: string,
  clientAddress: string,
): Promise<SignInResult> {
  const { windowMs, perAccount, perAddress } = SIGN_IN_LIMITS;
  const accountKey = `sign-in:${email}`;
  const addressKey = `sign-in-address:${clientAddress}`;
  const [accountFailures, addressFailures] = await Promise.all([
    peekRateLimit(db(), accountKey, windowMs),
    peekRateLimit(db(), addressKey, windowMs),
  ]);
  if (accountFailures.hits >= perAccount || addressFailures.hits >= perAddress) {
    return { ok: false, status: 429, message: SIGN_IN_MESSAGES.throttled };
  }
  try {
    const { headers } = await auth().api.signInEmail({
      body: { email, password },
      headers: request.headers,
      returnHeaders: true,
    });
    return { ok: true, headers };
  } catch (error) {
    if (!(error instanceof APIError)) {
      logError(error, { route: routeOf(request), code: "sign_in_failed" });
      return { ok: false, status: 500, message: SIGN_IN_MESSAGES.unexpected };
    }
    await hitRateLimit(db(), accountKey, perAccount, windowMs);
    await hitRateLimit(db(), addressKey, perAddress, windowMs);
    return { ok: false, status: 401, message: SIGN_IN_MESSAGES.failed };
  }
}

/** Signs out and clears the session cookie. */
export async function signOut(request: Request): Promise<Headers> {
  try {
    const { headers } = await auth().api.signOut({ headers: request.headers, returnHeaders: true });
    return headers;
  } catch {
    return new Headers();
  }
}

/** Copies the Set-Cookie headers better-auth produced onto a response's headers. */
export function cookieHeaders(from: Headers): Headers {
  const headers = new Headers();
  for (const cookie of from.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}
