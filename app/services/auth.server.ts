import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { betterAuth, getCurrentAdapter, type BetterAuthPlugin } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { getSessionCookie } from "better-auth/cookies";
import { twoFactor } from "better-auth/plugins/two-factor";
import { config } from "#app/config.server";
import { database, type Db } from "#app/db/client.server";
import * as schema from "#app/db/schema";
import { organisation } from "#app/content/organisation";
import { PASSWORD_MAX, PASSWORD_MIN } from "#app/domain/password";
import { CLIENT_ADDRESS_HEADER } from "#app/utils/http.server";
import { eq } from "drizzle-orm";
import { describeError, log } from "./log.server";
import { enqueueUnaskedMail } from "./recipient-mail.server";
import { serverSecret } from "./secrets.server";

/**
 * argon2id at OWASP's recommended minimum (46 MiB, one pass, one lane), so that a stolen hash is
 * slow to attack. better-auth's default scrypt settings fall short of ASVS 11.4.2.
 */
const ARGON2_OPTIONS = {
  algorithm: 2 /* argon2id */,
  memoryCost: 47_104,
  timeCost: 1,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => argon2Hash(password, ARGON2_OPTIONS);
export const verifyPassword = ({ hash, password }: { hash: string; password: string }) =>
  argon2Verify(hash, password).catch(() => false);

/** The profile fields a sign-up carries into better-auth's transaction. */
export type ProfileDraft = Omit<
  typeof schema.profile.$inferInsert,
  "id" | "userId" | "reference" | "createdAt" | "updatedAt"
>;

/** The profile waiting to be written by the sign-up that is running now (one per request). */
const pendingProfile = new AsyncLocalStorage<ProfileDraft>();

export function withPendingProfile<T>(draft: ProfileDraft, run: () => Promise<T>): Promise<T> {
  return pendingProfile.run(draft, run);
}

/** Characters that cannot be mistaken for one another when copied by hand. */
const UNAMBIGUOUS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

function unambiguous(length: number): string {
  return [...crypto.randomBytes(length)].map((byte) => UNAMBIGUOUS[byte % 32]).join("");
}

/** Ten recovery codes, "XXXXX-XXXXX" (50 bits each), without look-alike characters. */
export function recoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const code = unambiguous(10);
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** "MHAT" then 8 characters from an alphabet without look-alikes: about 40 bits, never guessable in sequence. */
export function newProfileReference(): string {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  const bytes = crypto.randomBytes(8);
  return `${organisation.shortName}${[...bytes].map((byte) => alphabet[byte % alphabet.length]).join("")}`;
}

const profileFields = {
  userId: {
    type: "string",
    required: true,
    unique: true,
    references: { model: "user", field: "id", onDelete: "cascade" },
  },
  reference: { type: "string", required: true, unique: true },
  firstName: { type: "string", required: true },
  lastName: { type: "string", required: true },
  gender: { type: "string", required: false },
  dateOfBirth: { type: "string", required: false },
  ethnicity: { type: "string", required: false },
  occupation: { type: "string", required: false },
  phone: { type: "string", required: true },
  email: { type: "string", required: true },
  homeAddressLine1: { type: "string", required: true },
  homeAddressLine2: { type: "string", required: false },
  homePostcode: { type: "string", required: true },
  homeCountry: { type: "string", required: true },
  billingAddress: { type: "string", required: false },
  nhsNumber: { type: "string", required: false },
} as const;

/**
 * Creates the profile in the same transaction as the user: better-auth creates the user, then
 * the password account, inside one transaction; this hook runs before the account is written and
 * inserts the profile through that transaction. If it fails, the user is rolled back too.
 */
const profilePlugin = {
  id: "mhat-profile",
  schema: { profile: { fields: profileFields } },
  init() {
    return {
      options: {
        databaseHooks: {
          account: {
            create: {
              async before(account: { userId: string; providerId: string }) {
                const draft = pendingProfile.getStore();
                if (!draft || account.providerId !== "credential") return;
                const adapter = await getCurrentAdapter(undefined as never);
                await adapter.create({
                  model: "profile",
                  data: { ...draft, userId: account.userId, reference: newProfileReference() },
                });
              },
            },
          },
        },
      },
    };
  },
} satisfies BetterAuthPlugin;

/**
 * better-auth's HTTP endpoints are part of our attack surface. The site reaches the library
 * through its own server code; over HTTP only the two links we e-mail are needed.
 */
export const EXPOSED_AUTH_ENDPOINTS = [
  { method: "GET", path: /^\/api\/auth\/verify-email$/ },
  { method: "GET", path: /^\/api\/auth\/reset-password\/[A-Za-z0-9_-]+$/ },
] as const;

const DISABLED_AUTH_PATHS = [
  "/account-info",
  "/change-email",
  "/change-password",
  "/delete-user",
  "/delete-user/callback",
  "/error",
  "/get-access-token",
  "/get-session",
  "/link-social",
  "/list-accounts",
  "/list-sessions",
  "/ok",
  "/refresh-token",
  "/request-password-reset",
  "/reset-password",
  "/revoke-other-sessions",
  "/revoke-session",
  "/revoke-sessions",
  "/send-verification-email",
  "/sign-in/email",
  "/sign-in/social",
  "/sign-out",
  "/sign-up/email",
  "/unlink-account",
  "/update-session",
  "/update-user",
  "/verify-password",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/get-totp-uri",
  "/two-factor/verify-totp",
  "/two-factor/generate-backup-codes",
  "/two-factor/verify-backup-code",
  "/two-factor/send-otp",
  "/two-factor/verify-otp",
];

/**
 * Cookie names: "__Host-" in production, which the browser accepts only from https, for the
 * whole site and this host alone, so no other site or subdomain can set or read them.
 */
function cookiePrefix(isProduction: boolean) {
  return isProduction ? "__Host-mhat" : "mhat";
}

/**
 * Whether the request carries a session cookie at all. A visitor with none (or only other
 * cookies) has no session, which is known without asking better-auth and the database.
 */
export function hasSessionCookie(request: Request, settings = config()): boolean {
  return getSessionCookie(request, { cookiePrefix: cookiePrefix(settings.isProduction) }) !== null;
}

/** better-auth's own log lines go through ours: codes and scrubbed text, never raw errors. */
function authLogger(
  level: "info" | "warn" | "error" | "debug" | "success",
  message: string,
  ...args: unknown[]
) {
  const details = args.map((arg) => (arg instanceof Error ? describeError(arg) : typeof arg));
  log[level === "success" ? "info" : level]({ source: "auth", details }, message);
}

function createAuth(db: Db, settings = config(), secret = serverSecret()) {
  return betterAuth({
    appName: organisation.name,
    baseURL: settings.publicBaseUrl,
    // Express has already refused cross-site state changes (server/security.ts), so the request's own origin is trusted.
    trustedOrigins: async (request) => (request ? [new URL(request.url).origin] : []),
    // Only the links in our e-mails reach better-auth over HTTP (routes/api/auth.ts); these are
    // disabled in the library too, in case a route ever forwards more.
    disabledPaths: DISABLED_AUTH_PATHS,
    basePath: "/api/auth",
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      transaction: true,
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        rateLimit: schema.authRateLimit,
        profile: schema.profile,
        twoFactor: schema.twoFactor,
      },
    }),
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      password: { hash: hashPassword, verify: verifyPassword },
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      async sendResetPassword({ user, url, token }) {
        const queued = await enqueueUnaskedMail(db, "password-reset", {
          to: user.email,
          subject: `Reset your ${organisation.shortName} password`,
          text: [
            // No name: whoever made the account typed it, and anyone can ask for this mail.
            "Hello,",
            "",
            "We received a request to reset the password for your account. To choose a new password, open this link (it works for one hour):",
            "",
            url,
            "",
            "If you did not ask for this, you can ignore this e-mail: your password has not changed.",
            "",
            organisation.name,
          ].join("\n"),
        });
        // Throttled: the link mailed last still works, and a link nobody was sent is removed.
        if (!queued)
          await db
            .delete(schema.verification)
            .where(eq(schema.verification.identifier, `reset-password:${token}`));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // The link must not sign in whoever opens it: sent to someone else, it would sign them in
      // to the sender's account, and what they then typed (health data) would be the sender's.
      autoSignInAfterVerification: false,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user, url }) {
        await enqueueUnaskedMail(db, "email-verification", {
          to: user.email,
          subject: `Confirm your e-mail address for ${organisation.shortName}`,
          text: [
            // No name: whoever signed up typed it, and may not be the owner of this address.
            "Hello,",
            "",
            `Thank you for creating an account with the ${organisation.name}. Please confirm your e-mail address by opening this link (it works for 24 hours):`,
            "",
            url,
            "",
            "If you did not create an account with us, do not open the link: ignore this e-mail, and the address will not be confirmed.",
            "",
            "Creating an account does not book a screening. Choose an event and a time on our website to book.",
            "",
            organisation.name,
          ].join("\n"),
        });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      // Set by our pages once a code from the app was typed in this session (session.server.ts).
      additionalFields: {
        twoFactorVerified: { type: "boolean", required: false, defaultValue: false, input: false },
      },
    },
    rateLimit: { enabled: true, storage: "database", modelName: "rateLimit", window: 60, max: 100 },
    advanced: {
      // The prefix carries "__Host-" itself; better-auth's own "__Secure-" would come before it.
      useSecureCookies: false,
      cookiePrefix: cookiePrefix(settings.isProduction),
      defaultCookieAttributes: {
        httpOnly: true,
        sameSite: "lax",
        secure: settings.isProduction,
        path: "/",
      },
      // Express puts the one client address it trusts in this header (server/security.ts),
      // replacing whatever the client sent, so forged X-Forwarded-For headers count for nothing.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    logger: { level: "warn", log: authLogger },
    plugins: [
      profilePlugin,
      // TOTP for staff (guards.server.ts requires it of anyone with a role), with recovery codes.
      twoFactor({
        issuer: organisation.shortName,
        twoFactorCookieMaxAge: 10 * 60,
        // Recovery codes read aloud or copied by hand: no l, I, 1, O or 0 to confuse.
        backupCodeOptions: { customBackupCodesGenerate: recoveryCodes },
      }),
    ],
  });
}

