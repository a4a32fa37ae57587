/**
 * The key a per-address limit counts under. An IPv4 address is itself; an IPv6 address is its
 * /64 network, because one household or one server is normally given a whole /64 and can use
 * any address in it, so counting single IPv6 addresses would give it as many tries as it likes.
 * `prefixLength` 48 gives the site's whole allocation instead (a tunnel broker hands out a /48,
 * 65,536 /64s, for nothing): for a limit that must hold against one holder of many /64s.
 */
export function limitKeyForAddress(address: string, prefixLength: 48 | 64 = 64): string {
  const plain = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!plain.includes(":")) return plain;
  const withoutZone = plain.split("%")[0]!;
  const [head = "", tail = ""] = withoutZone.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = withoutZone.includes("::") ? 8 - headGroups.length - tailGroups.length : 0;
  const groups = [...headGroups, ...Array<string>(Math.max(0, missing)).fill("0"), ...tailGroups];
  const network = groups
    .slice(0, prefixLength / 16)
    .map((group) => group.replace(/^0+/, "") || "0")
    .join(":");
  return `${network}::/${prefixLength}`;
}
