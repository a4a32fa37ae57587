import { describe, expect, it } from "vitest";
import { createTtlCache, createTtlMap } from "./ttl-cache";

describe("createTtlCache", () => {
  it("computes once within the lifetime, and again after it", async () => {
    let clock = 0;
    let calls = 0;
    const cache = createTtlCache<number>({ ttlMs: 1000, now: () => clock });
    const compute = async () => ++calls;
    expect(await cache.get("a", compute)).toBe(1);
    clock = 999;
    expect(await cache.get("a", compute)).toBe(1);
    clock = 1000;
    expect(await cache.get("a", compute)).toBe(2);
  });

  it("shares one computation between concurrent callers", async () => {
    let calls = 0;
    const cache = createTtlCache<number>({ ttlMs: 1000 });
    const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(++calls), 10));
    const results = await Promise.all([
      cache.get("k", slow),
      cache.get("k", slow),
      cache.get("k", slow),
    ]);
    expect(results).toEqual([1, 1, 1]);
  });

  it("does not keep a failure", async () => {
    const cache = createTtlCache<number>({ ttlMs: 1000 });
    await expect(cache.get("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("k", async () => 7)).toBe(7);
  });

  it("forgets everything when cleared, and the oldest key when full", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1000, maxEntries: 2 });
    await cache.get("a", async () => "a1");
    await cache.get("b", async () => "b1");
    await cache.get("c", async () => "c1");
    expect(await cache.get("a", async () => "a2")).toBe("a2");
    cache.clear();
    expect(await cache.get("c", async () => "c2")).toBe("c2");
  });
});

describe("createTtlMap", () => {
  it("gives back a value within its lifetime and forgets it after", () => {
    let clock = 0;
    const map = createTtlMap<string>({ ttlMs: 1000, maxEntries: 10, now: () => clock });
    expect(map.set("a", "page", map.generation())).toBe(true);
    clock = 999;
    expect(map.get("a")).toBe("page");
    clock = 1000;
    expect(map.get("a")).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it("refuses a value begun before a clear: it was made from data that has changed since", () => {
    const map = createTtlMap<string>({ ttlMs: 1000, maxEntries: 10 });
    const begun = map.generation();
    map.clear();
    expect(map.set("a", "stale page", begun)).toBe(false);
    expect(map.get("a")).toBeUndefined();
    expect(map.set("a", "fresh page", map.generation())).toBe(true);
    expect(map.get("a")).toBe("fresh page");
  });

  it("keeps at most maxEntries, dropping the one stored longest ago", () => {
    const map = createTtlMap<number>({ ttlMs: 1000, maxEntries: 2 });
    map.set("a", 1, map.generation());
    map.set("b", 2, map.generation());
    map.set("a", 3, map.generation()); // stored again: now the newest
    map.set("c", 4, map.generation());
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([3, undefined, 4]);
  });

  it("keeps a value no longer than the lifetime it is given, nor than ttlMs", () => {
    let clock = 0;
    const map = createTtlMap<string>({ ttlMs: 1000, maxEntries: 10, now: () => clock });
    map.set("short", "api answer", map.generation(), 200);
    map.set("long", "page", map.generation(), 5000);
    expect(map.set("none", "no-cache answer", map.generation(), 0)).toBe(false);
    clock = 199;
    expect([map.get("short"), map.get("long")]).toEqual(["api answer", "page"]);
    clock = 200;
    expect(map.get("short")).toBeUndefined();
    clock = 1000;
    expect(map.get("long")).toBeUndefined();
    expect(map.get("none")).toBeUndefined();
  });

  it("drops the values stored longest ago until the rest fit in maxWeight, and never keeps one that cannot", () => {
    const map = createTtlMap<string>({
      ttlMs: 1000,
      maxEntries: 10,
      weigh: (value) => value.length,
      maxWeight: 10,
    });
    map.set("a", "aaaa", map.generation());
    map.set("b", "bbbb", map.generation());
    map.set("c", "cccccc", map.generation()); // 14 > 10: "a" goes
    expect([map.get("a"), map.get("b"), map.get("c")]).toEqual([undefined, "bbbb", "cccccc"]);
    expect(map.set("d", "d".repeat(11), map.generation())).toBe(false);
    expect([map.get("b"), map.get("c"), map.get("d")]).toEqual(["bbbb", "cccccc", undefined]);
    // After a clear, the budget is whole again.
    map.clear();
    map.set("e", "e".repeat(10), map.generation());
    expect(map.get("e")).toBe("eeeeeeeeee");
  });
});