/**
 * Told to the owner of an address when someone signs up with it again. The sign-up page answers
 * as for a new account, so nobody learns which addresses are registered.
 */
export async function sendAlreadyRegisteredNotice(db: Db, email: string, settings = config()) {
  await enqueueUnaskedMail(db, "already-registered", {
    to: email,
    subject: "Someone tried to register with your e-mail address",
    text: [
      "Hello,",
      "",
      `Someone, perhaps you, tried to create a new ${organisation.shortName} account with this e-mail address. You already have an account, so nothing has changed.`,
      "",
      `To sign in, or to reset your password if you have forgotten it, go to ${settings.publicBaseUrl}/login`,
      "",
      organisation.name,
    ].join("\n"),
  });
}

const instances = new WeakMap<Db, ReturnType<typeof createAuth>>();

/**
 * The auth instance for a database: the process's (made on first use, after start-up opened it),
 * or the one a service was handed (a test's), each made once.
 */
export function auth(db: Db = database().db) {
  let instance = instances.get(db);
  if (!instance) {
    instance = createAuth(db);
    instances.set(db, instance);
  }
  return instance;
}

/** For tests: an auth instance on a given database, optionally with other settings. */
export function authFor(db: Db, settings = config(), secret = serverSecret()) {
  return createAuth(db, settings, secret);
}
