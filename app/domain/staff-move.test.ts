import { describe, expect, it } from "vitest";
import { parseForm } from "./forms";
import type { SlotChoice } from "./slot-choices";
import {
  STAFF_MOVE_MESSAGES,
  otherFreeTimes,
  sameEventTimeRefusal,
  staffMoveRefusal,
  staffMoveSchema,
} from "./staff-move";

describe("the coordinator's move form", () => {
  it("reads the time chosen", () => {
    expect(parseForm(staffMoveSchema, { slotTime: "14:30" })).toMatchObject({
      ok: true,
      data: { slotTime: "14:30" },
    });
  });

  it.each([[{}], [{ slotTime: "" }], [{ slotTime: "25:00" }], [{ slotTime: "2pm" }]])(
    "asks for a time when none was chosen: %j",
    (values) => {
      expect(parseForm(staffMoveSchema, values)).toMatchObject({
        ok: false,
        fieldErrors: { slotTime: STAFF_MOVE_MESSAGES.timeMissing },
      });
    },
  );
});

describe("whether a coordinator may move a booking", () => {
  const his = {
    stage: "confirmed",
    hasResult: false,
    accountDeleted: false,
    eventCancelled: false,
    eventEnded: false,
  } as const;

  it("moves a booked place", () => {
    expect(staffMoveRefusal(his)).toBeNull();
  });

  it.each([["checked_in"], ["no_show"], ["held"], ["awaiting_payment"], ["cancelled"]] as const)(
    "refuses a %s booking",
    (stage) => {
      expect(staffMoveRefusal({ ...his, stage })).toBe("not-movable");
    },
  );

  it("never moves a booking with a sample or a result", () => {
    expect(staffMoveRefusal({ ...his, stage: "sample_taken" })).toBe("sample-taken");
    expect(staffMoveRefusal({ ...his, hasResult: true })).toBe("sample-taken");
  });

  it("refuses at a cancelled event", () => {
    expect(staffMoveRefusal({ ...his, eventCancelled: true })).toBe("event-cancelled");
  });

  it("refuses once his event has ended: a man still waiting then did not come", () => {
    expect(staffMoveRefusal({ ...his, eventEnded: true })).toBe("event-ended");
  });

  it("refuses a booking whose account he has deleted", () => {
    expect(staffMoveRefusal({ ...his, accountDeleted: true })).toBe("account-deleted");
  });
});

describe("his new time at his own event", () => {
  // 10:00 has passed, 10:30 is his, 11:00 is full, 11:30 and 12:00 are free.
  const times: SlotChoice[] = [
    { time: "10:00", state: "passed" },
    { time: "10:30", state: "available" },
    { time: "11:00", state: "full" },
    { time: "11:30", state: "available" },
    { time: "12:00", state: "available" },
  ];

  it("is a free time ahead, even when his own has passed", () => {
    expect(sameEventTimeRefusal(times, "10:30", "11:30")).toBeNull();
    expect(sameEventTimeRefusal(times, "10:00", "12:00")).toBeNull();
    expect(otherFreeTimes(times, "10:30").map((choice) => choice.time)).toEqual(["11:30", "12:00"]);
  });

  it("refuses a full time, a passed one, one the event does not have, and his own", () => {
    expect(sameEventTimeRefusal(times, "10:30", "11:00")).toBe("slot-unavailable");
    expect(sameEventTimeRefusal(times, "10:30", "10:00")).toBe("slot-unavailable");
    expect(sameEventTimeRefusal(times, "10:30", "11:45")).toBe("slot-unavailable");
    expect(sameEventTimeRefusal(times, "10:30", "10:30")).toBe("same-time");
  });
});
