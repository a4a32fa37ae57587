import { describe, expect, it } from "vitest";
import { daysBetween, isCalendarDate } from "./calendar-date";

describe("isCalendarDate", () => {
  it("knows real calendar dates", () => {
    expect(isCalendarDate("2028-02-29")).toBe(true);
    expect(isCalendarDate("2026-02-29")).toBe(false);
    expect(isCalendarDate("2026-02-30")).toBe(false);
    expect(isCalendarDate("2026-13-01")).toBe(false);
    expect(isCalendarDate("26-01-01")).toBe(false);
    expect(isCalendarDate("1999-12-31")).toBe(false);
    expect(isCalendarDate("2026-06-10 ")).toBe(false);
  });
});

describe("days between two dates", () => {
  it("counts whole days, across a month and a clock change", () => {
    expect(daysBetween("2026-10-20", "2026-11-10")).toBe(21);
    expect(daysBetween("2026-03-28", "2026-03-30")).toBe(2);
    expect(daysBetween("2026-06-10", "2026-06-09")).toBe(-1);
  });
});
