import { describe, expect, it } from "vitest";
import {
  ACCESS_CODE_ALPHABET,
  ACCESS_CODE_FORM_MESSAGES,
  EVENT_MESSAGES,
  STATUS_MESSAGES,
  accessCodeFormSchema,
  accessCodeState,
  bookingConflicts,
  cancelProblem,
  eventFormValues,
  formatAccessCode,
  penceToPounds,
  poundsToPence,
  productFormSchema,
  publishProblem,
  timingProblem,
  unpublishProblem,
  validateEventForm,
} from "./event-form";
import { parseForm } from "./forms";

const PRODUCT = "6f1c9a52-1d1e-4a53-9c1e-0d6c2f7a9b10";
const context = {
  productIds: [PRODUCT],
  labs: ["ESNEFT", "Partner laboratory"],
  today: "2026-06-01",
};

/** A form that passes; each test spoils one thing. */
const good: Record<string, string> = {
  name: "Halstead Rugby Club Screening",
  description: "PSA screening for men aged 40 to 80.",
  productId: PRODUCT,
  price: "",
  paymentRequired: "yes",
  eventDate: "2026-06-10",
  startTime: "10:00",
  endTime: "12:00",
  sessionDuration: "15",
  totalSpaces: "40",
  placesPerSlot: "2",
  category: "community",
  exclusiveFor: "everyone",
  visibility: "public",
  contactEmail: "events@example.org",
  labName: "ESNEFT",
  addressLine1: "1 Test Street",
  addressLine2: "",
  city: "Halstead",
  state: "Essex",
  postcode: "co9 2aa",
  country: "United Kingdom",
  latitude: "51.945",
  longitude: "0.64",
};

function errorsFor(changes: Record<string, string>, extra: Partial<typeof context> = {}) {
  const result = validateEventForm({ ...good, ...changes }, { ...context, ...extra });
  return result.ok ? {} : result.fieldErrors;
}

