import { describe, expect, it } from "vitest";
import { parseForm } from "./forms";
import type { SlotChoice } from "./slot-choices";
import { STAFF_MOVE_MESSAGES, staffMoveRefusal, staffMoveSchema } from "./staff-move";

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
  // 10:00 has passed, 10:30 is his, 11:00 is full, 11:30 and 12:00 are free.
  const times: SlotChoice[] = [
    { time: "10:00", state: "passed" },
    { time: "10:30", state: "available" },
    { time: "11:00", state: "full" },
    { time: "11:30", state: "available" },
    { time: "12:00", state: "available" },
  ];
  const his = {
    stage: "confirmed",
    hasResult: false,
    eventCancelled: false,
    times,
    currentTime: "10:30",
  } as const;

  it("moves a booked place to a free time ahead", () => {
    expect(staffMoveRefusal(his)).toBeNull();
    expect(staffMoveRefusal({ ...his, chosen: "11:30" })).toBeNull();
  });

  it("moves a man who missed his time to a later one", () => {
    const missed = { ...his, currentTime: "10:00" };
    expect(staffMoveRefusal({ ...missed, chosen: "12:00" })).toBeNull();
  });

  it("refuses a full time, a passed one, one the event does not have, and his own", () => {
    expect(staffMoveRefusal({ ...his, chosen: "11:00" })).toBe("slot-unavailable");
    expect(staffMoveRefusal({ ...his, chosen: "10:00" })).toBe("slot-unavailable");
    expect(staffMoveRefusal({ ...his, chosen: "11:45" })).toBe("slot-unavailable");
    expect(staffMoveRefusal({ ...his, chosen: "10:30" })).toBe("same-time");
  });

  it.each([["checked_in"], ["no_show"], ["held"], ["awaiting_payment"], ["cancelled"]] as const)(
    "refuses a %s booking",
    (stage) => {
      expect(staffMoveRefusal({ ...his, stage, chosen: "11:30" })).toBe("not-movable");
    },
  );

  it("never moves a booking with a sample or a result", () => {
    expect(staffMoveRefusal({ ...his, stage: "sample_taken" })).toBe("sample-taken");
    expect(staffMoveRefusal({ ...his, hasResult: true, chosen: "11:30" })).toBe("sample-taken");
  });

  it("refuses at a cancelled event", () => {
    expect(staffMoveRefusal({ ...his, eventCancelled: true })).toBe("event-cancelled");
    expect(staffMoveRefusal({ ...his, eventCancelled: true, chosen: "11:30" })).toBe(
      "event-cancelled",
    );
  });

  it("says when no other time is free, and that a time chosen has just gone", () => {
    const onlyHis: SlotChoice[] = [
      { time: "10:30", state: "available" },
      { time: "11:00", state: "full" },
    ];
    expect(staffMoveRefusal({ ...his, times: onlyHis })).toBe("no-other-time");
    expect(staffMoveRefusal({ ...his, times: onlyHis, chosen: "11:00" })).toBe("slot-unavailable");
  });
});
