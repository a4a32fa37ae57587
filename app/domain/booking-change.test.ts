import { describe, expect, it } from "vitest";
import { changeDeadlineLabel, termsAfterMove, CHANGE_FORM_MESSAGES } from "./booking-change";
import { changeChoiceSchema } from "./booking-change-form";

describe("termsAfterMove", () => {
  // Thursday 11 June 2026, 10:00 London (09:00 UTC); no bank holiday near it.
  const toStart = new Date("2026-06-11T09:00:00Z");
  const move = (now: string, paid = true, fromDay = "2026-06-20") =>
    termsAfterMove({ paid, fromDay, toDay: "2026-06-11", toStart, now: new Date(now) });

  it("gives the new last day for a full refund: three business days' notice of the new day", () => {
    // Monday 1 June: Mon 8, Tue 9 and Wed 10 June are two business days short of it, Sunday 7 is not.
    expect(move("2026-06-01T09:00:00Z")).toEqual([
      "After this change, you can cancel for a full refund until the end of Sunday, 07 June 2026.",
    ]);
  });

  it("says when the new day is too soon for a refund, and for changing online again", () => {
    expect(move("2026-06-09T09:00:00Z")).toEqual([
      "After this change, you will not get your money back if you cancel: the new appointment is too soon.",
      "You will not be able to change the time online again.",
    ]);
    expect(move("2026-06-09T09:00:00Z", false)).toEqual([
      "You will not be able to change the time online again.",
    ]);
  });

  it("says nothing for a time on the same day, or about money for a free booking", () => {
    expect(move("2026-06-09T09:00:00Z", true, "2026-06-11")).toEqual([]);
    expect(move("2026-06-01T09:00:00Z", false)).toEqual([]);
  });
});

describe("changeDeadlineLabel", () => {
  it.each([
    // A London midnight (summer time: 23:00 UTC) is the end of the day before.
    ["2026-06-07T23:00:00.000Z", "the end of Sunday, 07 June 2026"],
    // Winter: midnight in London is midnight UTC.
    ["2026-12-04T00:00:00.000Z", "the end of Thursday, 03 December 2026"],
    // 48 hours before a 10:00 appointment in summer.
    ["2026-06-08T09:00:00.000Z", "Monday, 08 June 2026 at 10:00"],
    ["2026-12-07T14:30:00.000Z", "Monday, 07 December 2026 at 14:30"],
  ])("says %s as %s", (instant, words) => {
    expect(changeDeadlineLabel(new Date(instant))).toBe(words);
  });
});

describe("changeChoiceSchema", () => {
  it("asks for an event and a time when either is missing or empty", () => {
    const missing = changeChoiceSchema.safeParse({});
    expect(missing.success).toBe(false);
    expect(missing.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["event", CHANGE_FORM_MESSAGES.chooseEvent],
      ["slotTime", CHANGE_FORM_MESSAGES.chooseTime],
    ]);
    const empty = changeChoiceSchema.safeParse({ event: " ", slotTime: "" });
    expect(empty.error!.issues.map((issue) => issue.message)).toEqual([
      "Choose an event",
      "Choose a new time",
    ]);
  });

  it("takes an event and a time", () => {
    expect(changeChoiceSchema.parse({ event: "abc", slotTime: "10:30" })).toEqual({
      event: "abc",
      slotTime: "10:30",
    });
  });
});