describe("validateEventForm", () => {
  it("accepts a good form and reads it into the event's columns", () => {
    const result = validateEventForm(good, context);
    expect(result).toEqual({
      ok: true,
      data: {
        name: "Halstead Rugby Club Screening",
        description: "PSA screening for men aged 40 to 80.",
        productId: PRODUCT,
        price: null,
        paymentRequired: true,
        eventDate: "2026-06-10",
        startTime: "10:00",
        endTime: "12:00",
        sessionDuration: 15,
        totalSpaces: 40,
        placesPerSlot: 2,
        category: "community",
        exclusiveFor: null,
        visibility: true,
        contactEmail: "events@example.org",
        labName: "ESNEFT",
        addressLine1: "1 Test Street",
        addressLine2: null,
        city: "Halstead",
        state: "Essex",
        postcode: "CO9 2AA",
        country: "United Kingdom",
        latitude: 51.945,
        longitude: 0.64,
      },
    });
  });

  it("keeps a price override in pence, typed as pounds", () => {
    for (const [typed, pence] of [
      ["25", 2500],
      ["25.5", 2550],
      ["£19.99", 1999],
      ["0", 0],
      ["1,250.00", 125000],
    ] as const) {
      const result = validateEventForm({ ...good, price: typed }, context);
      expect(result.ok && result.data.price).toBe(pence);
    }
  });

  it("refuses a negative or malformed price", () => {
    expect(errorsFor({ price: "-5.00" }).price).toBe(EVENT_MESSAGES.priceNegative);
    expect(errorsFor({ price: "25.999" }).price).toBe(EVENT_MESSAGES.price);
    expect(errorsFor({ price: "twenty" }).price).toBe(EVENT_MESSAGES.price);
  });

  it("needs a lab from the list", () => {
    expect(errorsFor({ labName: "" }).labName).toBe(EVENT_MESSAGES.lab);
    expect(errorsFor({ labName: "Somewhere else" }).labName).toBe(EVENT_MESSAGES.lab);
    expect(errorsFor({ labName: "Partner laboratory" }).labName).toBeUndefined();
  });

  it("needs a product from the list", () => {
    expect(errorsFor({ productId: "" }).productId).toBe(EVENT_MESSAGES.product);
    expect(errorsFor({ productId: "00000000-0000-0000-0000-000000000000" }).productId).toBe(
      EVENT_MESSAGES.product,
    );
  });

  it("needs the end after the start", () => {
    expect(errorsFor({ endTime: "10:00" }).endTime).toBe(EVENT_MESSAGES.endBeforeStart);
    expect(errorsFor({ endTime: "09:00" }).endTime).toBe(EVENT_MESSAGES.endBeforeStart);
    expect(errorsFor({ startTime: "25:00" }).startTime).toBe(EVENT_MESSAGES.startTime);
    expect(errorsFor({ endTime: "noon" }).endTime).toBe(EVENT_MESSAGES.endTime);
  });

  it("needs at least one whole session between start and end", () => {
    expect(errorsFor({ endTime: "10:10", sessionDuration: "15" }).sessionDuration).toBe(
      EVENT_MESSAGES.sessionTooLong(10),
    );
    expect(errorsFor({ endTime: "10:15", sessionDuration: "15" })).toEqual({});
    expect(errorsFor({ sessionDuration: "0" }).sessionDuration).toBe(
      EVENT_MESSAGES.sessionDuration,
    );
    expect(errorsFor({ sessionDuration: "7.5" }).sessionDuration).toBe(
      EVENT_MESSAGES.sessionDuration,
    );
  });

  it("keeps coordinates in range, and wants both or neither", () => {
    expect(errorsFor({ latitude: "90.0001" }).latitude).toBe(EVENT_MESSAGES.latitude);
    expect(errorsFor({ latitude: "-91" }).latitude).toBe(EVENT_MESSAGES.latitude);
    expect(errorsFor({ longitude: "180.5" }).longitude).toBe(EVENT_MESSAGES.longitude);
    expect(errorsFor({ longitude: "1e2" }).longitude).toBe(EVENT_MESSAGES.longitude);
    expect(errorsFor({ latitude: "-90", longitude: "180" })).toEqual({});
    expect(errorsFor({ latitude: "", longitude: "" })).toEqual({});
    expect(errorsFor({ latitude: "" }).latitude).toBe(EVENT_MESSAGES.coordinatesPair);
  });

  it("refuses a new event in the past, but leaves an unchanged past date alone", () => {
    expect(errorsFor({ eventDate: "2026-05-31" }).eventDate).toBe(EVENT_MESSAGES.eventDatePast);
    expect(errorsFor({ eventDate: "2026-06-01" })).toEqual({});
    expect(errorsFor({ eventDate: "2026-05-31" }, { currentDate: "2026-05-31" } as never)).toEqual(
      {},
    );
    expect(errorsFor({ eventDate: "2026-02-30" }).eventDate).toBe(EVENT_MESSAGES.eventDate);
  });

  it("reports every problem at once, and keeps what was typed", () => {
    const result = validateEventForm(
      { ...good, name: " ", endTime: "09:00", latitude: "95", labName: "" },
      context,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fieldErrors).sort()).toEqual(
      ["endTime", "labName", "latitude", "name"].sort(),
    );
    expect(result.values.latitude).toBe("95");
  });

  it("checks the capacity against the places already taken when editing", () => {
    const bookings = {
      taken: 12,
      mostAtOneTime: 2,
      bookedTimes: ["10:00", "11:30"],
      eventDate: "2026-06-10",
    };
    expect(errorsFor({ totalSpaces: "11" }, { bookings } as never).totalSpaces).toBe(
      EVENT_MESSAGES.capacityBelowTaken(12),
    );
    expect(errorsFor({ totalSpaces: "12" }, { bookings } as never)).toEqual({});
  });
});

