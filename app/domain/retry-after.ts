/** "1 minute", "15 minutes": a Retry-After in whole minutes, rounded up, as people are told it. */
export function minutesToWait(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
