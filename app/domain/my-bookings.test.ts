import { describe, expect, it } from "vitest";
import { compareMyBookings, isListedBooking, mapLink, myBookingState } from "./my-bookings";

const at = (iso: string) => new Date(iso);
const now = at("2026-06-10T12:00:00Z");

describe("which bookings are listed", () => {
  it.each([
    ["confirmed", null, true],
    ["cancelled", at("2026-05-01T10:00:00Z"), true],
    ["cancelled", null, false],
    ["held", null, false],
    ["awaiting_payment", null, false],
    ["expired", null, false],
  ] as const)("%s (confirmed at %s): %s", (status, confirmedAt, listed) => {
    expect(isListedBooking({ status, confirmedAt })).toBe(listed);
  });
});

describe("a booking's state", () => {
  it.each([
    ["confirmed", "2026-06-10T12:30:00Z", "upcoming"],
    ["confirmed", "2026-06-10T12:00:00Z", "past"],
    ["confirmed", "2026-06-09T10:00:00Z", "past"],
    ["cancelled", "2026-07-01T10:00:00Z", "cancelled"],
  ] as const)("%s ending %s is %s", (status, end, state) => {
    expect(myBookingState({ status, confirmedAt: now, appointmentEnd: at(end) }, now)).toBe(state);
  });
});

describe("the order", () => {
  it("puts upcoming ones first, soonest first, then the rest, latest first", () => {
    const rows = [
      { id: "past-old", state: "past", appointmentStart: at("2025-01-01T10:00:00Z") },
      { id: "later", state: "upcoming", appointmentStart: at("2026-08-01T10:00:00Z") },
      { id: "cancelled", state: "cancelled", appointmentStart: at("2026-07-01T10:00:00Z") },
      { id: "soon", state: "upcoming", appointmentStart: at("2026-06-11T10:00:00Z") },
      { id: "past-recent", state: "past", appointmentStart: at("2026-06-01T10:00:00Z") },
    ] as const;
    expect([...rows].sort(compareMyBookings).map((row) => row.id)).toEqual([
      "soon",
      "later",
      "cancelled",
      "past-recent",
      "past-old",
    ]);
  });
});

describe("the map link", () => {
  it("marks the coordinates when the event has them", () => {
    expect(mapLink({ latitude: 51.7356, longitude: 0.4685, address: "1 Test Street" })).toBe(
      "https://www.openstreetmap.org/?mlat=51.73560&mlon=0.46850#map=17/51.73560/0.46850",
    );
  });

  it("searches for the address when it has none", () => {
    expect(
      mapLink({ latitude: null, longitude: null, address: "1 Test Street, Chelmsford, CM1 1AA" }),
    ).toBe(
      "https://www.openstreetmap.org/search?query=1%20Test%20Street%2C%20Chelmsford%2C%20CM1%201AA",
    );
  });
});
