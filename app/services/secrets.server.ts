import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { appMeta } from "#app/db/schema";

/**
 * The server's secret: it signs sessions and cookies and keys the access-code hashes. Production
 * must set AUTH_SECRET. Elsewhere a random one is made on the first start and kept in the
 * database, so that no secret written in the source can be used to forge a token.
 */
const SECRET_KEY = "generated_auth_secret";

let loaded: string | undefined;

export async function loadServerSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) {
    loaded = configured;
    return loaded;
  }
  await db
    .insert(appMeta)
    .values({ key: SECRET_KEY, value: crypto.randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select().from(appMeta).where(eq(appMeta.key, SECRET_KEY));
  loaded = String(row!.value);
  return loaded;
}

export function serverSecret(): string {
  if (!loaded) throw new Error("The server secret has not been loaded (start-up does that)");
  return loaded;
}

/**
 * A keyed hash of a value such as an e-mail address, for use as a rate-limit key: the address is
 * never stored in clear, and a copy of the database alone cannot tell whose counters are whose.
 * `purpose` keeps hashes made for different uses apart.
 */
export function keyedHash(purpose: string, value: string): string {
  return crypto
    .createHmac("sha256", serverSecret())
    .update(`${purpose}|${value}`)
    .digest("base64url");
}
