import crypto from "node:crypto";
import { eq, or } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { profile } from "#app/db/schema";
import { isCalendarDate } from "#app/domain/calendar-date";
import { serverSecret } from "./secrets.server";

/**
 * Links to the stand-alone consent form (`/test-consent`). The old page trusted `profile_id` from the
 * address, so anyone could submit consent for anyone. Ours accepts a link only when it carries a
 * signature over the profile, the test date and an expiry, made with the server's secret; or, with
 * no signature, only the signed-in owner of that profile.
 */

export interface ConsentLinkParams {
  profileId: string;
  testDate: string;
  /** seconds since 1970 */
  expires: number;
}

function signature({ profileId, testDate, expires }: ConsentLinkParams): string {
  return crypto
    .createHmac("sha256", serverSecret())
    .update(`test-consent|${profileId}|${testDate}|${expires}`)
    .digest("base64url");
}

/**
 * The query string of a signed link, for staff to send: valid until `expiresAt`, else for `days`.
 * `profileId` may be the profile's id or its reference (the portal's "ID: MHAT…").
 */
export function signedConsentQuery(
  input: { profileId: string; testDate: string; days?: number; expiresAt?: Date },
  now = new Date(),
): string {
  const expires = input.expiresAt
    ? Math.floor(input.expiresAt.getTime() / 1000)
    : Math.floor(now.getTime() / 1000) + (input.days ?? 14) * 86_400;
  const params = { profileId: input.profileId, testDate: input.testDate, expires };
  return new URLSearchParams({
    profile_id: params.profileId,
    test_date: params.testDate,
    expires: String(expires),
    signature: signature(params),
  }).toString();
}

export type ConsentLinkCheck =
  | { ok: true; userId: string; profileId: string; testDate: string; how: "signed" | "owner" }
  | { ok: false; reason: "missing" | "invalid" };

/** One of our signatures: 32 bytes in base64url, 43 ASCII characters (as booking links'). */
const SIGNATURE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whose consent a `/test-consent` address lets someone give, if anyone's. */
export async function checkConsentLink(
  db: Db,
  query: URLSearchParams,
  signedInUserId: string | null,
  now = new Date(),
): Promise<ConsentLinkCheck> {
  const profileId = query.get("profile_id") ?? "";
  const testDate = query.get("test_date") ?? "";
  if (!profileId || !testDate) return { ok: false, reason: "missing" };
  if (!isCalendarDate(testDate) || profileId.length > 64) return { ok: false, reason: "invalid" };
  // The portal shows the reference ("ID: MHAT…"), so it is accepted as well as the internal id.
  const [owner] = await db
    .select({ userId: profile.userId, id: profile.id })
    .from(profile)
    .where(or(eq(profile.id, profileId), eq(profile.reference, profileId.toUpperCase())));
  if (!owner) return { ok: false, reason: "invalid" };

  const given = query.get("signature");
  const expires = Number(query.get("expires"));
  if (given && Number.isInteger(expires)) {
    const expected = signature({ profileId, testDate, expires });
    // Equal lengths in characters are not equal lengths in bytes, and timingSafeEqual throws.
    const matches =
      SIGNATURE_SHAPE.test(given) &&
      crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    if (matches && expires * 1000 > now.getTime())
      return { ok: true, userId: owner.userId, profileId: owner.id, testDate, how: "signed" };
    return { ok: false, reason: "invalid" };
  }
  if (signedInUserId && signedInUserId === owner.userId)
    return { ok: true, userId: owner.userId, profileId: owner.id, testDate, how: "owner" };
  return { ok: false, reason: "invalid" };
}
