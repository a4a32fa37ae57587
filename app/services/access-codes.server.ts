import crypto from "node:crypto";
import { and, eq, gt, isNull, lt, notExists, or, sql, type SQL } from "drizzle-orm";
import { createCookie } from "react-router";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { eventAccessCode, eventUnlock } from "#app/db/schema";
import { limitKeyForAddress } from "#app/domain/client-address";
import { minutesToWait } from "#app/domain/retry-after";
import { findEvent, sharedEvent, type EventView } from "./events.server";
import { hitRateLimit, peekRateLimit } from "./rate-limit.server";
import { serverSecret } from "./secrets.server";
import { isUuid } from "#app/domain/ids";

export const ACCESS_CODE_MESSAGES = {
  invalid: "Invalid Access code",
  /** The spec's words, then why, when the code was right but can no longer be used. */
  expired:
    "Invalid Access code: this code has expired. Please ask the event's organiser for a new one.",
  usedUp:
    "Invalid Access code: this code has been used as many times as it allows. Please ask the event's organiser for a new one.",
  publicEvent: "This event is public and needs no access code",
  /** The wait is the real one, as in the Retry-After header. */
  tooMany: (retryAfterSeconds: number) =>
    `Too many attempts. Please wait ${minutesToWait(retryAfterSeconds)} and try again, or e-mail us for help.`,
} as const;

/**
 * Wrong codes allowed in 15 minutes: per address (an IPv6 /64 counts as one) for one event, and
 * for one event from everywhere. Only wrong codes count. Once the event's limit is reached (guesses
 * from many addresses), an address is still let try `whileEventLimited` times of its own, so that
 * nobody can lock everyone else out of a private event; the guessers get fewer tries each, and
 * those tries count per IPv6 /48 (one holder of many /64s gets three, not three per /64).
 */
export const ACCESS_CODE_LIMITS = {
  windowMs: 15 * 60_000,
  perAddressAndEvent: 10,
  perEvent: 200,
  whileEventLimited: 3,
};

// Keyed with the server secret: a copy of the database alone is not enough to test guesses.
const hashKey = () => serverSecret();

/**
 * People type codes in any case, with spaces or dashes where the code has them or not ("k7qm
 * 4xpd w2ht" for "K7QM-4XPD-W2HT"): only its letters and digits count, and the stored hash is of
 * those (D-213).
 */
export function normaliseAccessCode(code: string) {
  return code
    .normalize("NFKC")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");
}

/** How codes made before D-213 were kept: only spaces taken out, dashes kept. */
function normaliseAccessCodeAsBefore(code: string) {
  return code.trim().replace(/\s+/g, "").toUpperCase();
}

const keyedHash = (tidied: string) =>
  crypto.createHmac("sha256", hashKey()).update(tidied).digest("hex");

/** A keyed hash: a copy of the database alone is not enough to test guesses offline. */
export function hashAccessCode(code: string) {
  return keyedHash(normaliseAccessCode(code));
}

/**
 * The hashes a typed code may be kept under, today's first: a code made before D-213 is found
 * when typed with its dashes. None for a code with no letters or digits.
 */
