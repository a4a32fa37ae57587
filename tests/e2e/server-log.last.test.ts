import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { query } from "./support";

/**
 * Runs after every other browser test (see sequencer.ts). Everything the server printed during
 * the run, failures included, must be free of the personal data the tests typed: e-mail
 * addresses, phone numbers, NHS numbers and dates of birth.
 */
describe("the server's log", () => {
  it("holds none of the personal data the tests entered", async () => {
    const log = readFileSync(inject("serverLogFile"), "utf8");
    expect(log.length, "the log file was written").toBeGreaterThan(0);

    const profiles = await query<{
      email: string;
      phone: string;
      nhs_number: string | null;
      date_of_birth: string | null;
    }>(
      "select email, phone, nhs_number, to_char(date_of_birth, 'YYYY-MM-DD') as date_of_birth from profile",
    );
    const enquiries = await query<{ email: string; phone_number: string }>(
      "select email, phone_number from enquiry",
    );
    const subscribers = await query<{ email: string }>("select email from newsletter_subscription");
    expect(profiles.length, "the run created accounts to look for").toBeGreaterThan(3);

    const personal = new Set<string>();
    for (const row of profiles) {
      personal.add(row.email);
      personal.add(row.phone);
      if (row.nhs_number) {
        personal.add(row.nhs_number);
        personal.add(row.nhs_number.replace(/(\d{3})(\d{3})(\d{4})/, "$1 $2 $3"));
      }
      if (row.date_of_birth) {
        const [year, month, day] = row.date_of_birth.split("-");
        personal.add(row.date_of_birth);
        personal.add(`${day}/${month}/${year}`);
      }
    }
    for (const row of enquiries) {
      personal.add(row.email);
      personal.add(row.phone_number);
    }
    for (const row of subscribers) personal.add(row.email);

    const found = [...personal].filter((value) => value.length >= 6 && log.includes(value));
    expect(found, "personal data in the server log").toEqual([]);
  });
});
