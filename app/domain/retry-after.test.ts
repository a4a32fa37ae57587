import { describe, expect, it } from "vitest";
import { minutesToWait } from "./retry-after";

describe("minutesToWait", () => {
  it("rounds up to whole minutes, never less than one", () => {
    expect(minutesToWait(1)).toBe("1 minute");
    expect(minutesToWait(60)).toBe("1 minute");
    expect(minutesToWait(61)).toBe("2 minutes");
    expect(minutesToWait(900)).toBe("15 minutes");
    expect(minutesToWait(0)).toBe("1 minute");
  });
});
