import { describe, expect, it } from "vitest";
import {
  AUDIT_FILTER_MESSAGES,
  auditFilterSchema,
  auditPageQuery,
  auditTimeRange,
  formatLondonDateTime,
} from "./audit-filter";
import { parseForm } from "./forms";

describe("audit log filters", () => {
  it("accepts an empty query as no filter on page 1", () => {
    const parsed = parseForm(auditFilterSchema, {});
    expect(parsed).toEqual({
      ok: true,
      data: { action: null, actor: null, subject: null, from: null, to: null, page: 1 },
    });
  });

  it("reads every filter, lower-casing the actor's address", () => {
    const parsed = parseForm(auditFilterSchema, {
      action: "result.release",
      actor: " Demo.Admin@Example.org ",
      subject: "MHAT-7KQ3-9XZ2",
      from: "2026-03-01",
      to: "2026-03-31",
      page: "3",
    });
    expect(parsed.ok && parsed.data).toEqual({
      action: "result.release",
      actor: "demo.admin@example.org",
      subject: "MHAT-7KQ3-9XZ2",
      from: "2026-03-01",
      to: "2026-03-31",
      page: 3,
    });
  });

  it("refuses unknown actions, bad addresses and impossible dates with messages", () => {
    const parsed = parseForm(auditFilterSchema, {
      action: "drop.table",
      actor: "not an address",
      from: "2026-02-30",
      to: "yesterday",
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fieldErrors).toEqual({
      action: AUDIT_FILTER_MESSAGES.action,
      actor: "Enter an email address in the correct format, like name@example.com",
      from: AUDIT_FILTER_MESSAGES.date,
      to: AUDIT_FILTER_MESSAGES.date,
    });
    expect(parsed.values.from).toBe("2026-02-30");
  });

  it("refuses a 'to' date before the 'from' date", () => {
    const parsed = parseForm(auditFilterSchema, { from: "2026-03-02", to: "2026-03-01" });
    expect(parsed.ok || parsed.fieldErrors).toEqual({ to: AUDIT_FILTER_MESSAGES.dateOrder });
  });

  it("treats a nonsense page number as page 1", () => {
    for (const page of ["0", "-4", "abc", "1.5"]) {
      const parsed = parseForm(auditFilterSchema, { page });
      expect(parsed.ok && parsed.data.page).toBe(1);
    }
  });
});

describe("audit time range", () => {
  it("covers whole London days, in summer time too", () => {
    // 1 July 2026 starts at 23:00 UTC on 30 June (BST); 1 December at midnight UTC (GMT).
    expect(auditTimeRange({ from: "2026-07-01", to: "2026-07-01" })).toEqual({
      from: new Date("2026-06-30T23:00:00Z"),
      before: new Date("2026-07-01T23:00:00Z"),
    });
    expect(auditTimeRange({ from: "2026-12-01", to: null })).toEqual({
      from: new Date("2026-12-01T00:00:00Z"),
      before: null,
    });
  });
});

describe("audit paging and labels", () => {
  it("keeps the filters in another page's address", () => {
    const filter = {
      action: "audit.view" as const,
      actor: null,
      subject: "a b",
      from: "2026-01-01",
      to: null,
      page: 1,
    };
    expect(auditPageQuery(filter, 2)).toBe("?action=audit.view&subject=a+b&from=2026-01-01&page=2");
    expect(auditPageQuery({ ...filter, action: null, subject: null, from: null }, 1)).toBe("");
  });

  it("prints London wall-clock time", () => {
    expect(formatLondonDateTime(new Date("2026-07-01T13:05:09Z"))).toBe("01 Jul 2026, 14:05:09");
    expect(formatLondonDateTime("2026-12-01T13:05:09Z")).toBe("01 Dec 2026, 13:05:09");
  });
});
