import { describe, expect, it } from "vitest";
import {
  addBusinessDays,
  businessDaysBetween,
  isBankHoliday,
  isBusinessDay,
  lastDayWithBusinessDaysBefore,
} from "./business-days";

// Dates checked by hand against the published bank holidays for England and Wales:
// 2026: Good Friday 3 April, Easter Monday 6 April, Christmas Friday 25 December, Boxing Day
// Saturday 26 December with its substitute Monday 28 December; 2023's coronation Monday 8 May.
describe("bank holidays and business days (England and Wales)", () => {
  it.each([
    ["2026-04-03", true],
    ["2026-04-06", true],
    ["2026-12-28", true],
    ["2023-05-08", true],
    ["2026-04-07", false],
    ["2026-11-24", false],
  ])("%s is a bank holiday: %s", (day, expected) => {
    expect(isBankHoliday(day)).toBe(expected);
  });

  it.each([
    ["2026-11-24", true], // a Tuesday
    ["2026-11-28", false], // a Saturday
    ["2026-11-29", false], // a Sunday
    ["2026-04-03", false], // Good Friday
    ["2026-12-28", false], // Boxing Day's substitute
    ["2026-12-29", true],
  ])("%s is a business day: %s", (day, expected) => {
    expect(isBusinessDay(day)).toBe(expected);
  });
});

describe("businessDaysBetween counts whole business days strictly between", () => {
  it.each([
    ["Monday to Friday", "2026-11-23", "2026-11-27", 3],
    ["over Easter", "2026-04-01", "2026-04-08", 2], // Thu 2, Tue 7 (not Fri 3 or Mon 6)
    ["over Christmas", "2026-12-22", "2026-12-30", 3], // Wed 23, Thu 24, Tue 29
    ["over a weekend", "2026-11-27", "2026-11-30", 0],
    ["the same day", "2026-11-24", "2026-11-24", 0],
    ["backwards", "2026-11-24", "2026-11-20", 0],
  ])("%s", (_, from, to, expected) => {
    expect(businessDaysBetween(from, to)).toBe(expected);
  });
});

describe("addBusinessDays", () => {
  it.each([
    ["the next business day from a Friday", "2026-11-27", 1, "2026-11-30"],
    ["14 from 31 March 2026, over Easter", "2026-03-31", 14, "2026-04-22"],
    ["2 from Christmas Eve 2026", "2026-12-24", 2, "2026-12-30"],
  ])("%s", (_, day, count, expected) => {
    expect(addBusinessDays(day, count)).toBe(expected);
  });
});

describe("lastDayWithBusinessDaysBefore", () => {
  it.each([
    ["3 before Wednesday 8 April 2026 (Easter between)", "2026-04-08", 3, "2026-03-31"],
    ["2 before Thursday 26 November 2026", "2026-11-26", 2, "2026-11-23"],
    ["2 before Thursday 9 April 2026: Easter Monday itself", "2026-04-09", 2, "2026-04-06"],
  ])("%s", (_, to, count, expected) => {
    expect(lastDayWithBusinessDaysBefore(to, count)).toBe(expected);
  });
});
