import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { newsletterSubscription } from "#app/db/schema";
import { serverSecret } from "./secrets.server";

/**
 * The newsletter's unsubscribe link works without signing in. Its token is the subscription's id
 * and an HMAC-SHA256 of it made with the server's secret ("<id>.<mac>", base64url): it names no
 * e-mail address, cannot be made for another subscription without the secret, and never expires
 * (an unsubscribe link in an old e-mail must still work).
 */
export const UNSUBSCRIBE_PATH = "/unsubscribe";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function mac(subscriptionId: string): string {
  return crypto
    .createHmac("sha256", serverSecret())
    .update(`newsletter-unsubscribe|${subscriptionId}`)
    .digest("base64url");
}

export function signUnsubscribeToken(subscriptionId: string): string {
  return `${subscriptionId}.${mac(subscriptionId)}`;
}

/** The subscription id a token was made for, or null if it was not made by this server. */
export function verifyUnsubscribeToken(token: string | null | undefined): string | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const dot = token.indexOf(".");
  if (dot < 0) return null;
  const id = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  if (!UUID.test(id)) return null;
  const expected = Buffer.from(mac(id));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? id : null;
}

/** The link to put in every newsletter e-mail; `baseUrl` is the site's public address. */
export function unsubscribeLink(baseUrl: string, subscriptionId: string): string {
  const token = signUnsubscribeToken(subscriptionId);
  return `${baseUrl.replace(/\/+$/, "")}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
}

export type UnsubscribeCheck =
  | { ok: true; subscriptionId: string; email: string; unsubscribed: boolean }
  | { ok: false; reason: "missing" | "invalid" | "unknown" };

/** What an unsubscribe link points at; reading it changes nothing (mail scanners follow links). */
export async function checkUnsubscribeToken(
  db: Db,
  token: string | null | undefined,
): Promise<UnsubscribeCheck> {
  if (!token) return { ok: false, reason: "missing" };
  const id = verifyUnsubscribeToken(token);
  if (!id) return { ok: false, reason: "invalid" };
  const [row] = await db
    .select({
      id: newsletterSubscription.id,
      email: newsletterSubscription.email,
      unsubscribedAt: newsletterSubscription.unsubscribedAt,
    })
    .from(newsletterSubscription)
    .where(eq(newsletterSubscription.id, id));
  if (!row) return { ok: false, reason: "unknown" };
  return { ok: true, subscriptionId: row.id, email: row.email, unsubscribed: !!row.unsubscribedAt };
}

/**
 * Unsubscribes the address a token was made for. Doing it twice is not an error; the first time
 * is kept. Only the owner confirming a new subscription from their inbox clears it.
 */
export async function unsubscribeWithToken(
  db: Db,
  token: string | null | undefined,
  now = new Date(),
): Promise<UnsubscribeCheck> {
  const check = await checkUnsubscribeToken(db, token);
  if (!check.ok || check.unsubscribed) return check;
  await db
    .update(newsletterSubscription)
    .set({ unsubscribedAt: now, updatedAt: now })
    .where(
      and(
        eq(newsletterSubscription.id, check.subscriptionId),
        isNull(newsletterSubscription.unsubscribedAt),
      ),
    );
  return { ...check, unsubscribed: true };
}