describe("bookingConflicts", () => {
  const input = {
    eventDate: "2026-06-10",
    startTime: "10:00",
    endTime: "12:00",
    sessionDuration: 30,
    totalSpaces: 40,
    placesPerSlot: 2,
  };
  const bookings = {
    taken: 3,
    mostAtOneTime: 2,
    bookedTimes: ["10:00", "11:30"],
    eventDate: "2026-06-10",
  };

  it("finds nothing wrong with a change that keeps every booking", () => {
    expect(bookingConflicts(input, bookings)).toEqual({});
    expect(bookingConflicts({ ...input, endTime: "13:00" }, bookings)).toEqual({});
  });

  it("refuses fewer places than taken, in total or at one time", () => {
    expect(bookingConflicts({ ...input, totalSpaces: 2 }, bookings)).toEqual({
      totalSpaces: EVENT_MESSAGES.capacityBelowTaken(3),
    });
    expect(bookingConflicts({ ...input, placesPerSlot: 1 }, bookings)).toEqual({
      placesPerSlot: EVENT_MESSAGES.perSlotBelowTaken(2),
    });
  });

  it("keeps the laboratory once a sample has been taken for it (found by a coordinator review)", () => {
    const sampled = { ...bookings, labName: "Partner laboratory", samplesTaken: 2 };
    expect(bookingConflicts({ ...input, labName: "ESNEFT" }, sampled)).toEqual({
      labName:
        "2 samples have already been taken for Partner laboratory, so the laboratory cannot be changed: the tubes and the lab's list are theirs",
    });
    expect(bookingConflicts({ ...input, labName: "Partner laboratory" }, sampled)).toEqual({});
    // Before any sample, or when none was set, a laboratory can still be chosen.
    expect(
      bookingConflicts({ ...input, labName: "ESNEFT" }, { ...sampled, samplesTaken: 0 }),
    ).toEqual({});
    expect(
      bookingConflicts({ ...input, labName: "ESNEFT" }, { ...sampled, labName: null }),
    ).toEqual({});
  });

  it("refuses to remove a booked time or move the date of a booked event", () => {
    expect(bookingConflicts({ ...input, endTime: "11:30" }, bookings)).toEqual({
      startTime: EVENT_MESSAGES.slotsRemoved(["11:30"]),
    });
    expect(bookingConflicts({ ...input, sessionDuration: 45 }, bookings)).toEqual({
      startTime: EVENT_MESSAGES.slotsRemoved(["11:30"]),
    });
    expect(bookingConflicts({ ...input, eventDate: "2026-06-11" }, bookings)).toEqual({
      eventDate: EVENT_MESSAGES.dateLocked,
    });
    // Nobody booked: anything goes.
    expect(
      bookingConflicts(
        { ...input, eventDate: "2026-06-11", endTime: "10:30" },
        { taken: 0, mostAtOneTime: 0, bookedTimes: [], eventDate: "2026-06-10" },
      ),
    ).toEqual({});
  });
});

describe("timingProblem", () => {
  it("is null when a whole session fits", () => {
    expect(timingProblem("09:00", "09:15", 15)).toBeNull();
    expect(timingProblem("09:00", "17:00", 20)).toBeNull();
  });
  it("names the field at fault", () => {
    expect(timingProblem("09:00", "08:59", 15)?.field).toBe("endTime");
    expect(timingProblem("09:00", "09:14", 15)?.field).toBe("sessionDuration");
  });
});

describe("money", () => {
  it("reads pounds exactly, without floating point", () => {
    expect(poundsToPence("19.99")).toEqual({ ok: true, pence: 1999 });
    expect(poundsToPence("0.1")).toEqual({ ok: true, pence: 10 });
    expect(poundsToPence(".5")).toEqual({ ok: true, pence: 50 });
    expect(poundsToPence("")).toEqual({ ok: false, reason: "format" });
    expect(poundsToPence("-1")).toEqual({ ok: false, reason: "negative" });
    expect(poundsToPence("10000.01")).toEqual({ ok: false, reason: "too-high" });
  });
  it("writes pence as pounds for a form", () => {
    expect(penceToPounds(2500)).toBe("25.00");
    expect(penceToPounds(5)).toBe("0.05");
    expect(penceToPounds(0)).toBe("0.00");
  });
});

describe("eventFormValues", () => {
  it("turns a stored event back into the form it came from", () => {
    const result = validateEventForm(good, context);
    if (!result.ok) throw new Error("expected a good form");
    const d = result.data;
    const values = eventFormValues({
      ...d,
      pricePence: 2550,
      paymentRequired: d.paymentRequired,
      startTime: "10:00:00",
      endTime: "12:00:00",
      isPublic: d.visibility,
    });
    expect(values).toMatchObject({
      price: "25.50",
      startTime: "10:00",
      endTime: "12:00",
      paymentRequired: "yes",
      exclusiveFor: "everyone",
      visibility: "public",
      addressLine2: "",
      latitude: "51.945",
    });
    expect(validateEventForm(values, context).ok).toBe(true);
  });
});

