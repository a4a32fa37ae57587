import { describe, expect, it } from "vitest";
import {
  ageAtSample,
  ageOn,
  birthdayOf,
  isEligibleAge,
  readDateOfBirth,
  registerFrom,
} from "./age";

describe("ageOn", () => {
  it("counts a birthday on the day itself", () => {
    expect(ageOn("1986-06-15", "2026-06-14")).toBe(39);
    expect(ageOn("1986-06-15", "2026-06-15")).toBe(40);
  });
  it("gives someone born on 29 February their birthday on 1 March in other years", () => {
    expect(ageOn("1984-02-29", "2024-02-29")).toBe(40);
    expect(ageOn("1985-02-28", "2025-02-28")).toBe(40);
    expect(ageOn("1984-02-29", "2025-02-28")).toBe(40);
    expect(ageOn("1988-02-29", "2028-02-28")).toBe(39);
    expect(ageOn("1988-02-29", "2028-02-29")).toBe(40);
    expect(ageOn("1986-02-28", "2026-03-01")).toBe(40);
    expect(ageOn("1984-02-29", "2026-02-28")).toBe(41);
    expect(ageOn("1986-03-01", "2026-02-28")).toBe(39);
  });
  it("turns a 29 February child one year older on 1 March of a common year", () => {
    expect(ageOn("1986-02-28", "2026-02-28")).toBe(40);
    expect(ageOn("1984-02-29", "2023-02-28")).toBe(38);
    expect(ageOn("1984-02-29", "2023-03-01")).toBe(39);
  });
});

describe("ageAtSample", () => {
  it("counts to the sample date, or to the event's day without one", () => {
    // His 50th birthday falls between the event and the laboratory's sample date.
    expect(ageAtSample("1976-06-15", "2026-06-20", "2026-06-10")).toBe(50);
    expect(ageAtSample("1976-06-15", null, "2026-06-10")).toBe(49);
    expect(ageAtSample(null, "2026-06-20", "2026-06-10")).toBeNull();
  });
});

describe("isEligibleAge", () => {
  it("accepts 40 to 80 inclusive", () => {
    expect(isEligibleAge("1986-11-22", "2026-11-22")).toBe(true); // 40 today
    expect(isEligibleAge("1986-11-23", "2026-11-22")).toBe(false); // 40 tomorrow
    expect(isEligibleAge("1946-11-22", "2026-11-22")).toBe(true); // 80 today
    expect(isEligibleAge("1945-11-23", "2026-11-22")).toBe(true); // 80, 81 tomorrow
    expect(isEligibleAge("1945-11-22", "2026-11-22")).toBe(false); // 81 today
    expect(isEligibleAge("1991-05-01", "2026-11-22")).toBe(false); // 35
  });
});

describe("readDateOfBirth", () => {
  const today = "2026-11-22";
  it("reads three fields into a date", () => {
    expect(readDateOfBirth({ day: "15", month: "3", year: "1964" }, today)).toEqual({
      ok: true,
      date: "1964-03-15",
    });
  });
  it("says what is missing", () => {
    expect(readDateOfBirth({ day: "", month: "", year: "" }, today)).toEqual({
      ok: false,
      message: "Enter your date of birth",
    });
    expect(readDateOfBirth({ day: "15", month: "", year: "" }, today)).toEqual({
      ok: false,
      message: "Date of birth must include a month and year",
    });
  });
  it("says which part is wrong where it can: a short year, a month or day out of range", () => {
    const message = (parts: { day: string; month: string; year: string }) => {
      const read = readDateOfBirth(parts, today);
      return read.ok ? read.date : read.message;
    };
    expect(message({ day: "15", month: "3", year: "52" })).toBe("Year must include 4 numbers");
    expect(message({ day: "3", month: "15", year: "1952" })).toBe(
      "Month must be a number from 1 to 12",
    );
    expect(message({ day: "0", month: "3", year: "1952" })).toBe(
      "Day must be a number from 1 to 31",
    );
    expect(message({ day: "32", month: "3", year: "1952" })).toBe(
      "Day must be a number from 1 to 31",
    );
  });
  it("takes a month typed as its name or short name (found by a review)", () => {
    for (const month of ["March", "mar", "MAR.", "3", "03", "marc"])
      expect(readDateOfBirth({ day: "15", month, year: "1964" }, today)).toEqual({
        ok: true,
        date: "1964-03-15",
      });
    expect(readDateOfBirth({ day: "1", month: "Sept", year: "1960" }, today)).toEqual({
      ok: true,
      date: "1960-09-01",
    });
    // "Ma" could be March or May: he is asked for the number.
    expect(readDateOfBirth({ day: "1", month: "Ma", year: "1960" }, today)).toEqual({
      ok: false,
      message: "Month must be a number from 1 to 12",
    });
  });

  it("names every part that is wrong at once, so that one round of corrections is enough (found by a review)", () => {
    expect(readDateOfBirth({ day: "40", month: "Smarch", year: "51" }, today)).toEqual({
      ok: false,
      message:
        "Year must include 4 numbers, and month must be a number from 1 to 12, and day must be a number from 1 to 31",
    });
    expect(readDateOfBirth({ day: "4", month: "13", year: "51" }, today)).toEqual({
      ok: false,
      message: "Year must include 4 numbers, and month must be a number from 1 to 12",
    });
  });

  it("refuses dates that do not exist", () => {
    for (const parts of [
      { day: "31", month: "2", year: "1970" },
      { day: "29", month: "2", year: "1970" },
      { day: "31", month: "4", year: "1970" },
      { day: "aa", month: "1", year: "1970" },
      { day: "1", month: "1", year: "19700" },
    ]) {
      expect(readDateOfBirth(parts, today)).toEqual({
        ok: false,
        message: "Date of birth must be a real date",
      });
    }
    expect(readDateOfBirth({ day: "29", month: "2", year: "1972" }, today)).toEqual({
      ok: true,
      date: "1972-02-29",
    });
  });
  it("refuses a date in the future", () => {
    expect(readDateOfBirth({ day: "23", month: "11", year: "2026" }, today)).toEqual({
      ok: false,
      message: "Date of birth must be in the past",
    });
  });
});

describe("the day he may register", () => {
  it("is his 40th birthday while he is under 40", () => {
    expect(registerFrom("1987-04-12", "2026-11-25")).toBe("2027-04-12");
    expect(registerFrom("1986-11-26", "2026-11-25")).toBe("2026-11-26");
  });

  it("is no other day once he is 40 or more (too old is another matter)", () => {
    expect(registerFrom("1986-11-25", "2026-11-25")).toBeNull();
    expect(registerFrom("1940-01-01", "2026-11-25")).toBeNull();
  });

  it("falls on 1 March when born on 29 February and the year is not a leap year", () => {
    expect(birthdayOf("1988-02-29", 40)).toBe("2028-02-29");
    expect(birthdayOf("1987-02-28", 40)).toBe("2027-02-28");
    expect(birthdayOf("1992-02-29", 40)).toBe("2032-02-29");
    expect(birthdayOf("1996-02-29", 39)).toBe("2035-03-01");
  });
});
