import { APIError } from "better-auth";
import { eq } from "drizzle-orm";
import { db, type Db } from "#app/db/client.server";
import { session, user } from "#app/db/schema";
import { limitKeyForAddress } from "#app/domain/client-address";
import { minutesToWait } from "#app/domain/retry-after";
import { SIGN_IN_LIMITS, signInThrottle } from "#app/domain/sign-in-limits";
import { auth, hasSessionCookie } from "./auth.server";
import { recordAudit } from "./audit.server";
import { log, logError, routeOf } from "./log.server";
import { claimTotpCode } from "./two-factor.server";
import { forgetRateLimits, hitRateLimit, peekRateLimit } from "./rate-limit.server";
import { keyedHash } from "./secrets.server";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  /** When this session began: staff sessions last less long (guards.server.ts). */
  sessionCreatedAt: Date;
  /** Whether a code from the authenticator app was typed in this session. */
  twoFactorVerified: boolean;
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
  if (!hasSessionCookie(request)) return null;
  // Read only. Past a day, better-auth would move the session's end on and send a new cookie, but
  // a lookup's headers never reach the browser, whose cookie ends seven days after sign-in anyway:
  // the write, on every request of every such session, bought nothing (D-157).
  const result = await auth().api.getSession({
    headers: request.headers,
    query: { disableRefresh: true },
  });
  if (!result) return null;
  const { id, name, email, emailVerified, twoFactorEnabled } = result.user;
  return {
    id,
    name,
    email,
    emailVerified,
    twoFactorEnabled: twoFactorEnabled === true,
    sessionCreatedAt: new Date(result.session.createdAt),
    twoFactorVerified: result.session.twoFactorVerified === true,
  };
}

export const SIGN_IN_MESSAGES = {
  failed: "The email address or password is not right. Check them and try again.",
  /** The wait is the real one, as in the Retry-After header. */
  throttled: (retryAfterSeconds: number) =>
    `Too many failed attempts to sign in. Please wait ${minutesToWait(retryAfterSeconds)} and try again, or reset your password.`,
  unexpected: "An unexpected error occurred. Please try again.",
} as const;

/** `twoFactor`: the password was right and a code from the authenticator app is needed next. */
export type SignInResult =
  | { ok: true; headers: Headers; twoFactor: boolean }
  | { ok: false; status: 401 | 500; message: string }
  | { ok: false; status: 429; message: string; retryAfterSeconds: number };

/** The rate-limit key of an account's failed sign-ins: a keyed hash, never the e-mail address. */
function signInAccountKey(email: string) {
  return `sign-in:${keyedHash("sign-in", email.trim().toLowerCase())}`;
}

/**
 * The rate-limit keys of failed sign-ins. An IPv6 client counts by its /64 (`limitKeyForAddress`),
 * which one host holds whole: counted by the address, it could try without limit.
 */
function signInKeys(email: string, clientAddress: string) {
  const account = signInAccountKey(email);
  const address = limitKeyForAddress(clientAddress);
  return {
    accountAndAddress: `${account}:${address}`,
    account,
    address: `sign-in-address:${address}`,
  };
}

/**
 * Lifts the account's sign-in limits once its owner has set a new password from the e-mailed
 * link: guesses spread over many addresses can stop everyone signing in to an account, and
 * resetting the password is the way out the page offers.
 */
export async function forgetFailedSignIns(database: Db, email: string): Promise<void> {
  await forgetRateLimits(database, signInAccountKey(email));
}

