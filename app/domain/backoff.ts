/** How long to wait before the next delivery attempt: doubling from 30 s, capped at one hour. */
export const MAX_DELIVERY_ATTEMPTS = 8;

export function nextAttemptDelayMs(attemptsSoFar: number): number {
  const base = 30_000;
  const cap = 60 * 60_000;
  return Math.min(cap, base * 2 ** Math.max(0, attemptsSoFar - 1));
}

export function shouldGiveUp(attemptsSoFar: number): boolean {
  return attemptsSoFar >= MAX_DELIVERY_ATTEMPTS;
}
