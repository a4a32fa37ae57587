import { describe, expect, it } from "vitest";
import { FIELD_MESSAGES } from "./fields";
import { parseForm } from "./forms";
import { PSA_MESSAGES } from "./psa-flag";
import {
  changedFields,
  correctionSchema,
  isSeenVersion,
  keptWhenChanged,
  MAX_COMMENTS,
  nextUpdatedAt,
  RELEASE_MESSAGES,
  releaseRefusal,
  releaseSchema,
} from "./result-release";

describe("releaseSchema", () => {
  it("needs a retest interval for Green", () => {
    const result = parseForm(releaseSchema, { flag: "green", retestYears: "", comments: "" });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: { retestYears: RELEASE_MESSAGES.retest },
    });
    expect(
      parseForm(releaseSchema, { flag: "green", retestYears: "2", comments: " Fine " }),
    ).toEqual({
      ok: true,
      data: { flag: "green", retestYears: 2, comments: "Fine", seen: "" },
    });
  });

  it("drops the retest interval for Amber and Red", () => {
    expect(parseForm(releaseSchema, { flag: "amber", retestYears: "3", comments: "" })).toEqual({
      ok: true,
      data: { flag: "amber", retestYears: null, comments: null, seen: "" },
    });
    expect(parseForm(releaseSchema, { flag: "red" })).toEqual({
      ok: true,
      data: { flag: "red", retestYears: null, comments: null, seen: "" },
    });
  });

  it("keeps the version the page showed", () => {
    const seen = "2026-06-20T09:00:00.123Z";
    expect(parseForm(releaseSchema, { flag: "red", seen })).toMatchObject({
      ok: true,
      data: { seen },
    });
  });

  it("refuses no flag, an unknown flag or interval, and long comments", () => {
    expect(parseForm(releaseSchema, {})).toMatchObject({
      ok: false,
      fieldErrors: { flag: RELEASE_MESSAGES.flag },
    });
    expect(parseForm(releaseSchema, { flag: "purple" })).toMatchObject({
      fieldErrors: { flag: RELEASE_MESSAGES.flag },
    });
    expect(parseForm(releaseSchema, { flag: "green", retestYears: "5" })).toMatchObject({
      fieldErrors: { retestYears: RELEASE_MESSAGES.retest },
    });
    expect(
      parseForm(releaseSchema, { flag: "red", comments: "x".repeat(MAX_COMMENTS + 1) }),
    ).toMatchObject({ fieldErrors: { comments: FIELD_MESSAGES.tooLong(MAX_COMMENTS) } });
    expect(parseForm(releaseSchema, { flag: "red", comments: "x".repeat(MAX_COMMENTS) }).ok).toBe(
      true,
    );
  });
});

describe("correctionSchema", () => {
  const good = {
    psaValue: "1.40",
    flag: "amber",
    retestYears: "",
    comments: "",
    reason: "lab-corrected",
    seen: "2026-06-21T09:00:00.000Z",
  };

  it("reads a correction", () => {
    expect(parseForm(correctionSchema, good)).toEqual({
      ok: true,
      data: {
        psaValue: "1.40",
        flag: "amber",
        retestYears: null,
        comments: null,
        reason: "lab-corrected",
        seen: "2026-06-21T09:00:00.000Z",
      },
    });
    expect(parseForm(correctionSchema, { ...good, seen: undefined })).toMatchObject({
      ok: true,
      data: { seen: "" },
    });
  });

  it("needs a reason from the list and a good value", () => {
    expect(parseForm(correctionSchema, { ...good, reason: "" })).toMatchObject({
      fieldErrors: { reason: RELEASE_MESSAGES.reason },
    });
    expect(parseForm(correctionSchema, { ...good, reason: "because" })).toMatchObject({
      fieldErrors: { reason: RELEASE_MESSAGES.reason },
    });
    expect(parseForm(correctionSchema, { ...good, psaValue: "1,4" })).toMatchObject({
      fieldErrors: { psaValue: PSA_MESSAGES.commaDecimal },
    });
    expect(parseForm(correctionSchema, { ...good, psaValue: "" })).toMatchObject({
      fieldErrors: { psaValue: PSA_MESSAGES.missing },
    });
  });
});

describe("changedFields", () => {
  it("names the fields that differ", () => {
    const before = { psaValue: "1.2", flag: "green", retestYears: 2, comments: null } as const;
    expect(changedFields(before, { ...before })).toEqual([]);
    expect(changedFields(before, { ...before, psaValue: "1.3", comments: "Note" })).toEqual([
      "psaValue",
      "comments",
    ]);
    expect(changedFields(before, { ...before, flag: "amber", retestYears: null })).toEqual([
      "flag",
      "retestYears",
    ]);
  });
});

describe("isSeenVersion", () => {
  const updatedAt = new Date("2026-06-20T09:00:00.123Z");

  it("matches only the exact version the page showed", () => {
    expect(isSeenVersion(updatedAt, "2026-06-20T09:00:00.123Z")).toBe(true);
    expect(isSeenVersion(updatedAt, "2026-06-20T09:00:00.124Z")).toBe(false);
    expect(isSeenVersion(updatedAt, "2026-06-20T09:00:00Z")).toBe(false);
    expect(isSeenVersion(updatedAt, "")).toBe(false);
    expect(isSeenVersion(updatedAt, "not a date")).toBe(false);
  });
});

describe("nextUpdatedAt", () => {
  it("is now, or one millisecond after the version it replaces if the clock has not moved on", () => {
    const previous = new Date("2026-06-20T09:00:00.000Z");
    expect(nextUpdatedAt(previous, new Date("2026-06-20T10:00:00.000Z"))).toEqual(
      new Date("2026-06-20T10:00:00.000Z"),
    );
    expect(nextUpdatedAt(previous, previous)).toEqual(new Date("2026-06-20T09:00:00.001Z"));
    expect(nextUpdatedAt(previous, new Date("2026-06-20T08:00:00.000Z"))).toEqual(
      new Date("2026-06-20T09:00:00.001Z"),
    );
  });
});

// Issue 14, item 10: results were released for an appointment 10 days away.
describe("releaseRefusal", () => {
  const sampled = { sampleTakenAt: new Date("2026-06-10T09:10:00Z") };
  const imported = { releasedAt: null, psaValue: "1.37" };

  it("releases an imported value whose sample was taken", () => {
    expect(releaseRefusal(imported, sampled)).toBeNull();
  });

  it("refuses a result for a booking without a sample taken", () => {
    expect(releaseRefusal(imported, { sampleTakenAt: null })).toBe("no-sample");
  });

  it("refuses one already released, and one without a value", () => {
    expect(releaseRefusal({ ...imported, releasedAt: new Date() }, sampled)).toBe(
      "already-released",
    );
    expect(releaseRefusal({ releasedAt: null, psaValue: null }, sampled)).toBe("no-value");
  });
});

describe("a form refused because its result changed", () => {
  it("keeps what was typed, not the flag or the retest chosen for the result as it was", () => {
    expect(
      keptWhenChanged({
        intent: "release",
        seen: "2026-06-20T09:00:00.000Z",
        flag: "green",
        retestYears: "2",
        comments: "Ask your GP.",
      }),
    ).toEqual({ intent: "release", comments: "Ask your GP." });
  });

  it("keeps only a correction's reason: its fields start again from the result as it is now", () => {
    expect(
      keptWhenChanged({
        intent: "correct",
        seen: "2026-06-20T09:00:00.000Z",
        psaValue: "4.1",
        flag: "amber",
        comments: "As it was when opened.",
        reason: "typo",
      }),
    ).toEqual({ reason: "typo" });
  });
});
