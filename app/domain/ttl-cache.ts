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

/**
 * A map whose entries expire after `ttlMs`, for values made elsewhere (a page captured as it is
 * sent). `clear()` also moves the generation on, so that a value made from data read before the
 * clear is refused: `set` takes the generation seen when the work began.
 */
export function createTtlMap<V>(options: {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}) {
  const { ttlMs, maxEntries, now = Date.now } = options;
  const entries = new Map<string, { expires: number; value: V }>();
  let generation = 0;
  return {
    get(key: string): V | undefined {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.expires > now()) return hit.value;
      entries.delete(key);
      return undefined;
    },
    /** The generation to hand back to `set` when the value is ready. */
    generation: () => generation,
    /** Keeps `value` unless the map was cleared since `seenGeneration`; says whether it kept it. */
    set(key: string, value: V, seenGeneration: number): boolean {
      if (seenGeneration !== generation) return false;
      entries.delete(key);
      entries.set(key, { expires: now() + ttlMs, value });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return true;
    },
    clear() {
      generation += 1;
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
