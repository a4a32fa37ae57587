import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { subscribersCsv, subscribersCsvFilename } from "./subscribers-csv";

describe("subscribers CSV", () => {
  it("has a header row and one row per subscriber, dated in London", () => {
    const csv = subscribersCsv([
      {
        name: "Zoë O'Neill, Jr",
        email: "zoe@example.com",
        hearAboutEvents: true,
        // 23:30 UTC on 30 June is 00:30 on 1 July in London (summer time).
        subscribedAt: new Date("2026-06-30T23:30:00Z"),
      },
      {
        name: '=HYPERLINK("http://evil.example")',
        email: "x@example.com",
        hearAboutEvents: false,
        subscribedAt: new Date("2026-01-02T10:00:00Z"),
      },
    ]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(parse(csv, { bom: true })).toEqual([
      ["name", "email", "hear about events", "subscribed date"],
      ["Zoë O'Neill, Jr", "zoe@example.com", "yes", "2026-07-01"],
      ['\'=HYPERLINK("http://evil.example")', "x@example.com", "no", "2026-01-02"],
    ]);
  });

  it("names the file with London's date", () => {
    expect(subscribersCsvFilename(new Date("2026-03-31T23:30:00Z"))).toBe(
      "newsletter-subscribers-2026-04-01.csv",
    );
    expect(subscribersCsvFilename(new Date("2026-01-31T23:30:00Z"))).toBe(
      "newsletter-subscribers-2026-01-31.csv",
    );
  });
});