export function accessCodeHashes(code: string): string[] {
  if (!normaliseAccessCode(code)) return [];
  const hashes = [hashAccessCode(code)];
  const asBefore = keyedHash(normaliseAccessCodeAsBefore(code));
  return asBefore === hashes[0] ? hashes : [...hashes, asBefore];
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

/** Why a code that matches the event was refused: a wrong code has no reason. */
export type RefusedCodeReason = "expired" | "used-up";

export type AccessCheck =
  | { status: "success" }
  | { status: "invalid"; reason?: RefusedCodeReason }
  | { status: "rate-limited"; retryAfterSeconds: number };

type CodeCheck =
  Exclude<AccessCheck, { status: "success" }> | { status: "success"; codeId: string };

/**
 * How a right code is taken:
 * - "claim": it counts one use (refused once used up): a person unlocking the event for themselves;
 * - "available": it must have a use left, but counts none: a visitor who has not signed in yet
 *   (the use is counted when the unlock becomes a person's, on the booking page);
 * - "known": it need only exist and work: someone who unlocked the event before, typing it again.
 */
type CodeMode = "claim" | "available" | "known";

/**
 * Checks a code for an event. A correct code that is not used up or expired counts one use and
 * succeeds; one that already unlocked the event (`alreadyUnlocked`) does not count again.
 */
export async function checkAccessCode(
  db: Db,
  input: { eventId: string; code: string; clientAddress: string; alreadyUnlocked: boolean },
  now = new Date(),
): Promise<AccessCheck> {
  const checked = await verifyAccessCode(
    db,
    { ...input, mode: input.alreadyUnlocked ? "known" : "claim" },
    now,
  );
  return checked.status === "success" ? { status: "success" } : checked;
}

async function verifyAccessCode(
  db: Db,
  input: { eventId: string; code: string; clientAddress: string; mode: CodeMode },
  now: Date,
): Promise<CodeCheck> {
  const { windowMs, perAddressAndEvent, perEvent, whileEventLimited } = ACCESS_CODE_LIMITS;
  const addressKey = `access-code-failures:${input.eventId}:${limitKeyForAddress(input.clientAddress)}`;
  const networkKey = `access-code-failures:${input.eventId}:net:${limitKeyForAddress(input.clientAddress, 48)}`;
  const eventKey = `access-code-failures:${input.eventId}`;
  const [byAddress, byNetwork, byEvent] = await Promise.all([
    peekRateLimit(db, addressKey, windowMs, now),
    peekRateLimit(db, networkKey, windowMs, now),
    peekRateLimit(db, eventKey, windowMs, now),
  ]);
  if (byAddress.hits >= perAddressAndEvent)
    return { status: "rate-limited", retryAfterSeconds: byAddress.retryAfterSeconds };
  if (byEvent.hits >= perEvent && Math.max(byAddress.hits, byNetwork.hits) >= whileEventLimited)
    return { status: "rate-limited", retryAfterSeconds: byEvent.retryAfterSeconds };

  const hashes = accessCodeHashes(input.code);
  for (const [index, codeHash] of hashes.entries()) {
    const codeId = await acceptedCodeId(
      db,
      and(eq(eventAccessCode.eventId, input.eventId), eq(eventAccessCode.codeHash, codeHash))!,
      input.mode,
      now,
    );
    if (!codeId) continue;
    // A code kept the way codes were before: kept as today's from now on, so that it is found
    // however it is typed (unless a code with today's hash is there already, which stays first).
    if (index > 0)
      await db
        .update(eventAccessCode)
        .set({ codeHash: hashes[0]! })
        .where(
          and(
            eq(eventAccessCode.id, codeId),
            notExists(
              db
                .select({ id: sql`1` })
                .from(eventAccessCode)
                .where(
                  and(
                    eq(eventAccessCode.eventId, input.eventId),
                    eq(eventAccessCode.codeHash, hashes[0]!),
                  ),
                ),
            ),
          ),
        );
    return { status: "success", codeId };
  }
  await hitRateLimit(db, addressKey, perAddressAndEvent, windowMs, now);
  await hitRateLimit(db, networkKey, perAddressAndEvent, windowMs, now);
  await hitRateLimit(db, eventKey, perEvent, windowMs, now);
  for (const codeHash of hashes) {
    const reason = await refusedCodeReason(db, input.eventId, codeHash, input.mode, now);
    if (reason) return { status: "invalid", reason };
  }
  return { status: "invalid" };
}

/**
 * Why this event's code with this hash was not accepted, when it is the right code: expired, or
 * used up (a revoked code, like a wrong one, has no reason to give).
 */
async function refusedCodeReason(
  db: Db,
  eventId: string,
  codeHash: string,
  mode: CodeMode,
  now: Date,
): Promise<RefusedCodeReason | null> {
  const [row] = await db
    .select({
      expiresAt: eventAccessCode.expiresAt,
      revokedAt: eventAccessCode.revokedAt,
      uses: eventAccessCode.uses,
      maxUses: eventAccessCode.maxUses,
    })
    .from(eventAccessCode)
    .where(and(eq(eventAccessCode.eventId, eventId), eq(eventAccessCode.codeHash, codeHash)));
  if (!row || row.revokedAt) return null;
  if (row.expiresAt && row.expiresAt <= now) return "expired";
  if (mode !== "known" && row.maxUses !== null && row.uses >= row.maxUses) return "used-up";
  return null;
}

/** The id of the code `which` picks out, if it is accepted in this mode (and, to claim, counted). */
async function acceptedCodeId(
  db: Db,
  which: SQL,
  mode: CodeMode,
  now: Date,
): Promise<string | null> {
  const usable = and(
    which,
    or(isNull(eventAccessCode.expiresAt), gt(eventAccessCode.expiresAt, now)),
    isNull(eventAccessCode.revokedAt),
  );
  const useLeft = or(
    isNull(eventAccessCode.maxUses),
    lt(eventAccessCode.uses, eventAccessCode.maxUses),
  );
  if (mode !== "claim") {
    const [found] = await db
      .select({ id: eventAccessCode.id })
      .from(eventAccessCode)
      .where(mode === "known" ? usable : and(usable, useLeft));
    return found?.id ?? null;
  }
  // One statement, so two people racing for the last use cannot both get it.
  const [claimed] = await db
    .update(eventAccessCode)
    .set({ uses: sql`${eventAccessCode.uses} + 1` })
    .where(and(usable, useLeft))
    .returning({ id: eventAccessCode.id });
  return claimed?.id ?? null;
}

/** The answer to "unlock this private event with this code", the same for the page and the API. */
export type UnlockResult =
  | { status: 200; setCookie: string }
  | { status: 400 | 403 | 404; error: string }
  | { status: 429; error: string; retryAfterSeconds: number };

/**
 * The one access-code check behind the event page's form and POST /api/events/{id}/check-access-code:
 * the same statuses from both. 404 unknown event, 400 public event or no code, 403 wrong code,
 * 429 too many wrong codes (with the real wait), 200 with the cookie that remembers the unlock in
 * this browser. For someone signed in (`userId`), the unlock is kept on the server as theirs, and
 * that is what taking a place checks.
 */
export async function unlockPrivateEvent(
  db: Db,
  request: Request,
  input: { eventId: string | undefined; code: string; clientAddress: string; userId?: string },
  now = new Date(),
): Promise<UnlockResult> {
  const view = await findEvent(db, input.eventId);
  if (!view) return { status: 404, error: "Event not found" };
  if (!view.is_private) return { status: 400, error: ACCESS_CODE_MESSAGES.publicEvent };
  if (!input.code.trim()) return { status: 400, error: ACCESS_CODE_MESSAGES.invalid };
  // A person who unlocked it before, or a visitor whose browser did, does not use the code up
  // again; a person unlocking it now counts one use; a visitor's use is counted when the unlock
  // becomes a person's (claimBrowserUnlocks).
  const mode: CodeMode =
    input.userId !== undefined
      ? (await hasUnlocked(db, view.id, input.userId))
        ? "known"
        : "claim"
      : (await readBrowserUnlocks(request)).some((unlock) => unlock.eventId === view.id)
        ? "known"
        : "available";
  const result = await verifyAccessCode(
    db,
    { eventId: view.id, code: input.code.slice(0, 100), clientAddress: input.clientAddress, mode },
    now,
  );
  if (result.status === "rate-limited") {
    return {
      status: 429,
      error: ACCESS_CODE_MESSAGES.tooMany(result.retryAfterSeconds),
      retryAfterSeconds: result.retryAfterSeconds,
    };
  }
  if (result.status === "invalid") return { status: 403, error: refusalMessage(result.reason) };
  const unlock = { eventId: view.id, codeId: result.codeId };
  if (input.userId !== undefined) await recordUnlock(db, input.userId, unlock, now);
  return { status: 200, setCookie: await browserUnlockCookieHeader(request, unlock) };
}

function refusalMessage(reason: RefusedCodeReason | undefined) {
  if (reason === "expired") return ACCESS_CODE_MESSAGES.expired;
  if (reason === "used-up") return ACCESS_CODE_MESSAGES.usedUp;
  return ACCESS_CODE_MESSAGES.invalid;
}

/**
 * An event's page for one visitor: the event, and whether its private booking is open to them
 * (this browser gave its code, or the signed-in person did, anywhere). Taking a place checks the
 * person's own unlock again. Null for an event that is not there to show.
 */
export async function eventPageFor(
  db: Db,
  eventId: string | undefined,
  visitor: { userId: string | null; browserUnlocks: readonly BrowserUnlock[] },
): Promise<{ event: EventView; unlocked: boolean } | null> {
  // What the page shows of the event is shared for two seconds; who may book is decided elsewhere.
  const view = await sharedEvent(db, eventId);
  if (!view) return null;
  const unlocked =
    view.is_private &&
    (visitor.browserUnlocks.some((unlock) => unlock.eventId === view.id) ||
      (visitor.userId !== null && (await hasUnlocked(db, view.id, visitor.userId))));
  return { event: view, unlocked };
}

/**
 * Whether this person has unlocked this private event with a code that still works for it (a
 * revoked code closes the event again to those who used it, for new bookings).
 */
export async function hasUnlocked(db: Db, eventId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ eventId: eventUnlock.eventId })
    .from(eventUnlock)
    .innerJoin(eventAccessCode, eq(eventAccessCode.id, eventUnlock.accessCodeId))
    .where(
      and(
        eq(eventUnlock.eventId, eventId),
        eq(eventUnlock.userId, userId),
        eq(eventAccessCode.eventId, eventId),
        isNull(eventAccessCode.revokedAt),
      ),
    );
  return Boolean(row);
}

