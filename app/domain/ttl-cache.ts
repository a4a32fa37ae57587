/**
 * A small cache of promises that expire after `ttlMs`. Keeping the promise, not the value, means
 * concurrent requests for a missing key share one computation. A failed computation is not kept.
 */
export function createTtlCache<V>(options: {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}) {
  const { ttlMs, maxEntries = 100, now = Date.now } = options;
  const entries = new Map<string, { expires: number; value: Promise<V> }>();
  return {
    get(key: string, compute: () => Promise<V>): Promise<V> {
      const hit = entries.get(key);
      if (hit && hit.expires > now()) return hit.value;
      const value = compute();
      entries.set(key, { expires: now() + ttlMs, value });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      // Maps keep insertion order, so the first key is the oldest.
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
    clear() {
      entries.clear();
    },
  };
}
