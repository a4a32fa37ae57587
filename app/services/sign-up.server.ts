import { APIError } from "better-auth";
import { eq } from "drizzle-orm";
import { config } from "#app/config.server";
import { limitKeyForAddress } from "#app/domain/client-address";
import type { Db } from "#app/db/client.server";
import { user } from "#app/db/schema";
import type { ProfileDraft } from "./auth.server";
import { auth, hashPassword, sendAlreadyRegisteredNotice, withPendingProfile } from "./auth.server";
import { hitRateLimit } from "./rate-limit.server";
import { RECIPIENT_MAIL_LIMITS, recipientMailDecision } from "#app/domain/recipient-mail";

/** Sign-ups per client address are counted over an hour; see RATE_LIMIT_SIGNUPS_PER_HOUR. */
export const SIGN_UPS_WINDOW_MS = 60 * 60_000;

/** A sign-up this soon after the account was made is taken as a second press of the same form. */
export const SECOND_PRESS_MS = 2 * 60_000;

export type SignUpResult =
  /** a new account (or, unseen by the visitor, an existing one whose owner was told): on to the next page */
  | { outcome: "done"; headers: Headers | null }
  /** too many sign-ups from this client address lately */
  | { outcome: "too-many"; retryAfterSeconds: number };

/**
 * Makes a patient's account with its profile. Every way to sign up comes here, so the limit on
 * sign-ups per client address holds for all of them: many throwaway accounts from one address
 * was how one visitor could hold every place of an event. The limit counts every attempt that
 * reaches this point (new address or not), so the answer never tells whether an address is
 * registered: for an existing one the password is hashed anyway (the same time taken) and its
 * owner is told by e-mail.
 */
export async function signUpPatient(
  db: Db,
  input: {
    profile: Omit<ProfileDraft, "email">;
    email: string;
    password: string;
    clientAddress: string;
    /** the request's headers, which better-auth reads (origin, the client address header) */
    headers: Headers;
  },
  now = new Date(),
): Promise<SignUpResult> {
  const settings = config();
  const counted = await hitRateLimit(
    db,
    `sign-ups:${limitKeyForAddress(input.clientAddress)}`,
    settings.RATE_LIMIT_SIGNUPS_PER_HOUR,
    SIGN_UPS_WINDOW_MS,
    now,
  );
  if (!counted.allowed)
    return { outcome: "too-many", retryAfterSeconds: counted.retryAfterSeconds };
  const { profile, email, password } = input;
  try {
    const { headers } = await withPendingProfile({ ...profile, email }, () =>
      auth(db).api.signUpEmail({
        body: {
          name: `${profile.firstName} ${profile.lastName}`,
          email,
          password,
          // Says whether it worked: the link is often opened away from his signed-in browser.
          callbackURL: "/email-confirmed",
        },
        headers: input.headers,
        returnHeaders: true,
      }),
    );
    return { outcome: "done", headers };
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    if (String(error.body?.code ?? "").startsWith("USER_ALREADY_EXISTS")) {
      await hashPassword(password);
      const [existing] = await db
        .select({ createdAt: user.createdAt })
        .from(user)
        .where(eq(user.email, email));
      // "Create account" pressed again a moment after it made the account: the same person, who
      // has just been sent the link to confirm it. "Someone tried to register" would alarm him.
      const justMade = existing && now.getTime() - existing.createdAt.getTime() < SECOND_PRESS_MS;
      if (!justMade) await sendAlreadyRegisteredNotice(db, email);
      return { outcome: "done", headers: null };
    }
    // Two presses at once: both found the address free, and the other request's account won the
    // unique key. It was made this instant, by the same form; nobody else needs telling.
    if (error.body?.code === "FAILED_TO_CREATE_USER") {
      const [made] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
      if (made) return { outcome: "done", headers: null };
    }
    throw error;
  }
}

/** What "Send me a new link" came to, in words about his own asking only. */
export type NewConfirmationLinkOutcome =
  /** sent now, or held back because the address had our mail just now: one answer (see below) */
  | "on-its-way"
  | "already-confirmed"
  /** he asked within the last 10 minutes */
  | "asked-recently"
  /** he has asked 4 times this hour */
  | "asked-often";

/**
 * A new link to confirm the signed-in person's own address (the first lasts 24 hours). It goes
 * through the same mail as the first, limited per address like every mail a form can send, and
 * only to the account's own address: better-auth checks the session's address is this one.
 *
 * His own asking is limited first, as a mailbox is (one in 10 minutes, four an hour), and only
 * that is told apart. The mailbox's own count is shared with every address that reaches the same
 * inbox (`mailboxOf`): an answer that differed when its limits held the mail back would let anyone
 * with an unconfirmed account at victim+x@ learn whether we had just mailed the victim (a consent
 * link means a booked PSA test). So a mail sent and a mail held back answer alike: one is on its
 * way, or was sent in the last hour.
 */
export async function sendNewConfirmationLink(
  db: Db,
  input: { userId: string; email: string; headers: Headers },
  now = new Date(),
): Promise<NewConfirmationLinkOutcome> {
  const { sameKind, sameKindWindowMs, anyKind, anyKindWindowMs } = RECIPIENT_MAIL_LIMITS;
  const [tenMinutes, hour] = await Promise.all([
    hitRateLimit(db, `confirm-link:${input.userId}`, sameKind, sameKindWindowMs, now),
    hitRateLimit(db, `confirm-link-hour:${input.userId}`, anyKind, anyKindWindowMs, now),
  ]);
  const own = recipientMailDecision({ sameKind: tenMinutes.hits - 1, anyKind: hour.hits - 1 });
  if (own === "over-limit") return "asked-often";
  if (own === "repeat") return "asked-recently";
  try {
    // Through `enqueueUnaskedMail`, whose per-mailbox limits may hold it back, unsaid.
    await auth(db).api.sendVerificationEmail({
      body: { email: input.email, callbackURL: "/email-confirmed" },
      headers: input.headers,
    });
    return "on-its-way";
  } catch (error) {
    if (error instanceof APIError && error.body?.code === "EMAIL_ALREADY_VERIFIED")
      return "already-confirmed";
    throw error;
  }
}
