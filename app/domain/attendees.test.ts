import { describe, expect, it } from "vitest";
import {
  isAttendeeDoneIntent,
  isPlaceOnTheList,
  cleanSearch,
  compareAttendees,
  confirmationHolds,
  formatDateOfBirth,
  formatNhsNumber,
  matchesAttendeeSearch,
  printedCount,
  sharingNhsNumbers,
  withoutNeededNhsNumber,
} from "./attendees";

const arthur = { name: "Arthur Tester", reference: "MHAT-7KQ3-9XZ2" };
const zoe = { name: "Zoë O'Brien", reference: "MHAT-ABCD-EFGH" };

describe("matchesAttendeeSearch", () => {
  it("matches everyone when nothing is typed", () => {
    expect(matchesAttendeeSearch(arthur, "")).toBe(true);
  });
  it("matches no one when only punctuation is typed", () => {
    // "-" or "'" is a search for something, and no name is made of it.
    expect(matchesAttendeeSearch(arthur, "-")).toBe(false);
    expect(matchesAttendeeSearch(zoe, "’ -")).toBe(false);
  });
  it("matches part of a name in any case", () => {
    expect(matchesAttendeeSearch(arthur, "test")).toBe(true);
    expect(matchesAttendeeSearch(arthur, "ARTHUR")).toBe(true);
    expect(matchesAttendeeSearch(zoe, "test")).toBe(false);
  });
  it("matches every word typed, in any order", () => {
    expect(matchesAttendeeSearch(arthur, "tester arthur")).toBe(true);
    expect(matchesAttendeeSearch(arthur, "arthur smith")).toBe(false);
  });
  it("ignores accents", () => {
    expect(matchesAttendeeSearch(zoe, "zoe o'brien")).toBe(true);
  });
  it("ignores apostrophes and hyphens, straight or curly, typed or left out", () => {
    // A tablet's keyboard turns ' into ’ by itself.
    expect(matchesAttendeeSearch(zoe, "O’Brien")).toBe(true);
    expect(matchesAttendeeSearch(zoe, "obrien")).toBe(true);
    expect(matchesAttendeeSearch({ ...zoe, name: "Sean O’Brien" }, "o'brien")).toBe(true);
    const doubleBarrelled = { name: "Peter Smith-Jones", reference: "MHAT-WXYZ-2345" };
    expect(matchesAttendeeSearch(doubleBarrelled, "smithjones")).toBe(true);
    expect(matchesAttendeeSearch(doubleBarrelled, "smith jones")).toBe(true);
    expect(matchesAttendeeSearch(doubleBarrelled, "smith-jones")).toBe(true);
    expect(matchesAttendeeSearch(doubleBarrelled, "o'brien")).toBe(false);
  });
  it("matches a reference with or without dashes, in any case", () => {
    expect(matchesAttendeeSearch(arthur, "MHAT-7KQ3-9XZ2")).toBe(true);
    expect(matchesAttendeeSearch(arthur, "mhat7kq39xz2")).toBe(true);
    expect(matchesAttendeeSearch(arthur, "7kq3")).toBe(true);
    expect(matchesAttendeeSearch(zoe, "7KQ3")).toBe(false);
  });
  it("needs 4 characters of a reference", () => {
    expect(matchesAttendeeSearch(arthur, "7K")).toBe(false);
  });
});

describe("cleanSearch", () => {
  it("tidies spaces and limits the length", () => {
    expect(cleanSearch("  arthur   tester ")).toBe("arthur tester");
    expect(cleanSearch("x".repeat(500))).toHaveLength(100);
    expect(cleanSearch(null)).toBe("");
  });
});

describe("compareAttendees", () => {
  it("orders by time slot, then surname, first name and reference", () => {
    const rows = [
      { slotTime: "10:30", lastName: "Able", firstName: "A", reference: "R1" },
      { slotTime: "10:00", lastName: "baker", firstName: "B", reference: "R2" },
      { slotTime: "10:00", lastName: "Baker", firstName: "A", reference: "R3" },
      { slotTime: "10:00", lastName: "Adams", firstName: "Z", reference: "R4" },
      { slotTime: "09:30", lastName: "Zed", firstName: "Z", reference: "R5" },
    ];
    expect([...rows].sort(compareAttendees).map((row) => row.reference)).toEqual([
      "R5",
      "R4",
      "R3",
      "R2",
      "R1",
    ]);
  });
});

describe("formats", () => {
  it("prints NHS numbers in groups of 3, 3 and 4", () => {
    expect(formatNhsNumber("9434765919")).toBe("943 476 5919");
    expect(formatNhsNumber(null)).toBeNull();
  });
  it("prints dates of birth day first", () => {
    expect(formatDateOfBirth("1968-04-12")).toBe("12/04/1968");
    expect(formatDateOfBirth(null)).toBeNull();
  });
});

