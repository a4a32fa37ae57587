import { describe, expect, it } from "vitest";
import { isCalendarDate } from "./calendar-date";

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
