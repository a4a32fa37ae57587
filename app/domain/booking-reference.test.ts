import { describe, expect, it } from "vitest";
import { generateBookingReference, normaliseBookingReference } from "./booking-reference";

describe("booking references", () => {
  it("have the charity's prefix and two groups of four characters without look-alikes", () => {
    for (let i = 0; i < 200; i++) {
      expect(generateBookingReference()).toMatch(
        /^MHAT-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{4}-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{4}$/,
      );
    }
  });

  it("map random bytes onto the alphabet", () => {
    const bytes = [0, 1, 31, 32, 63, 100, 200, 255];
    const reference = generateBookingReference((target) => {
      target.set(bytes);
      return target;
    });
    // 0→2, 1→3, 31→Z, 32→2, 63→Z, 100 (4)→6, 200 (8)→A, 255 (31)→Z
    expect(reference).toBe("MHAT-23Z2-Z6AZ");
  });

  it("are not repeated across many draws", () => {
    const seen = new Set(Array.from({ length: 5000 }, () => generateBookingReference()));
    expect(seen.size).toBe(5000);
  });

  it("are read as typed: any case, spaces, missing or extra dashes, with or without the prefix", () => {
    expect(normaliseBookingReference("MHAT-7KQ3-9XZ2")).toBe("MHAT-7KQ3-9XZ2");
    expect(normaliseBookingReference("mhat-7kq3-9xz2")).toBe("MHAT-7KQ3-9XZ2");
    expect(normaliseBookingReference(" mhat 7kq3 9xz2 ")).toBe("MHAT-7KQ3-9XZ2");
    expect(normaliseBookingReference("MHAT7KQ39XZ2")).toBe("MHAT-7KQ3-9XZ2");
    expect(normaliseBookingReference("7KQ3-9XZ2")).toBe("MHAT-7KQ3-9XZ2");
    expect(normaliseBookingReference("7kq39xz2")).toBe("MHAT-7KQ3-9XZ2");
    expect(normaliseBookingReference("MHAT--7KQ3--9XZ2")).toBe("MHAT-7KQ3-9XZ2");
  });

  it("refuses what cannot be a reference", () => {
    expect(normaliseBookingReference("")).toBeNull();
    expect(normaliseBookingReference("MHAT-7KQ3-9XZ")).toBeNull(); // too short
    expect(normaliseBookingReference("MHAT-7KQ3-9XZ22")).toBeNull(); // too long
    expect(normaliseBookingReference("MHAT-7KQ0-9XZ2")).toBeNull(); // 0 is not in the alphabet
    expect(normaliseBookingReference("MHAT-7KQO-9XZ2")).toBeNull(); // nor O
    expect(normaliseBookingReference("ABCD-7KQ3-9XZ2")).toBeNull(); // wrong prefix
    expect(normaliseBookingReference("MHAT-7KQ3-9XZ2' OR 1=1")).toBeNull();
  });
});
