import { describe, expect, it } from "vitest";
import { slotChoices } from "./slot-choices";

const event = {
  eventDate: "2026-06-10",
  startTime: "10:00",
  endTime: "11:00",
  sessionDuration: 15,
  placesPerSlot: 2,
};

describe("slotChoices", () => {
  it("marks each time available, full or passed", () => {
    // 10:20 London (BST) is 09:20 UTC: 10:00 and 10:15 have started.
    const now = new Date("2026-06-10T09:20:00Z");
    const taken = new Map([
      ["10:30", 2],
      ["10:45", 1],
    ]);
    expect(slotChoices(event, taken, now)).toEqual([
      { time: "10:00", state: "passed" },
      { time: "10:15", state: "passed" },
      { time: "10:30", state: "full" },
      { time: "10:45", state: "available" },
    ]);
  });

  it("offers every time of an event that has not begun", () => {
    const now = new Date("2026-06-09T09:00:00Z");
    expect(slotChoices(event, new Map(), now).map((choice) => choice.state)).toEqual([
      "available",
      "available",
      "available",
      "available",
    ]);
  });
});
