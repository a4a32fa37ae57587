import { describe, expect, it } from "vitest";
import { limitKeyForAddress } from "./client-address";

describe("limitKeyForAddress", () => {
  it("keeps an IPv4 address as it is, also when written as IPv6", () => {
    expect(limitKeyForAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(limitKeyForAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every address of one IPv6 /64 as one", () => {
    const key = "2001:db8:12:34::/64";
    expect(limitKeyForAddress("2001:db8:12:34::1")).toBe(key);
    expect(limitKeyForAddress("2001:0db8:0012:0034:ffff:1:2:3")).toBe(key);
    expect(limitKeyForAddress("2001:DB8:12:34:a::b")).toBe(key);
    expect(limitKeyForAddress("2001:db8:12:35::1")).not.toBe(key);
  });

  it("reads short forms with the gap anywhere", () => {
    expect(limitKeyForAddress("::1")).toBe("0:0:0:0::/64");
    expect(limitKeyForAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("gives the /48 a site holds, when asked for it", () => {
    expect(limitKeyForAddress("2001:db8:7:1::1", 48)).toBe("2001:db8:7::/48");
    expect(limitKeyForAddress("2001:0db8:0007:ffff:1:2:3:4", 48)).toBe("2001:db8:7::/48");
    expect(limitKeyForAddress("203.0.113.9", 48)).toBe("203.0.113.9");
  });
});
