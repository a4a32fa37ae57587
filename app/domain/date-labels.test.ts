import { describe, expect, it } from "vitest";
import {
  formatCardDate,
  formatLondonDateTime,
  formatLondonTime,
  formatLongDate,
} from "./date-labels";

describe("date labels", () => {
  it("prints the spec's long and card dates", () => {
    expect(formatLongDate("2024-01-05")).toBe("Friday, 05 January 2024");
    expect(formatCardDate("2024-01-05")).toBe("Friday 5 January 2024");
  });

  it("prints London clock times in summer and winter", () => {
    expect(formatLondonTime(new Date("2026-07-01T13:32:00Z"))).toBe("14:32");
    expect(formatLondonTime("2026-12-01T13:32:00Z")).toBe("13:32");
  });

  it("prints an instant's London date and time, past midnight in summer", () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
    expect(formatLondonDateTime(new Date("2026-06-30T23:30:00Z"))).toBe(
      "Wednesday, 01 July 2026, 00:30",
    );
    expect(formatLondonDateTime("2026-12-01T13:32:00Z", " at ")).toBe(
      "Tuesday, 01 December 2026 at 13:32",
    );
  });
});
