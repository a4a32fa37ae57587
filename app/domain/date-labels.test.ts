import { describe, expect, it } from "vitest";
import {
  formatMinutesFromNow,
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

describe("formatMinutesFromNow", () => {
  const now = new Date("2026-06-01T09:24:00Z");
  const after = (ms: number) => new Date(now.getTime() + ms);
  it("says how many whole minutes are left, rounded", () => {
    expect(formatMinutesFromNow(after(15 * 60_000), now)).toBe("15 minutes from now");
    expect(formatMinutesFromNow(after(4 * 60_000 - 2_000), now)).toBe("4 minutes from now");
    expect(formatMinutesFromNow(after(60_000), now)).toBe("1 minute from now");
    expect(formatMinutesFromNow(after(20_000), now)).toBe("less than a minute from now");
    expect(formatMinutesFromNow(now, now)).toBe("now");
  });
});
