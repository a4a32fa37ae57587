import { describe, expect, it } from "vitest";
import { bookingEligibility, ELIGIBILITY_MESSAGES, needsNhsNumber } from "./eligibility";

const event = { eventDate: "2026-06-10", labName: null };

describe("booking eligibility", () => {
  it("accepts men aged 40 to 80 on the day of the event, both ends included", () => {
    expect(bookingEligibility({ dateOfBirth: "1986-06-10", nhsNumber: null }, event)).toEqual({
      eligible: true,
      problems: [],
      ageOnTheDay: 40,
    });
    expect(bookingEligibility({ dateOfBirth: "1945-06-11", nhsNumber: null }, event)).toEqual({
      eligible: true,
      problems: [],
      ageOnTheDay: 80,
    });
  });

  it("counts the age on the event's day, not today", () => {
    // 39 until 11 June 2026: too young for a 10 June event, old enough for a 12 June one.
    const person = { dateOfBirth: "1986-06-11", nhsNumber: null };
    expect(bookingEligibility(person, event)).toEqual({
      eligible: false,
      problems: ["too-young"],
      ageOnTheDay: 39,
    });
    expect(bookingEligibility(person, { ...event, eventDate: "2026-06-12" }).eligible).toBe(true);
  });

  it("refuses someone who is 81 on the day, or whose date of birth is unknown", () => {
    expect(bookingEligibility({ dateOfBirth: "1945-06-10", nhsNumber: null }, event)).toEqual({
      eligible: false,
      problems: ["too-old"],
      ageOnTheDay: 81,
    });
    expect(bookingEligibility({ dateOfBirth: null, nhsNumber: null }, event)).toEqual({
      eligible: false,
      problems: ["no-date-of-birth"],
      ageOnTheDay: null,
    });
  });

  it("needs a valid NHS number for the ESNEFT laboratory, in any case", () => {
    const esneft = { ...event, labName: " esneft " };
    expect(bookingEligibility({ dateOfBirth: "1960-01-01", nhsNumber: null }, esneft)).toEqual({
      eligible: false,
      problems: ["nhs-number-needed"],
      ageOnTheDay: 66,
    });
    // 943 476 5919 passes the modulus-11 check; 943 476 5918 does not.
    expect(
      bookingEligibility({ dateOfBirth: "1960-01-01", nhsNumber: "9434765918" }, esneft).problems,
    ).toEqual(["nhs-number-needed"]);
    expect(
      bookingEligibility({ dateOfBirth: "1960-01-01", nhsNumber: "9434765919" }, esneft).eligible,
    ).toBe(true);
    expect(
      bookingEligibility(
        { dateOfBirth: "1960-01-01", nhsNumber: null },
        { ...event, labName: "Synnovis" },
      ).eligible,
    ).toBe(true);
  });

  it("lists every problem at once", () => {
    expect(
      bookingEligibility(
        { dateOfBirth: "1990-01-01", nhsNumber: "" },
        { ...event, labName: "ESNEFT" },
      ).problems,
    ).toEqual(["too-young", "nhs-number-needed"]);
  });

  it("knows which laboratories need the NHS number", () => {
    expect(needsNhsNumber("ESNEFT")).toBe(true);
    expect(needsNhsNumber("Esneft")).toBe(true);
    expect(needsNhsNumber("ESNEFT Pathology")).toBe(false);
    expect(needsNhsNumber(null)).toBe(false);
  });

  it("explains each problem in words", () => {
    expect(ELIGIBILITY_MESSAGES["too-old"]).toBe(
      "MHAT screening events are for men aged between 40 and 80 on the day of the event. If you have questions, e-mail info@example.org.",
    );
    expect(ELIGIBILITY_MESSAGES["nhs-number-needed"]).toContain("10-digit NHS number");
  });
});
