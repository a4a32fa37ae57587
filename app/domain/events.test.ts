import { describe, expect, it } from "vitest";
import {
  availableSlots,
  bookingWindow,
  dateWindowRange,
  eventEnd,
  eventStart,
  formatPounds,
  generateSlots,
  isCorporateOnly,
  isInDateWindow,
  isUpcoming,
  joinAddress,
  spacesLeft,
} from "./events";
import { formatCardDate, formatLongDate } from "./date-labels";
import { TIME_FORMAT_ERROR, londonDate, londonInstant } from "./london-time";

const base = {
  eventDate: "2026-06-10",
  startTime: "10:00",
  endTime: "14:00",
  totalSpaces: 40,
  bookedSpaces: 10,
  exclusiveFor: null,
};

describe("London instants", () => {
  it("reads summer times as BST (UTC+1) and winter times as GMT", () => {
    expect(londonInstant("2026-06-10", "10:00").toISOString()).toBe("2026-06-10T09:00:00.000Z");
    expect(londonInstant("2026-12-10", "10:00").toISOString()).toBe("2026-12-10T10:00:00.000Z");
  });
  it("handles the spring clock change: 10:00 on 29 March 2026 is BST", () => {
    expect(londonInstant("2026-03-28", "10:00").toISOString()).toBe("2026-03-28T10:00:00.000Z");
    expect(londonInstant("2026-03-29", "10:00").toISOString()).toBe("2026-03-29T09:00:00.000Z");
  });
  it("handles the autumn clock change: 10:00 on 25 October 2026 is GMT", () => {
    expect(londonInstant("2026-10-24", "10:00").toISOString()).toBe("2026-10-24T09:00:00.000Z");
    expect(londonInstant("2026-10-25", "10:00").toISOString()).toBe("2026-10-25T10:00:00.000Z");
  });
  it("gives today's date in London, not UTC", () => {
    // 23:30 UTC on 30 June is already 1 July in London.
    expect(londonDate(new Date("2026-06-30T23:30:00Z"))).toBe("2026-07-01");
    expect(londonDate(new Date("2026-12-31T23:30:00Z"))).toBe("2026-12-31");
  });
  it("accepts HH:mm:ss and refuses other time formats with the spec's message", () => {
    expect(londonInstant("2026-06-10", "10:00:00").toISOString()).toBe("2026-06-10T09:00:00.000Z");
    for (const bad of ["10", "10h00", "25:00", "10:60", ""])
      expect(() => londonInstant("2026-06-10", bad)).toThrow(TIME_FORMAT_ERROR);
  });
});

describe("card state", () => {
  it("is bookable well before the event with spaces left", () => {
    expect(bookingWindow(base, new Date("2026-06-01T12:00:00Z"))).toBe("bookable");
  });
  it("is Fully Booked when no spaces remain", () => {
    expect(bookingWindow({ ...base, bookedSpaces: 40 }, new Date("2026-06-01T12:00:00Z"))).toBe(
      "full",
    );
    expect(bookingWindow({ ...base, bookedSpaces: 45 }, new Date("2026-06-01T12:00:00Z"))).toBe(
      "full",
    );
  });
  it("closes a public event 24 hours before its end (Booking closed, not Fully Booked)", () => {
    // End: 14:00 BST on 10 June = 13:00 UTC. Closing point: 13:00 UTC on 9 June.
    expect(bookingWindow(base, new Date("2026-06-09T12:59:00Z"))).toBe("bookable");
    expect(bookingWindow(base, new Date("2026-06-09T13:00:00Z"))).toBe("closed");
    expect(bookingWindow(base, new Date("2026-06-10T10:00:00Z"))).toBe("closed");
  });
  it("says Fully Booked rather than closed when an event within 24 hours has no spaces", () => {
    expect(bookingWindow({ ...base, bookedSpaces: 40 }, new Date("2026-06-10T10:00:00Z"))).toBe(
      "full",
    );
  });
  it("recognises corporate-only events in any case", () => {
    expect(isCorporateOnly("CORPORATE")).toBe(true);
    expect(isCorporateOnly("corporate")).toBe(true);
    expect(isCorporateOnly(null)).toBe(false);
    expect(isCorporateOnly("")).toBe(false);
    expect(isCorporateOnly("FREEMASONS")).toBe(false);
  });
  it("keeps a corporate-only event bookable until it ends", () => {
    const corporate = { ...base, exclusiveFor: "CORPORATE" };
    expect(bookingWindow(corporate, new Date("2026-06-10T10:00:00Z"))).toBe("bookable");
    expect(
      bookingWindow({ ...corporate, exclusiveFor: "corporate" }, new Date("2026-06-10T12:59:00Z")),
    ).toBe("bookable");
    expect(
      bookingWindow({ ...corporate, bookedSpaces: 40 }, new Date("2026-06-10T10:00:00Z")),
    ).toBe("full");
  });
  it("shows Event Passed once the end is before now", () => {
    expect(bookingWindow(base, new Date("2026-06-10T13:01:00Z"))).toBe("passed");
    expect(
      bookingWindow({ ...base, exclusiveFor: "CORPORATE" }, new Date("2026-06-11T00:00:00Z")),
    ).toBe("passed");
  });
  it("applies the 24-hour rule in real hours across the spring clock change", () => {
    // Ends 10:00 BST on 29 March 2026 = 09:00 UTC, so it closes at 09:00 UTC on 28 March.
    // Reading local times as UTC would close it an hour late.
    const sunday = { ...base, eventDate: "2026-03-29", startTime: "08:00", endTime: "10:00" };
    expect(bookingWindow(sunday, new Date("2026-03-28T08:59:00Z"))).toBe("bookable");
    expect(bookingWindow(sunday, new Date("2026-03-28T09:30:00Z"))).toBe("closed");
  });
  it("applies the 24-hour rule across the autumn clock change", () => {
    // Ends 10:00 GMT on 25 October 2026 = 10:00 UTC; closes at 10:00 UTC (11:00 BST) on 24 October.
    const sunday = { ...base, eventDate: "2026-10-25", startTime: "08:00", endTime: "10:00" };
    expect(bookingWindow(sunday, new Date("2026-10-24T09:30:00Z"))).toBe("bookable");
    expect(bookingWindow(sunday, new Date("2026-10-24T10:00:00Z"))).toBe("closed");
  });
});

