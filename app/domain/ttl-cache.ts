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
 * A map whose entries expire after `ttlMs` (or sooner, when `set` is given a shorter lifetime), for
 * values made elsewhere (a page captured as it is sent). `clear()` also moves the generation on, so
 * that a value made from data read before the clear is refused: `set` takes the generation seen
 * when the work began. With `weigh` and `maxWeight`, the entries stored longest ago are dropped
 * until the rest weigh no more than that.
 */
export function createTtlMap<V>(options: {
  ttlMs: number;
  maxEntries: number;
  weigh?: (value: V) => number;
  maxWeight?: number;
  now?: () => number;
}) {
  const { ttlMs, maxEntries, weigh = () => 0, maxWeight = Infinity, now = Date.now } = options;
  const entries = new Map<string, { expires: number; value: V; weight: number }>();
  let generation = 0;
  let totalWeight = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    totalWeight -= entry.weight;
    entries.delete(key);
  };
  return {
    get(key: string): V | undefined {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.expires > now()) return hit.value;
      remove(key);
      return undefined;
    },
    /** The generation to hand back to `set` when the value is ready. */
    generation: () => generation,
    /**
     * Keeps `value` for `lifetimeMs` (at most `ttlMs`) unless the map was cleared since
     * `seenGeneration` or the value alone outweighs `maxWeight`; says whether it kept it.
     */
    set(key: string, value: V, seenGeneration: number, lifetimeMs = ttlMs): boolean {
      if (seenGeneration !== generation) return false;
      const weight = weigh(value);
      remove(key);
      if (weight > maxWeight || lifetimeMs <= 0) return false;
      entries.set(key, { expires: now() + Math.min(lifetimeMs, ttlMs), value, weight });
      totalWeight += weight;
      // Maps keep insertion order, so the first key is the one stored longest ago.
      while (entries.size > maxEntries || totalWeight > maxWeight)
        remove(entries.keys().next().value!);
      return true;
    },
    clear() {
      generation += 1;
      entries.clear();
      totalWeight = 0;
    },
    get size() {
      return entries.size;
    },
  };
}
