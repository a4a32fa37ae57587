import { describe, expect, it } from "vitest";
import {
  bookingClosesAt,
  compareQueue,
  freePlaces,
  isOfferLive,
  nextInLine,
  offerExpiry,
  waitlistOpen,
  type WaitlistStatus,
} from "./waitlist";

// 10 June 2026 is in British Summer Time: London is UTC+1, so 10:00 London is 09:00Z.
const publicEvent = {
  eventDate: "2026-06-10",
  startTime: "10:00",
  endTime: "12:00",
  exclusiveFor: null,
};
const corporateEvent = { ...publicEvent, exclusiveFor: "CORPORATE" };
const at = (iso: string) => new Date(iso);

describe("a waiting-list offer's life", () => {
  const offer = (status: WaitlistStatus, expires: string | null) => ({
    status,
    offerExpiresAt: expires ? at(expires) : null,
  });

  it.each([
    ["offered, ending later", offer("offered", "2026-06-01T12:00:00Z"), true],
    ["offered, ending this instant", offer("offered", "2026-06-01T09:00:00Z"), false],
    ["offered, ended", offer("offered", "2026-06-01T08:59:59Z"), false],
    ["waiting", offer("waiting", null), false],
    ["accepted (its end kept)", offer("accepted", "2026-06-01T12:00:00Z"), false],
    ["left", offer("left", "2026-06-01T12:00:00Z"), false],
    ["lapsed already", offer("lapsed", "2026-06-01T08:00:00Z"), false],
  ])("%s: holds its place %s", (_name, entry, live) => {
    expect(isOfferLive(entry, at("2026-06-01T09:00:00Z"))).toBe(live);
  });
});

describe("when an offer lapses", () => {
  it("holds the place for the offer's hours when the event is far off", () => {
    expect(offerExpiry(publicEvent, "10:30", at("2026-06-01T09:00:00Z"), 12)).toEqual(
      at("2026-06-01T21:00:00Z"),
    );
  });

  it("never past the close of booking: 24 hours before a public event ends", () => {
    // Ends 12:00 London on 10 June (11:00Z): booking closes 11:00Z on 9 June.
    expect(offerExpiry(publicEvent, "10:30", at("2026-06-09T01:00:00Z"), 12)).toEqual(
      at("2026-06-09T11:00:00Z"),
    );
  });

  it("never past the offered time's start, for a corporate event booked on the day", () => {
    // 10:30 London is 09:30Z.
    expect(offerExpiry(corporateEvent, "10:30", at("2026-06-10T08:00:00Z"), 12)).toEqual(
      at("2026-06-10T09:30:00Z"),
    );
  });

  it("closes a public event's booking a day before its end, a corporate one at its end", () => {
    expect(bookingClosesAt(publicEvent)).toEqual(at("2026-06-09T11:00:00Z"));
    expect(bookingClosesAt(corporateEvent)).toEqual(at("2026-06-10T11:00:00Z"));
  });
});

describe("who may join", () => {
  it.each([
    ["no time free, booking open", publicEvent, 0, "2026-06-01T09:00:00Z", true],
    ["a time still free", publicEvent, 1, "2026-06-01T09:00:00Z", false],
    [
      "no time free, booking closed (within 24 hours)",
      publicEvent,
      0,
      "2026-06-09T12:00:00Z",
      false,
    ],
    ["corporate, no time free, on the day", corporateEvent, 0, "2026-06-10T09:00:00Z", true],
    ["corporate, over", corporateEvent, 0, "2026-06-10T11:00:00Z", false],
  ])("%s: %s", (_name, event, openSlots, now, open) => {
    expect(waitlistOpen(event, openSlots, at(now))).toBe(open);
  });
});

describe("who is next", () => {
  const entry = (id: string, joined: string, status: WaitlistStatus = "waiting") => ({
    id,
    joinedAt: at(joined),
    status,
  });

  it("offers the free places to those who joined first, one place each", () => {
    const entries = [
      entry("c", "2026-06-01T09:02:00Z"),
      entry("a", "2026-06-01T09:00:00Z"),
      entry("b", "2026-06-01T09:01:00Z"),
    ];
    expect(nextInLine(entries, 2).map((e) => e.id)).toEqual(["a", "b"]);
    expect(nextInLine(entries, 5).map((e) => e.id)).toEqual(["a", "b", "c"]);
    expect(nextInLine(entries, 0)).toEqual([]);
  });

  it("passes over people with an offer already, and those who left or lapsed", () => {
    const entries = [
      entry("a", "2026-06-01T09:00:00Z", "offered"),
      entry("b", "2026-06-01T09:01:00Z", "left"),
      entry("c", "2026-06-01T09:02:00Z", "lapsed"),
      entry("d", "2026-06-01T09:03:00Z"),
    ];
    expect(nextInLine(entries, 1).map((e) => e.id)).toEqual(["d"]);
  });

  it("orders two who joined in the same instant by id, so the order never wobbles", () => {
    const same = "2026-06-01T09:00:00Z";
    expect(compareQueue(entry("b", same), entry("a", same))).toBeGreaterThan(0);
    expect(compareQueue(entry("a", same), entry("a", same))).toBe(0);
  });
});

describe("the free places to offer", () => {
  it("one per free place of each time, earliest first", () => {
    const taken = new Map([
      ["10:00", 2],
      ["10:30", 1],
    ]);
    expect(freePlaces(["11:00", "10:30"], taken, 2, 10)).toEqual(["10:30", "11:00", "11:00"]);
  });

  it("never more than the event's places left overall", () => {
    expect(freePlaces(["10:00", "10:30"], new Map(), 2, 1)).toEqual(["10:00"]);
    expect(freePlaces(["10:00"], new Map(), 2, 0)).toEqual([]);
  });
});