describe("upcoming and spaces", () => {
  it("is upcoming while the end is in the future", () => {
    expect(isUpcoming(base, new Date("2026-06-10T12:00:00Z"))).toBe(true);
    expect(isUpcoming(base, new Date("2026-06-10T13:00:00Z"))).toBe(false);
    expect(eventStart(base).toISOString()).toBe("2026-06-10T09:00:00.000Z");
    expect(eventEnd(base).toISOString()).toBe("2026-06-10T13:00:00.000Z");
  });
  it("never counts below zero spaces", () => {
    expect(spacesLeft({ totalSpaces: 10, bookedSpaces: 12 })).toBe(0);
    expect(spacesLeft({ totalSpaces: 10, bookedSpaces: 3 })).toBe(7);
  });
});

describe("date windows", () => {
  const now = new Date("2026-06-30T23:30:00Z"); // already 1 July in London
  it("uses London's date for today", () => {
    expect(dateWindowRange("today", now)).toEqual({ from: "2026-07-01", to: "2026-07-01" });
    expect(isInDateWindow("2026-07-01", "today", now)).toBe(true);
    expect(isInDateWindow("2026-06-30", "today", now)).toBe(false);
  });
  it("covers the next 7 days and the next 31 days", () => {
    expect(dateWindowRange("next-week", now)).toEqual({ from: "2026-07-01", to: "2026-07-08" });
    expect(isInDateWindow("2026-07-09", "next-week", now)).toBe(false);
    expect(dateWindowRange("next-month", now)).toEqual({ from: "2026-07-01", to: "2026-08-01" });
  });
  it("covers everything from today for all future events", () => {
    expect(isInDateWindow("2030-01-01", "future-events", now)).toBe(true);
    expect(isInDateWindow("2026-06-30", "future-events", now)).toBe(false);
  });
  it("counts days across a clock change by the calendar", () => {
    expect(dateWindowRange("next-week", new Date("2026-03-27T12:00:00Z")).to).toBe("2026-04-03");
  });
});

describe("slots", () => {
  it("runs from start to end in steps of the session length", () => {
    expect(generateSlots("10:00", "11:00", 15)).toEqual(["10:00", "10:15", "10:30", "10:45"]);
    expect(generateSlots("09:00:00", "10:00:00", 20)).toEqual(["09:00", "09:20", "09:40"]);
  });
  it("only offers slots that finish by the end time", () => {
    expect(generateSlots("10:00", "10:50", 20)).toEqual(["10:00", "10:20"]);
    expect(generateSlots("10:00", "10:00", 10)).toEqual([]);
  });
  it("refuses a bad time with the spec's message, and a bad session length", () => {
    expect(() => generateSlots("ten", "11:00", 10)).toThrow(TIME_FORMAT_ERROR);
    expect(() => generateSlots("10:00", "11:00", 0)).toThrow();
  });
  it("offers only future slots with places left", () => {
    const event = {
      eventDate: "2026-06-10",
      startTime: "10:00",
      endTime: "11:00",
      sessionDuration: 15,
      placesPerSlot: 2,
    };
    const booked = new Map([
      ["10:30", 2],
      ["10:45", 1],
    ]);
    // 10:10 BST = 09:10 UTC: the 10:00 slot has started.
    expect(availableSlots(event, booked, new Date("2026-06-10T09:10:00Z"))).toEqual([
      "10:15",
      "10:45",
    ]);
  });
  it("uses real instants for the slots on a clock-change day", () => {
    const event = {
      eventDate: "2026-03-29",
      startTime: "09:00",
      endTime: "10:00",
      sessionDuration: 30,
      placesPerSlot: 1,
    };
    // 08:15 UTC is 09:15 BST: the 09:00 slot has started, the 09:30 slot has not.
    expect(availableSlots(event, new Map(), new Date("2026-03-29T08:15:00Z"))).toEqual(["09:30"]);
  });
});

describe("formatting", () => {
  it("formats dates as the spec shows them", () => {
    expect(formatLongDate("2024-01-05")).toBe("Friday, 05 January 2024");
    expect(formatCardDate("2024-01-05")).toBe("Friday 5 January 2024");
  });
  it("shows pence as pounds with two decimals", () => {
    expect(formatPounds(2500)).toBe("£25.00");
    expect(formatPounds(1999)).toBe("£19.99");
    expect(formatPounds(5)).toBe("£0.05");
  });
  it("joins the address parts that are present", () => {
    expect(joinAddress(["1 High Street", null, "Chelmsford", "", "CM1 1AA"])).toBe(
      "1 High Street, Chelmsford, CM1 1AA",
    );
  });
});
