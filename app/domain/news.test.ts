import { describe, expect, it } from "vitest";
import { ARCHIVE_MONTHS, archiveMonthLabel, pageOfNews, parseNewsDate } from "./news";

const items = [
  { id: 1, date: "03 January 2020" },
  { id: 2, date: "14 August 2023" },
  { id: 3, date: "02 August 2023" },
  { id: 4, date: "20 June 2023" },
  { id: 5, date: "11 December 2022" },
  { id: 6, date: "09 September 2021" },
];

describe("pageOfNews", () => {
  it("sorts newest first and pages by four", () => {
    const first = pageOfNews(items, {});
    expect(first.items.map((item) => item.id)).toEqual([2, 3, 4, 5]);
    expect(first.totalPages).toBe(2);
    expect(pageOfNews(items, { page: "2" }).items.map((item) => item.id)).toEqual([6, 1]);
  });

  it("filters by archive month", () => {
    const august = pageOfNews(items, { month: "2023-08" });
    expect(august.items.map((item) => item.id)).toEqual([2, 3]);
    expect(august.month).toBe("2023-08");
  });

  it("gives an empty page for a month with no news", () => {
    const result = pageOfNews(items, { month: "2020-02" });
    expect(result.items).toEqual([]);
    expect(result.totalPages).toBe(1);
  });

  it("ignores unknown months and clamps out-of-range pages", () => {
    expect(pageOfNews(items, { month: "1999-01" }).month).toBeNull();
    expect(pageOfNews(items, { page: "99" }).page).toBe(2);
    expect(pageOfNews(items, { page: "-3" }).page).toBe(1);
    expect(pageOfNews(items, { page: "abc" }).page).toBe(1);
  });
});

describe("archive months", () => {
  it("lists the spec's twelve months with readable labels", () => {
    expect(ARCHIVE_MONTHS).toHaveLength(12);
    expect(archiveMonthLabel("2023-08")).toBe("August 2023");
    expect(archiveMonthLabel("2020-01")).toBe("January 2020");
  });
  it("parses the news date format", () => {
    expect(parseNewsDate("05 January 2024").getFullYear()).toBe(2024);
    expect(() => parseNewsDate("yesterday")).toThrow();
  });
});
