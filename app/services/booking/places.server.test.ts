import { describe, expect, it } from "vitest";
import { withoutPlaces, type PlacesTaken } from "./places.server";

describe("withoutPlaces", () => {
  const counted: PlacesTaken = {
    perSlot: new Map([
      ["10:00", 2],
      ["10:30", 1],
    ]),
    taken: 3,
    held: 2,
    mine: true,
    holders: new Set(["someone"]),
  };

  it("takes one held place out at each time given, and leaves the count it was given alone", () => {
    const left = withoutPlaces(counted, ["10:00", undefined, "10:30", null]);
    expect(left).toEqual({
      perSlot: new Map([
        ["10:00", 1],
        ["10:30", 0],
      ]),
      taken: 1,
      held: 0,
      mine: true,
      holders: new Set(["someone"]),
    });
    expect(counted.perSlot.get("10:00")).toBe(2);
    expect(counted.taken).toBe(3);
  });

  it("is the count itself when nothing is taken out", () => {
    expect(withoutPlaces(counted, [undefined, undefined])).toEqual(counted);
  });
});