export interface BrowserUnlock {
  eventId: string;
  codeId: string;
}

async function recordUnlock(db: Db, userId: string, unlock: BrowserUnlock, now: Date) {
  await db
    .insert(eventUnlock)
    .values({ eventId: unlock.eventId, userId, accessCodeId: unlock.codeId, unlockedAt: now })
    .onConflictDoUpdate({
      target: [eventUnlock.eventId, eventUnlock.userId],
      set: { accessCodeId: unlock.codeId, unlockedAt: now },
    });
}

/**
 * Makes unlocks this browser got before its visitor signed in (its signed cookie) this person's,
 * counting one use of each code as entering it signed in would: a code for ten lodge members
 * opens the event for ten accounts, however its cookie is passed around. Returns the unlocks it
 * took, which the page then drops from the cookie.
 */
export async function claimBrowserUnlocks(
  db: Db,
  userId: string,
  unlocks: readonly BrowserUnlock[],
  now = new Date(),
): Promise<BrowserUnlock[]> {
  const claimed: BrowserUnlock[] = [];
  for (const unlock of unlocks) {
    if (await hasUnlocked(db, unlock.eventId, userId)) {
      claimed.push(unlock);
      continue;
    }
    const codeId = await acceptedCodeId(
      db,
      and(eq(eventAccessCode.id, unlock.codeId), eq(eventAccessCode.eventId, unlock.eventId))!,
      "claim",
      now,
    );
    if (!codeId) continue;
    await recordUnlock(db, userId, unlock, now);
    claimed.push(unlock);
  }
  return claimed;
}