describe("confirmationHolds", () => {
  it("shows a confirmation only while the row is still in the state it speaks of", () => {
    expect(confirmationHolds("arrived", "arrived")).toBe(true);
    // Arrived, then undone, then Back: the address still says arrived.
    expect(confirmationHolds("arrived", "waiting")).toBe(false);
    expect(confirmationHolds("no-show", "no_show")).toBe(true);
    expect(confirmationHolds("no-show", "arrived")).toBe(false);
    expect(confirmationHolds("sample", "sample_taken")).toBe(true);
    expect(confirmationHolds("sample", "arrived")).toBe(false);
    // An undo's confirmation holds while the row is in the state the undo left.
    expect(confirmationHolds("undo", "arrived", "arrived")).toBe(true);
    // Undo a sample, record it again, Back: "Undone. Now: sample taken." would be untrue.
    expect(confirmationHolds("undo", "sample_taken", "arrived")).toBe(false);
    expect(confirmationHolds("undo", "waiting")).toBe(false);
  });
});

describe("isAttendeeDoneIntent", () => {
  it("knows each thing the list confirms, and nothing an edited address makes up", () => {
    for (const intent of ["arrived", "no-show", "sample", "undo", "consent-link", "details"])
      expect(isAttendeeDoneIntent(intent)).toBe(true);
    for (const made of ["toString", "__proto__", "constructor", "moved", "", null])
      expect(isAttendeeDoneIntent(made)).toBe(false);
  });
});

describe("printedCount", () => {
  it("counts the confirmed, and those not confirmed yet apart", () => {
    expect(printedCount([])).toBe("0 confirmed bookings.");
    expect(printedCount([{ status: "confirmed" }])).toBe("1 confirmed booking.");
    expect(
      printedCount([
        { status: "confirmed" },
        { status: "confirmed" },
        { status: "held" },
        { status: "awaiting_payment" },
      ]),
    ).toBe("2 confirmed bookings, and 2 not confirmed yet (marked).");
  });
});

describe("withoutNeededNhsNumber", () => {
  const row = (values: Partial<Parameters<typeof withoutNeededNhsNumber>[0][number]> = {}) => ({
    status: "confirmed",
    checkIn: "waiting",
    hasProfile: true,
    nhsNumber: null as string | null,
    ...values,
  });

  it("lists those still to give a sample with none recorded, when the laboratory needs one", () => {
    const waiting = row();
    const arrived = row({ checkIn: "arrived", nhsNumber: "" });
    expect(
      withoutNeededNhsNumber(
        [
          waiting,
          arrived,
          row({ nhsNumber: "9434765919" }),
          row({ checkIn: "sample_taken" }),
          row({ checkIn: "no_show" }),
          row({ status: "held" }),
          row({ hasProfile: false }),
        ],
        true,
      ),
    ).toEqual([waiting, arrived]);
  });

  it("lists no one when the laboratory does not need one", () => {
    expect(withoutNeededNhsNumber([row()], false)).toEqual([]);
  });
});

describe("sharingNhsNumbers", () => {
  it("names the booked men whose number another booked man shares, and no one else", () => {
    const rows = [
      { id: "a", status: "confirmed", nhsNumber: "9434765919" },
      { id: "b", status: "confirmed", nhsNumber: "4010232137" },
      { id: "c", status: "confirmed", nhsNumber: "9434765919" },
      { id: "d", status: "held", nhsNumber: "4010232137" },
      { id: "e", status: "confirmed", nhsNumber: null },
      { id: "f", status: "confirmed", nhsNumber: null },
    ];
    expect(sharingNhsNumbers(rows).map((row) => row.id)).toEqual(["a", "c"]);
    expect(sharingNhsNumbers(rows.slice(1))).toEqual([]);
  });
});

describe("which bookings the attendee list shows as places", () => {
  const now = new Date("2026-06-10T09:00:00Z");
  const lapsed = new Date("2026-06-10T08:00:00Z");
  const row = (overrides: Partial<Parameters<typeof isPlaceOnTheList>[0]>) => ({
    status: "awaiting_payment" as const,
    paymentStatus: "unpaid",
    holdExpiresAt: lapsed,
    captureRequestId: null,
    ...overrides,
  });

  it("shows a capture still unanswered, whose place is kept, once its hold has lapsed (found by a review of D-204)", () => {
    expect(isPlaceOnTheList(row({ captureRequestId: "capture-1" }), now)).toBe(true);
    expect(isPlaceOnTheList(row({}), now)).toBe(false);
    expect(isPlaceOnTheList(row({ paymentStatus: "pending" }), now)).toBe(true);
    expect(isPlaceOnTheList(row({ status: "confirmed" }), now)).toBe(true);
    expect(isPlaceOnTheList(row({ status: "expired", captureRequestId: "capture-1" }), now)).toBe(
      false,
    );
  });
});
