/**
 * Failed sign-ins allowed in 15 minutes (ASVS 6.3.1). The tight limit is per account *and* client
 * address, so someone guessing elsewhere never locks the owner out of their account from their own
 * address; the per-account ceiling is high enough to stop only a guess spread over many addresses,
 * and the per-address limit stops one address trying many accounts.
 */
export const SIGN_IN_LIMITS = {
  windowMs: 15 * 60_000,
  perAccountAndAddress: 10,
  perAccount: 100,
  perAddress: 50,
} as const;

/** Failures counted so far in a limit's current window, and the seconds until it ends. */
export interface FailureCount {
  hits: number;
  retryAfterSeconds: number;
}

/**
 * Whether a sign-in may be tried now; if not, how long to wait: until every limit reached has
 * ended its window.
 */
export function signInThrottle(
  failures: { accountAndAddress: FailureCount; account: FailureCount; address: FailureCount },
  limits: Omit<typeof SIGN_IN_LIMITS, "windowMs"> = SIGN_IN_LIMITS,
): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  const reached = [
    [failures.accountAndAddress, limits.perAccountAndAddress],
    [failures.account, limits.perAccount],
    [failures.address, limits.perAddress],
  ] as const;
  const waits = reached
    .filter(([count, limit]) => count.hits >= limit)
    .map(([count]) => Math.max(1, count.retryAfterSeconds));
  return waits.length
    ? { allowed: false, retryAfterSeconds: Math.max(...waits) }
    : { allowed: true };
}
