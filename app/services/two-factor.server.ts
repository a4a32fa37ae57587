import crypto from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { config } from "#app/config.server";
import QRCode from "qrcode";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import type { Db } from "#app/db/client.server";
import { twoFactor, usedTotpCode } from "#app/db/schema";
import { organisation } from "#app/content/organisation";
import { base32Encode, groupKey } from "#app/domain/base32";
import { serverSecret } from "./secrets.server";

/** Secrets imported into better-auth are stored as "base32:KEY"; the ones it makes are raw text. */
const BASE32_PREFIX = "base32:";

function keyOf(secret: string): string {
  return secret.startsWith(BASE32_PREFIX)
    ? secret.slice(BASE32_PREFIX.length).toUpperCase()
    : base32Encode(new TextEncoder().encode(secret));
}

export function totpUri(key: string, email: string): string {
  const issuer = organisation.shortName;
  const label = encodeURIComponent(`${issuer}:${email}`);
  return `otpauth://totp/${label}?secret=${key}&issuer=${encodeURIComponent(issuer)}&digits=6&period=30`;
}

/**
 * better-auth's key is 32 random characters, which is 52 in base32: more than an app's "enter a
 * setup key" box expects. A set-up not yet finished gets instead the usual 20 random bytes (RFC
 * 4226's recommendation), 32 characters in base32, stored the way better-auth reads imported keys.
 */
export async function replaceWithStandardKey(db: Db, userId: string): Promise<void> {
  const key = base32Encode(crypto.randomBytes(20));
  const secret = await symmetricEncrypt({ key: serverSecret(), data: `${BASE32_PREFIX}${key}` });
  await db
    .update(twoFactor)
    .set({ secret })
    .where(and(eq(twoFactor.userId, userId), eq(twoFactor.verified, false)));
}

export interface PendingEnrolment {
  /** For typing into the app, in groups of four. */
  key: string;
  /** The same key as a QR code, an SVG drawing. */
  qrSvg: string;
  recoveryCodes: string[];
}

/**
 * A set-up that better-auth has begun (after the password was confirmed) but not yet finished
 * (no code from the app accepted yet): its key and recovery codes, shown until the first code.
 */
export async function pendingEnrolment(
  db: Db,
  user: { id: string; email: string },
): Promise<PendingEnrolment | null> {
  const [row] = await db
    .select({ secret: twoFactor.secret, backupCodes: twoFactor.backupCodes })
    .from(twoFactor)
    .where(and(eq(twoFactor.userId, user.id), eq(twoFactor.verified, false)));
  if (!row) return null;
  const key = keyOf(await symmetricDecrypt({ key: serverSecret(), data: row.secret }));
  const codes = JSON.parse(
    await symmetricDecrypt({ key: serverSecret(), data: row.backupCodes }),
  ) as string[];
  const qrSvg = await QRCode.toString(totpUri(key, user.email), {
    type: "svg",
    margin: 2,
    errorCorrectionLevel: "M",
  });
  return { key: groupKey(key), qrSvg, recoveryCodes: codes };
}

/**
 * The pending key and recovery codes are shown only to the browser that has just confirmed the
 * password, for 15 minutes: a signed cookie bound to the person and this session. A stolen session
 * cookie alone, or a reload much later, shows the password form again.
 */
const ENROLMENT_PASS_MINUTES = 15;

function enrolmentCookieName() {
  return config().isProduction ? "__Host-mhat-enrol" : "mhat-enrol";
}

function enrolmentSignature(person: { id: string; sessionCreatedAt: Date }, expires: number) {
  return crypto
    .createHmac("sha256", serverSecret())
    .update(`enrol:${person.id}:${person.sessionCreatedAt.getTime()}:${expires}`)
    .digest("base64url");
}

export function enrolmentPassCookie(
  person: { id: string; sessionCreatedAt: Date },
  now = Date.now(),
): string {
  const expires = now + ENROLMENT_PASS_MINUTES * 60_000;
  const secure = config().isProduction ? "; Secure" : "";
  return `${enrolmentCookieName()}=${expires}.${enrolmentSignature(person, expires)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${ENROLMENT_PASS_MINUTES * 60}${secure}`;
}

export function hasEnrolmentPass(
  request: Request,
  person: { id: string; sessionCreatedAt: Date },
  now = Date.now(),
): boolean {
  const name = enrolmentCookieName();
  const value = (request.headers.get("cookie") ?? "")
    .split(/;\s*/)
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  const [expiresText, signature] = (value ?? "").split(".");
  const expires = Number(expiresText);
  if (!signature || !Number.isSafeInteger(expires) || expires < now) return false;
  const expected = Buffer.from(enrolmentSignature(person, expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * How long an accepted code is remembered: longer than any code stays valid (one 30-second step
 * either side of the current one, so 90 seconds at most).
 */
export const USED_CODE_MEMORY_MS = 3 * 60 * 1000;

/**
 * Claims an authenticator-app code for one sign-in. False if the same person's same code was
 * accepted within USED_CODE_MEMORY_MS, which is a replay (or a double submit of the form).
 * Atomic, so two requests racing with one code cannot both win.
 */
export async function claimTotpCode(db: Db, userId: string, code: string, now = new Date()) {
  const codeHash = crypto.createHash("sha256").update(code).digest("hex");
  const forgetBefore = new Date(now.getTime() - USED_CODE_MEMORY_MS);
  await db
    .delete(usedTotpCode)
    .where(and(eq(usedTotpCode.userId, userId), lt(usedTotpCode.usedAt, forgetBefore)));
  const claimed = await db
    .insert(usedTotpCode)
    .values({ userId, codeHash, usedAt: now })
    .onConflictDoUpdate({
      target: [usedTotpCode.userId, usedTotpCode.codeHash],
      set: { usedAt: now },
      // Only a use older than the memory may be taken over (the clean-up above raced with us).
      setWhere: sql`${usedTotpCode.usedAt} < ${forgetBefore}`,
    })
    .returning({ userId: usedTotpCode.userId });
  return claimed.length === 1;
}