/** Remembers, in a signed cookie, which private events this browser has unlocked, and with which code. */
export function unlockedEventsCookie() {
  const settings = config();
  // "__Host-" in production: only this host, over https, for the whole site.
  const name = settings.isProduction ? "__Host-mhat_unlocked_events" : "mhat_unlocked_events";
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    secure: settings.isProduction,
    path: "/",
    maxAge: 12 * 60 * 60,
    secrets: [hashKey()],
  });
}

/** The unlocks this browser's signed cookie carries ("eventId:codeId"; older forms are ignored). */
export async function readBrowserUnlocks(request: Request): Promise<BrowserUnlock[]> {
  const value: unknown = await unlockedEventsCookie().parse(request.headers.get("Cookie"));
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (typeof entry !== "string") return [];
    const [eventId, codeId] = entry.split(":");
    return eventId && codeId && isUuid(eventId) && isUuid(codeId) ? [{ eventId, codeId }] : [];
  });
}

/** The unlock cookie without these events (they are a person's now, kept on the server). */
export async function browserUnlockCookieWithout(
  request: Request,
  eventIds: readonly string[],
): Promise<string> {
  const left = (await readBrowserUnlocks(request)).filter(
    (entry) => !eventIds.includes(entry.eventId),
  );
  return unlockedEventsCookie().serialize(left.map((entry) => `${entry.eventId}:${entry.codeId}`));
}

async function browserUnlockCookieHeader(request: Request, unlock: BrowserUnlock): Promise<string> {
  const earlier = (await readBrowserUnlocks(request)).filter(
    (entry) => entry.eventId !== unlock.eventId,
  );
  const next = [unlock, ...earlier].slice(0, 20).map((entry) => `${entry.eventId}:${entry.codeId}`);
  return unlockedEventsCookie().serialize(next);
}
