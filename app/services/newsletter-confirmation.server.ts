import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { newsletterSubscription } from "#app/db/schema";
import {
  newsletterConfirmRefusal,
  type NewsletterConfirmRefusal,
} from "#app/domain/newsletter-confirm";
import { serverSecret } from "./secrets.server";

/**
 * A subscription starts only when the owner of the address opens the link in the confirmation
 * e-mail and presses the button (double opt-in). The link carries the request itself, sealed with
 * AES-256-GCM under a key derived from the server's secret: nobody without the secret can make or
 * change one, it needs no table, and the address and name in it cannot be read from the URL
 * (browser history, proxy logs).
 */
export const NEWSLETTER_CONFIRM_PATH = "/newsletter/confirm";

export interface NewsletterRequest {
  email: string;
  name: string;
  hearAboutEvents: boolean;
  issuedAt: Date;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_TOKEN_LENGTH = 2048;

function sealingKey(): Buffer {
  return Buffer.from(
    crypto.hkdfSync("sha256", serverSecret(), Buffer.alloc(0), "newsletter-confirmation", 32),
  );
}

export function sealNewsletterRequest(request: Omit<NewsletterRequest, "issuedAt">, now: Date) {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", sealingKey(), iv);
  const payload = JSON.stringify({
    e: request.email,
    n: request.name,
    h: request.hearAboutEvents,
    t: now.getTime(),
  });
  const sealed = Buffer.concat([cipher.update(payload, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The request a token was sealed with, or null if this server did not make it unchanged. */
export function openNewsletterRequest(token: string | null | undefined): NewsletterRequest | null {
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return null;
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = crypto.createDecipheriv(
      "aes-256-gcm",
      sealingKey(),
      bytes.subarray(0, IV_BYTES),
    );
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const payload = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
    const { e, n, h, t } = JSON.parse(payload) as Record<string, unknown>;
    if (typeof e !== "string" || typeof n !== "string" || typeof h !== "boolean") return null;
    if (typeof t !== "number" || !Number.isFinite(t)) return null;
    return { email: e, name: n, hearAboutEvents: h, issuedAt: new Date(t) };
  } catch {
    // A changed or forged token fails authentication.
    return null;
  }
}

/** The link to put in a confirmation e-mail; `baseUrl` is the site's public address. */
export function newsletterConfirmLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${NEWSLETTER_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
}

export type NewsletterConfirmCheck =
  | { ok: true; request: NewsletterRequest; wasSubscribed: boolean }
  | { ok: false; reason: "missing" | "invalid" | NewsletterConfirmRefusal };

/**
 * What a confirmation link would do; reading it changes nothing (mail scanners follow links).
 * `forUpdate` locks the address's row, for the transaction that then confirms it.
 */
export async function checkNewsletterConfirmation(
  db: Db,
  token: string | null | undefined,
  now = new Date(),
  { forUpdate = false } = {},
): Promise<NewsletterConfirmCheck> {
  if (!token) return { ok: false, reason: "missing" };
  const request = openNewsletterRequest(token);
  if (!request) return { ok: false, reason: "invalid" };
  const query = db
    .select({ unsubscribedAt: newsletterSubscription.unsubscribedAt })
    .from(newsletterSubscription)
    .where(eq(newsletterSubscription.email, request.email));
  const [subscription] = forUpdate ? await query.for("update") : await query;
  const refusal = newsletterConfirmRefusal(request, subscription, now);
  if (refusal) return { ok: false, reason: refusal };
  return { ok: true, request, wasSubscribed: !!subscription && !subscription.unsubscribedAt };
}
