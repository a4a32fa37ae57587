import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { labCsv, labCsvFilename, slugify, type LabCsvRow } from "./lab-csv";

const row: LabCsvRow = {
  reference: "MHAT-7KQ3-9XZ2",
  name: "Arthur Tester",
  dateOfBirth: "1966-03-01",
  nhsNumber: "9434765919",
  sampleId: "S-0001",
  eventDate: "2026-06-10",
  lab: "ESNEFT",
};

describe("labCsv", () => {
  it("has the lab's headers in order, then one line per row", () => {
    const text = labCsv([row]);
    expect(text.split("\n")[0]).toBe(
      "reference,name,date of birth,NHS number,sample id,event date,lab",
    );
    expect(text.split("\n")[1]).toBe(
      "MHAT-7KQ3-9XZ2,Arthur Tester,1966-03-01,9434765919,S-0001,2026-06-10,ESNEFT",
    );
    expect(text.endsWith("\n")).toBe(true);
  });

  it.each(["=SUM(A1:A2)", "+44", "-1", "@cmd", "\tx", "\rx", "\uFF1D1"])(
    "puts an apostrophe before a cell starting %j, which a spreadsheet would run",
    (value) => {
      const [, record] = parse(labCsv([{ ...row, name: value, lab: value }])) as string[][];
      expect(record![1]).toBe(`'${value}`);
      expect(record![6]).toBe(`'${value}`);
    },
  );

  it("leaves missing values empty", () => {
    const [, record] = parse(labCsv([{ ...row, dateOfBirth: null, nhsNumber: null, lab: null }]));
    expect(record).toEqual(["MHAT-7KQ3-9XZ2", "Arthur Tester", "", "", "S-0001", "2026-06-10", ""]);
  });

  it("escapes formulas and quotes commas, quotes and line breaks so the cells read back intact", () => {
    const text = labCsv([{ ...row, name: '=HYPERLINK("http://x","y"), Jr\nnext' }]);
    const records = parse(text) as string[][];
    expect(records).toHaveLength(2);
    expect(records[1]![1]).toBe(`'=HYPERLINK("http://x","y"), Jr\nnext`);
  });

  it("is only the header line without rows", () => {
    expect(labCsv([])).toBe("reference,name,date of birth,NHS number,sample id,event date,lab\n");
  });
});

describe("file name", () => {
  it("is made from the event's date and name only", () => {
    expect(
      labCsvFilename({ eventDate: "2026-06-10", name: "Stratford Community PSA Morning" }),
    ).toBe("lab-2026-06-10-stratford-community-psa-morning.csv");
  });
  it("drops accents and punctuation, and is never empty", () => {
    expect(slugify("Café  Rugby (Club) & Co!")).toBe("cafe-rugby-club-co");
    expect(slugify("!!!")).toBe("event");
    expect(slugify("a".repeat(49) + " bcd").length).toBeLessThanOrEqual(50);
    expect(slugify("a".repeat(49) + " bcd").endsWith("-")).toBe(false);
  });
});
