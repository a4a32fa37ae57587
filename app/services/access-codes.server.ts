import crypto from "node:crypto";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { eventAccessCode } from "#app/db/schema";
import { hitRateLimit } from "./rate-limit.server";

export const ACCESS_CODE_MESSAGES = {
  invalid: "Invalid Access code",
  tooMany: "Too many attempts. Please wait 15 minutes and try again, or e-mail us for help.",
} as const;

/** Attempts allowed in 15 minutes: per address for one event, and for one event from everywhere. */
export const ACCESS_CODE_LIMITS = { windowMs: 15 * 60_000, perAddressAndEvent: 10, perEvent: 200 };

// Outside production a fixed key is fine: production refuses to start without AUTH_SECRET.
const hashKey = () => config().AUTH_SECRET ?? "development-only-access-code-key";

/** People type codes in any case and with stray spaces; the stored hash is of the tidied code. */
export function normaliseAccessCode(code: string) {
  return code.trim().replace(/\s+/g, "").toUpperCase();
}

/** A keyed hash: a copy of the database alone is not enough to test guesses offline. */
export function hashAccessCode(code: string) {
  return crypto.createHmac("sha256", hashKey()).update(normaliseAccessCode(code)).digest("hex");
}

export async function createAccessCode(
  db: Db,
  input: {
    eventId: string;
    code: string;
    label?: string;
    maxUses?: number | null;
    expiresAt?: Date | null;
    uses?: number;
  },
) {
  const [row] = await db
    .insert(eventAccessCode)
    .values({
      eventId: input.eventId,
      codeHash: hashAccessCode(input.code),
      label: input.label,
      maxUses: input.maxUses ?? null,
      expiresAt: input.expiresAt ?? null,
      uses: input.uses ?? 0,
    })
    .returning();
  return row!;
}

export type AccessCheck =
  | { status: "success" }
  | { status: "invalid" }
  | { status: "rate-limited"; retryAfterSeconds: number };

/**
 * Checks a code for an event. A correct code that is not used up or expired counts one use and
 * succeeds; a browser that already unlocked the event does not use the code up again.
 */
export async function checkAccessCode(
  db: Db,
  input: { eventId: string; code: string; clientAddress: string; alreadyUnlocked: boolean },
  now = new Date(),
): Promise<AccessCheck> {
  const { windowMs, perAddressAndEvent, perEvent } = ACCESS_CODE_LIMITS;
  const byAddress = await hitRateLimit(
    db,
    `access-code:${input.eventId}:${input.clientAddress}`,
    perAddressAndEvent,
    windowMs,
    now,
  );
  const byEvent = await hitRateLimit(db, `access-code:${input.eventId}`, perEvent, windowMs, now);
  if (!byAddress.allowed || !byEvent.allowed) {
    return {
      status: "rate-limited",
      retryAfterSeconds: Math.max(byAddress.retryAfterSeconds, byEvent.retryAfterSeconds),
    };
  }
  if (!input.code.trim()) return { status: "invalid" };

  const usable = and(
    eq(eventAccessCode.eventId, input.eventId),
    eq(eventAccessCode.codeHash, hashAccessCode(input.code)),
    or(isNull(eventAccessCode.expiresAt), gt(eventAccessCode.expiresAt, now)),
  );
  if (input.alreadyUnlocked) {
    const [known] = await db.select({ id: eventAccessCode.id }).from(eventAccessCode).where(usable);
    return known ? { status: "success" } : { status: "invalid" };
  }
  // One statement, so two people racing for the last use cannot both get it.
  const [claimed] = await db
    .update(eventAccessCode)
    .set({ uses: sql`${eventAccessCode.uses} + 1` })
    .where(
      and(
        usable,
        or(isNull(eventAccessCode.maxUses), lt(eventAccessCode.uses, eventAccessCode.maxUses)),
      ),
    )
    .returning({ id: eventAccessCode.id });
  return claimed ? { status: "success" } : { status: "invalid" };
}

/** Remembers, in a signed cookie, which private events this browser has unlocked. */
export function unlockedEventsCookie() {
  const settings = config();
  return createCookie("mhat_unlocked_events", {
    httpOnly: true,
    sameSite: "lax",
    secure: settings.isProduction,
    path: "/",
    maxAge: 12 * 60 * 60,
    secrets: [hashKey()],
  });
}

export async function readUnlockedEvents(request: Request): Promise<string[]> {
  const value = await unlockedEventsCookie().parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

export async function unlockEventCookieHeader(request: Request, eventId: string): Promise<string> {
  const unlocked = await readUnlockedEvents(request);
  const next = [eventId, ...unlocked.filter((id) => id !== eventId)].slice(0, 20);
  return unlockedEventsCookie().serialize(next);
}
