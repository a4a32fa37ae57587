import { describe, expect, it } from "vitest";
import { parseEventQuery, readEventQueryLeniently } from "./event-query";

const params = (query: string) => new URLSearchParams(query);

describe("event query", () => {
  it("reads a comma list and repeated parameters alike", () => {
    expect(parseEventQuery(params("for=community,corporate")).data?.for).toEqual([
      "community",
      "corporate",
    ]);
    expect(parseEventQuery(params("for=community&for=freemasons")).data?.for).toEqual([
      "community",
      "freemasons",
    ]);
  });
  it("treats empty values as absent", () => {
    expect(parseEventQuery(params("for=&location=&date="))).toMatchObject({
      success: true,
      data: { for: [], location: undefined, date: undefined },
    });
  });
  it("refuses unknown categories and date windows with a message naming the choices", () => {
    const category = parseEventQuery(params("for=community,golf"));
    expect(category.success).toBe(false);
    expect(category.error?.issues[0]?.message).toMatch(/Unknown category "golf"/);
    const date = parseEventQuery(params("date=tomorrow"));
    expect(date.success).toBe(false);
    expect(date.error?.issues[0]?.message).toMatch(/today, next-week, next-month, future-events/);
  });
  it("refuses an over-long location", () => {
    expect(parseEventQuery(params(`location=${"x".repeat(101)}`)).success).toBe(false);
  });
  it("drops bad values when reading a page link", () => {
    expect(
      readEventQueryLeniently(params("for=golf,corporate&date=tomorrow&location=%20Ipswich%20")),
    ).toEqual({
      for: ["corporate"],
      date: undefined,
      location: "Ipswich",
    });
  });
});