describe("products", () => {
  it("needs a name and a price of £0.00 or more", () => {
    expect(parseForm(productFormSchema, { name: "PSA", description: "", price: "25" })).toEqual({
      ok: true,
      data: { name: "PSA", description: null, price: 2500 },
    });
    const bad = parseForm(productFormSchema, { name: "", description: "", price: "" });
    expect(bad.ok ? {} : bad.fieldErrors).toEqual({
      name: "Enter the product's name",
      price: "Enter the price in pounds and pence, like 25.00",
    });
    const negative = parseForm(productFormSchema, { name: "PSA", price: "-1" });
    expect(negative.ok ? {} : negative.fieldErrors).toEqual({
      price: EVENT_MESSAGES.priceNegative,
    });
  });
});

describe("access codes", () => {
  it("makes readable codes from the alphabet, in three groups of four", () => {
    const bytes = new Uint8Array(24).map((_, index) => index * 7);
    const code = formatAccessCode(bytes);
    expect(code).toMatch(/^[ACDEFGHJKMNPQRTUVWXY34679]{4}(-[ACDEFGHJKMNPQRTUVWXY34679]{4}){2}$/);
    // No characters that are read out wrongly.
    expect(ACCESS_CODE_ALPHABET).not.toMatch(/[0O1IL5S2Z8B]/);
  });

  it("skips bytes that would bias the choice, and refuses too few bytes", () => {
    const biased = new Uint8Array(24).fill(255);
    expect(() => formatAccessCode(biased)).toThrow(RangeError);
    const mixed = new Uint8Array([255, ...new Uint8Array(12)]);
    expect(formatAccessCode(mixed)).toBe("AAAA-AAAA-AAAA");
  });

  it("reads the code form: optional label, uses and last day", () => {
    const schema = accessCodeFormSchema("2026-06-01");
    expect(parseForm(schema, { label: " Lodge ", maxUses: "60", expiresOn: "2026-06-30" })).toEqual(
      { ok: true, data: { label: "Lodge", maxUses: 60, expiresOn: "2026-06-30" } },
    );
    expect(parseForm(schema, { label: "", maxUses: "", expiresOn: "" })).toEqual({
      ok: true,
      data: { label: null, maxUses: null, expiresOn: null },
    });
    const bad = parseForm(schema, { maxUses: "0", expiresOn: "2026-05-31" });
    expect(bad.ok ? {} : bad.fieldErrors).toEqual({
      maxUses: ACCESS_CODE_FORM_MESSAGES.maxUses,
      expiresOn: ACCESS_CODE_FORM_MESSAGES.expiresPast,
    });
  });

  it("says whether a code still works", () => {
    const now = new Date("2026-06-01T12:00:00Z");
    const code = { revokedAt: null, expiresAt: null, maxUses: null, uses: 5 };
    expect(accessCodeState(code, now)).toBe("active");
    expect(accessCodeState({ ...code, maxUses: 5 }, now)).toBe("used-up");
    expect(accessCodeState({ ...code, expiresAt: now }, now)).toBe("expired");
    expect(accessCodeState({ ...code, maxUses: 5, revokedAt: now }, now)).toBe("revoked");
  });
});

describe("status changes", () => {
  it("never publishes a cancelled event, or one without a lab or already over", () => {
    expect(publishProblem({ status: "draft", labName: "ESNEFT" }, false)).toBeNull();
    expect(publishProblem({ status: "cancelled", labName: "ESNEFT" }, false)).toBe(
      STATUS_MESSAGES.publishCancelled,
    );
    expect(publishProblem({ status: "draft", labName: null }, false)).toBe(
      STATUS_MESSAGES.publishNoLab,
    );
    expect(publishProblem({ status: "draft", labName: "ESNEFT" }, true)).toBe(
      STATUS_MESSAGES.publishPassed,
    );
  });

  it("cancels only an event that has not ended", () => {
    expect(cancelProblem(false)).toBeNull();
    expect(cancelProblem(true)).toBe(STATUS_MESSAGES.cancelEnded);
  });

  it("unpublishes only an event nobody has booked", () => {
    expect(unpublishProblem(0)).toBeNull();
    expect(unpublishProblem(1)).toContain("1 person has booked");
    expect(unpublishProblem(3)).toContain("3 people have booked");
  });
});
