import { describe, expect, it } from "vitest";
import { cancellationTerms, changeTerms } from "./cancellation-policy";
import {
  CHANGE_TERMS,
  REFUND_TERMS,
  bookingDeadlineSentences,
  bookingTermsSentences,
  generalTermsSentences,
  refundBeforeChoosing,
  termsBeforeBooking,
} from "./terms-wording";

/** Monday 8 June 2026, 10:00 in London (09:00 UTC); no bank holiday in the fortnight before. */
const MONDAY = new Date("2026-06-08T09:00:00Z");
const at = (iso: string, paidPence = 2500) => ({
  appointmentStart: MONDAY,
  now: new Date(iso),
  paidPence,
  sampleTakenOrResult: false,
});

describe("the general terms, checked against the rule", () => {
  it("'for a Monday appointment, by the end of the Tuesday before' is when the full refund ends", () => {
    expect(REFUND_TERMS).toContain("for a Monday appointment, by the end of the Tuesday before");
    // 23:59 on Tuesday 2 June in London, then 00:01 on Wednesday 3 June.
    expect(cancellationTerms(at("2026-06-02T22:59:00Z"))).toMatchObject({ refundPence: 2500 });
    expect(cancellationTerms(at("2026-06-02T23:01:00Z"))).toMatchObject({ refundPence: 0 });
  });

  it("a Thursday cancellation, about 100 hours before a Monday appointment, gets nothing back", () => {
    expect(cancellationTerms(at("2026-06-04T05:00:00Z"))).toMatchObject({
      refundPence: 0,
      chargedInFull: true,
    });
  });

  it("'for a Monday appointment, until the end of the Wednesday before' is when changing ends", () => {
    expect(CHANGE_TERMS).toContain(
      "for a Monday appointment, until the end of the Wednesday before",
    );
    expect(changeTerms(at("2026-06-03T22:59:00Z")).allowed).toBe(true);
    expect(changeTerms(at("2026-06-03T23:01:00Z")).allowed).toBe(false);
  });

  it("speaks of money only when there is a price, and explains working days", () => {
    const free = generalTermsSentences(false).join(" ");
    expect(free).not.toMatch(/paid|refund|£/);
    expect(free).toContain("Working days are Monday to Friday, not counting bank holidays.");
    expect(generalTermsSentences(true).join(" ")).toContain(REFUND_TERMS);
    expect(free).not.toMatch(/48 hours before|free of charge/);
  });
});

describe("one booking's terms, with its own dates", () => {
  it.each([
    [
      "paid, a week ahead: both still open",
      at("2026-06-01T09:00:00Z"),
      [
        "Cancel by the end of Tuesday, 02 June 2026 and you get back the £25.00 you paid. If you cancel later, nothing is refunded.",
        "You can change the time online until the end of Wednesday, 03 June 2026. After that, please call our booking helpline on 01632 960 001.",
      ],
    ],
    [
      "paid, on the Wednesday: no refund any more, changing still open",
      at("2026-06-03T09:00:00Z"),
      [
        "The last day to cancel with a full refund was Tuesday, 02 June 2026.",
        "You can change the time online until the end of Wednesday, 03 June 2026. After that, please call our booking helpline on 01632 960 001.",
      ],
    ],
    [
      "paid, on the Friday: both closed, and it says what cancelling means",
      at("2026-06-05T09:00:00Z"),
      [
        "The last day to cancel with a full refund was Tuesday, 02 June 2026.",
        "It is too late to change the time online. If you cannot come, please cancel your booking so that someone else can have the place; the £25.00 you paid is not refunded.",
      ],
    ],
    [
      "free, on the Friday: no money spoken of",
      at("2026-06-05T09:00:00Z", 0),
      [
        "It is too late to change the time online. If you cannot come, please cancel your booking so that someone else can have the place.",
      ],
    ],
    ["once it has started: nothing", at("2026-06-08T09:00:00Z"), []],
  ])("%s", (_name, input, sentences) => {
    expect(bookingTermsSentences(input)).toEqual(sentences);
  });

  it("gives the deadlines alone for the calendar entry, money only when paid", () => {
    expect(bookingDeadlineSentences(MONDAY, 0)).toEqual([
      "You can change the time online until the end of Wednesday, 03 June 2026.",
    ]);
    expect(bookingDeadlineSentences(MONDAY, 2500)[0]).toBe(
      "For a full refund of the £25.00 you paid, cancel by the end of Tuesday, 02 June 2026.",
    );
  });
});

describe("a booking's terms before he books it", () => {
  const before = (iso: string, pricePence = 2500) =>
    termsBeforeBooking({ appointmentStart: MONDAY, pricePence, now: new Date(iso) });

  it("in good time: the last day for his money back, and until when he can change the time", () => {
    expect(before("2026-06-01T09:00:00Z")).toEqual({
      noRefund: false,
      sentences: [
        "If you cancel by the end of Tuesday, 02 June 2026, you get back the £25.00 you pay now. If you cancel later, nothing is refunded.",
        "You can change the time online until the end of Wednesday, 03 June 2026. After that, please call our booking helpline on 01632 960 001.",
      ],
    });
  });

  it("booked late: that cancelling gives nothing back, and whom to call for another time", () => {
    expect(before("2026-06-04T05:00:00Z")).toEqual({
      noRefund: true,
      sentences: [
        "If you pay now and then cancel, the £25.00 is not refunded: the last day to cancel with a full refund was Tuesday, 02 June 2026.",
        "It is too late to change the time online. If you need another time, please call our booking helpline on 01632 960 001.",
      ],
    });
  });

  it("for a free booking, says only until when the time can be changed online", () => {
    expect(before("2026-06-01T09:00:00Z", 0)).toEqual({
      noRefund: false,
      sentences: [
        "You can change the time online until the end of Wednesday, 03 June 2026. After that, please call our booking helpline on 01632 960 001.",
      ],
    });
    expect(before("2026-06-04T05:00:00Z", 0)).toEqual({
      noRefund: false,
      sentences: [
        "It is too late to change the time online. If you need another time, please call our booking helpline on 01632 960 001.",
      ],
    });
  });
});

describe("a paid event's refund while he chooses a time", () => {
  const choosing = (iso: string, pricePence = 2500) =>
    refundBeforeChoosing({ eventDate: "2026-06-08", pricePence, now: new Date(iso) });

  it("in good time: the last day for his money back, whichever time he then chooses", () => {
    expect(choosing("2026-06-02T21:00:00Z")).toEqual({
      noRefund: false,
      sentences: [
        "If you book and then cancel by the end of Tuesday, 02 June 2026, you get back the £25.00 you pay. If you cancel later, nothing is refunded.",
      ],
    });
  });

  it("too soon: a warning that paying would buy nothing back, from the first minute after that day", () => {
    // Wednesday 3 June 00:01 in London (23:01 UTC the day before).
    expect(choosing("2026-06-02T23:01:00Z")).toEqual({
      noRefund: true,
      sentences: [
        "If you book and pay, then cancel, the £25.00 is not refunded: this event is too soon, and the last day to cancel with a full refund was Tuesday, 02 June 2026.",
      ],
    });
    expect(choosing("2026-06-08T15:00:00Z")?.noRefund).toBe(true);
  });

  it("nothing for a free event, or once the event's day is over", () => {
    expect(choosing("2026-06-01T09:00:00Z", 0)).toBeNull();
    expect(choosing("2026-06-08T23:30:00Z")).toBeNull();
  });
});
