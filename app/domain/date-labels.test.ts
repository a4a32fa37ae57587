import { describe, expect, it } from "vitest";
import { formatCardDate, formatLondonTime, formatLongDate } from "./date-labels";

describe("date labels", () => {
  it("prints the spec's long and card dates", () => {
    expect(formatLongDate("2024-01-05")).toBe("Friday, 05 January 2024");
    expect(formatCardDate("2024-01-05")).toBe("Friday 5 January 2024");
  });

  it("prints London clock times in summer and winter", () => {
    expect(formatLondonTime(new Date("2026-07-01T13:32:00Z"))).toBe("14:32");
    expect(formatLondonTime("2026-12-01T13:32:00Z")).toBe("13:32");
  });
});
