import { describe, expect, it } from "vitest";
import {
  appointmentInstants,
  bookingCalendar,
  slotEndTime,
  type CalendarBooking,
} from "./calendar";

const booking: CalendarBooking = {
  reference: "MHAT-7KQ3-9XZ2",
  eventName: "Chelmsford Civic Centre Drop-in",
  eventDate: "2026-06-10",
  slotTime: "10:00",
  sessionMinutes: 15,
  location: "Chelmsford Civic Centre, Duke Street, Chelmsford, CM1 1JE, United Kingdom",
  latitude: 51.7356,
  longitude: 0.4685,
  uidHost: "www.example.org",
  stamp: new Date("2026-05-01T08:30:00Z"),
};

/** The calendar text with folded lines joined again (RFC 5545 folds at 75 octets). */
function unfolded(ics: string): string {
  return ics.replace(/\r\n[ \t]/g, "");
}

describe("booking calendar entry", () => {
  it("gives a summer appointment in UTC, an hour before London time", () => {
    const ics = unfolded(bookingCalendar(booking));
    expect(ics).toContain("DTSTART:20260610T090000Z");
    expect(ics).toContain("DTEND:20260610T091500Z");
  });

  it("is right on the day the clocks go forward (29 March 2026)", () => {
    const ics = unfolded(bookingCalendar({ ...booking, eventDate: "2026-03-29" }));
    expect(ics).toContain("DTSTART:20260329T090000Z");
    expect(ics).toContain("DTEND:20260329T091500Z");
  });

  it("is right on the day the clocks go back (25 October 2026)", () => {
    const ics = unfolded(bookingCalendar({ ...booking, eventDate: "2026-10-25" }));
    expect(ics).toContain("DTSTART:20261025T100000Z");
    expect(ics).toContain("DTEND:20261025T101500Z");
  });

  it("has a UID stable for the booking, the title, the place and a stamp", () => {
    const first = unfolded(bookingCalendar(booking));
    const again = unfolded(bookingCalendar(booking));
    expect(first).toContain("UID:MHAT-7KQ3-9XZ2@www.example.org");
    expect(first).toBe(again);
    expect(first).toContain("SUMMARY:MHAT screening: Chelmsford Civic Centre Drop-in");
    expect(first).toContain(
      "LOCATION:Chelmsford Civic Centre\\, Duke Street\\, Chelmsford\\, CM1 1JE\\, United Kingdom",
    );
    expect(first).toContain("DTSTAMP:20260501T083000Z");
    expect(first).toContain("METHOD:PUBLISH");
    expect(first).toContain("STATUS:CONFIRMED");
    expect(first).toMatch(/^BEGIN:VCALENDAR\r\n/);
  });

  it("says how to change the booking and nothing about the person's health", () => {
    const ics = unfolded(bookingCalendar(booking));
    expect(ics).toContain(
      "DESCRIPTION:Your MHAT screening appointment. Booking reference: MHAT-7KQ3-9XZ2.\\nTo change or cancel\\, see your booking under My bookings on our website\\, or call our booking helpline on 01632 960 001 or e-mail bookings@example.org.\\nYou can change the time online until the end of Sunday\\, 07 June 2026.",
    );
    // A free booking: nothing about money.
    expect(ics).not.toMatch(/refund|£/);
    expect(ics).not.toMatch(/PSA|result|consent|NHS/i);
  });

  it("gives a paid booking its last day for a full refund, and its last day to change", () => {
    // Wednesday 10 June 2026: a full refund needs 3 working days left (Friday 5, Monday 8,
    // Tuesday 9 June), so Thursday 4 June; a change needs 2 (Monday 8, Tuesday 9): until the end
    // of Sunday 7 June, sooner than 48 hours before.
    const ics = unfolded(bookingCalendar({ ...booking, paidPence: 2500 }));
    expect(ics).toContain(
      "For a full refund of the £25.00 you paid\\, cancel by the end of Thursday\\, 04 June 2026.\\nYou can change the time online until the end of Sunday\\, 07 June 2026.",
    );
    const cancelled = unfolded(bookingCalendar({ ...booking, paidPence: 2500, method: "CANCEL" }));
    expect(cancelled).not.toMatch(/refund|change the time/);
  });

  it("gives each time of a booking its own UID, and cancels the old one under its UID", () => {
    const moved = unfolded(bookingCalendar({ ...booking, calendarVersion: 1, slotTime: "11:00" }));
    expect(moved).toContain("UID:MHAT-7KQ3-9XZ2-2@www.example.org");
    expect(moved).toContain("METHOD:PUBLISH");
    const cancelled = unfolded(bookingCalendar({ ...booking, method: "CANCEL" }));
    expect(cancelled).toContain("UID:MHAT-7KQ3-9XZ2@www.example.org");
    expect(cancelled).toContain("METHOD:CANCEL");
    expect(cancelled).toContain("STATUS:CANCELLED");
    expect(cancelled).toContain("SEQUENCE:1");
    expect(cancelled).toContain("DTSTART:20260610T090000Z");
  });

  it("works out the slot's end and instants from London wall-clock times", () => {
    expect(slotEndTime("10:45", 15)).toBe("11:00");
    expect(slotEndTime("09:50", 30)).toBe("10:20");
    expect(appointmentInstants("2026-01-15", "18:30", 20)).toEqual({
      start: new Date("2026-01-15T18:30:00Z"),
      end: new Date("2026-01-15T18:50:00Z"),
    });
  });
});