export async function signIn(
  request: Request,
  email: string,
  password: string,
  clientAddress: string,
  now = new Date(),
): Promise<SignInResult> {
  const { windowMs, perAccountAndAddress, perAccount, perAddress } = SIGN_IN_LIMITS;
  const keys = signInKeys(email, clientAddress);
  const [accountAndAddress, account, address] = await Promise.all([
    peekRateLimit(db(), keys.accountAndAddress, windowMs, now),
    peekRateLimit(db(), keys.account, windowMs, now),
    peekRateLimit(db(), keys.address, windowMs, now),
  ]);
  const throttle = signInThrottle({ accountAndAddress, account, address });
  if (!throttle.allowed) {
    const { retryAfterSeconds } = throttle;
    return {
      ok: false,
      status: 429,
      message: SIGN_IN_MESSAGES.throttled(retryAfterSeconds),
      retryAfterSeconds,
    };
  }
  try {
    // A deactivated account is refused with the same answer as a wrong password.
    if (await isDeactivated(email)) throw new APIError("UNAUTHORIZED");
    const { headers, response } = await auth().api.signInEmail({
      body: { email, password },
      headers: request.headers,
      returnHeaders: true,
    });
    const twoFactor = "twoFactorRedirect" in response && response.twoFactorRedirect === true;
    return { ok: true, headers, twoFactor };
  } catch (error) {
    if (!(error instanceof APIError)) {
      logError(error, { route: routeOf(request), code: "sign_in_failed" });
      return { ok: false, status: 500, message: SIGN_IN_MESSAGES.unexpected };
    }
    await hitRateLimit(db(), keys.accountAndAddress, perAccountAndAddress, windowMs, now);
    await hitRateLimit(db(), keys.account, perAccount, windowMs, now);
    await hitRateLimit(db(), keys.address, perAddress, windowMs, now);
    return { ok: false, status: 401, message: SIGN_IN_MESSAGES.failed };
  }
}

async function isDeactivated(email: string): Promise<boolean> {
  const [row] = await db()
    .select({ deactivatedAt: user.deactivatedAt })
    .from(user)
    .where(eq(user.email, email.toLowerCase()));
  return Boolean(row?.deactivatedAt);
}

/** The session token in the Set-Cookie headers better-auth has just produced, if any. */
function newSessionToken(headers: Headers): string | undefined {
  for (const cookie of headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const [name, ...rest] = pair!.split("=");
    if (!name?.endsWith("session_token")) continue;
    // The cookie is "<token>.<signature>", URL-encoded.
    const token = decodeURIComponent(rest.join("=")).split(".")[0];
    if (token) return token;
  }
  return undefined;
}

export type SecondFactorOutcome =
  /** the session is marked; send its cookie */
  | "accepted"
  /** the app code had been used already: the new session is ended, and the attempt audited */
  | "replayed"
  /** better-auth set no session we can find (it should have): sign in again */
  | "no-session";

/**
 * Marks the session that better-auth has just set (in `headers`) as one where the person gave
 * their second factor; staff pages accept no other session. With `appCode`, the code from the
 * authenticator app must not have been accepted before (claimTotpCode). A replay comes after the
 * right password, so it is audited and logged as well as refused. With `enrolled` (the person
 * whose code has just turned two-factor sign-in on), that is audited in the same transaction.
 */
export async function acceptSecondFactor(
  headers: Headers,
  options: {
    appCode?: string;
    clientAddress: string;
    enrolled?: { id: string; email: string | null };
  },
): Promise<SecondFactorOutcome> {
  const token = newSessionToken(headers);
  const outcome = await db().transaction(async (tx) => {
    const { enrolled, clientAddress } = options;
    if (enrolled)
      await recordAudit(
        tx,
        { id: enrolled.id, email: enrolled.email, clientAddress },
        {
          action: "staff.two-factor",
          subjectUserId: enrolled.id,
          entityType: "user",
          entityId: enrolled.id,
        },
      );
    if (!token) return { outcome: "no-session" as const };
    const [found] = await tx
      .select({ userId: session.userId, email: user.email })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(eq(session.token, token));
    if (!found) return { outcome: "no-session" as const };
    if (
      options.appCode !== undefined &&
      !(await claimTotpCode(tx, found.userId, options.appCode))
    ) {
      await tx.delete(session).where(eq(session.token, token));
      await recordAudit(
        tx,
        { id: found.userId, email: found.email, clientAddress: options.clientAddress },
        {
          action: "staff.two-factor.replayed",
          subjectUserId: found.userId,
          entityType: "user",
          entityId: found.userId,
        },
      );
      return { outcome: "replayed" as const, userId: found.userId };
    }
    await tx.update(session).set({ twoFactorVerified: true }).where(eq(session.token, token));
    return { outcome: "accepted" as const };
  });
  if (outcome.outcome === "replayed")
    log.warn(
      { code: "totp_code_replayed", userId: outcome.userId },
      "two-factor: a used code was typed again; refused",
    );
  return outcome.outcome;
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
