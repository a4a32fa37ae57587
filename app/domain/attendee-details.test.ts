import { describe, expect, it } from "vitest";
import {
  ageOutsideScreeningProblem,
  ATTENDEE_DETAILS_MESSAGES,
  attendeeDetailsSchema,
  missingNhsNumberProblem,
} from "./attendee-details";
import { parseForm } from "./forms";

const TODAY = "2026-06-10";
const form = (values: Record<string, string>) =>
  parseForm(attendeeDetailsSchema(TODAY), {
    "dateOfBirth-day": "12",
    "dateOfBirth-month": "4",
    "dateOfBirth-year": "1958",
    nhsNumber: "943 476 5919",
    ...values,
  });

describe("the correction form", () => {
  it("reads the three date fields as one date and the NHS number without its spaces", () => {
    expect(form({})).toEqual({
      ok: true,
      data: { dateOfBirth: "1958-04-12", nhsNumber: "9434765919", ageConfirmed: false },
    });
    // The box carries the date it was shown for: it confirms that date and no other (found by a
    // review: ticked once, it passed another date typed afterwards).
    expect(form({ ageConfirmedFor: "1958-04-12" })).toMatchObject({
      ok: true,
      data: { ageConfirmed: true },
    });
    expect(form({ ageConfirmedFor: "1995-04-12" })).toMatchObject({
      ok: true,
      data: { ageConfirmed: false },
    });
  });

  it("takes any adult age: it records what is true, not who may book", () => {
    expect(form({ "dateOfBirth-year": "1936" })).toMatchObject({
      ok: true,
      data: { dateOfBirth: "1936-04-12" },
    });
  });

  it("asks to check an age outside 40 to 80 on the event's day, unless it was checked", () => {
    // Born 12 April 1986 he is 40 on 10 June 2026; born 11 June 1986, still 39.
    expect(ageOutsideScreeningProblem("1986-04-12", TODAY, false)).toBeNull();
    expect(ageOutsideScreeningProblem("1986-06-11", TODAY, false)).toMatch(
      /^That date of birth makes him 39 on the day of this event/,
    );
    expect(ageOutsideScreeningProblem("1986-06-11", TODAY, true)).toBeNull();
    expect(ageOutsideScreeningProblem("1945-06-10", TODAY, false)).toMatch(/makes him 81 /);
  });

  it("asks for his date of birth when it is left empty, and says what is wrong with a bad one", () => {
    const empty = form({ "dateOfBirth-day": "", "dateOfBirth-month": "", "dateOfBirth-year": "" });
    expect(empty.ok || empty.fieldErrors).toEqual({ dateOfBirth: "Enter his date of birth" });
    const february = form({ "dateOfBirth-day": "30", "dateOfBirth-month": "2" });
    expect(february.ok || february.fieldErrors).toEqual({
      dateOfBirth: "Date of birth must be a real date",
    });
    const future = form({ "dateOfBirth-year": "2027" });
    expect(future.ok || future.fieldErrors).toEqual({
      dateOfBirth: "Date of birth must be in the past",
    });
  });

  it("refuses a date that makes him a child: a slip of the year", () => {
    const slip = form({ "dateOfBirth-year": "2015" });
    expect(slip.ok || slip.fieldErrors).toEqual({
      dateOfBirth: "Check the year: that date of birth makes him younger than 18.",
    });
    // 18 on the day is an adult.
    expect(
      form({ "dateOfBirth-day": "10", "dateOfBirth-month": "6", "dateOfBirth-year": "2008" }),
    ).toMatchObject({ ok: true });
  });

  it("speaks of his NHS letter, not yours", () => {
    const result = form({ nhsNumber: "943 476 5918" });
    expect(result.ok || result.fieldErrors).toEqual({
      nhsNumber:
        "Enter a valid NHS number. Check the 10 digits on his NHS letter, prescription or the NHS App.",
    });
  });

  it("refuses an NHS number that fails the check digit, and keeps what was typed", () => {
    const result = form({ nhsNumber: "943 476 5918", "dateOfBirth-year": "19x8" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fieldErrors).sort()).toEqual(["dateOfBirth", "nhsNumber"]);
    expect(result.values).toMatchObject({ nhsNumber: "943 476 5918", "dateOfBirth-year": "19x8" });
  });

  it("reads an empty NHS number as none", () => {
    expect(form({ nhsNumber: "  " })).toMatchObject({ ok: true, data: { nhsNumber: null } });
  });
});

describe("an NHS number left empty", () => {
  it("is refused once one is recorded, or when the laboratory needs one", () => {
    expect(missingNhsNumberProblem({ recorded: "9434765919", labNeedsOne: false })).toBe(
      ATTENDEE_DETAILS_MESSAGES.nhsNumberNotRemoved,
    );
    expect(missingNhsNumberProblem({ recorded: null, labNeedsOne: true })).toBe(
      ATTENDEE_DETAILS_MESSAGES.nhsNumberNeeded,
    );
    expect(missingNhsNumberProblem({ recorded: null, labNeedsOne: false })).toBeNull();
  });
});
