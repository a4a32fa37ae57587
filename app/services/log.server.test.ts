import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, describeError, scrub } from "./log.server";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger(stream), text: () => lines.join("") };
}

describe("scrub", () => {
  it.each([
    ["sign-up failed for john.smith@example.com", "sign-up failed for [email]"],
    ["NHS 943 476 5919 rejected", "NHS [number] rejected"],
    ["nhs=9434765919", "nhs=[number]"],
    ["phone 01632 960 001", "phone [number]"],
    ["phone +447700900123", "phone [number]"],
    ["born 1961-03-15", "born [date]"],
  ])("%s", (input, expected) => {
    expect(scrub(input)).toBe(expected);
  });

  it("leaves ids, codes and stack positions alone", () => {
    const line = "event 3f2a9c1e-1234-4bcd-8123-000000000001 at app.js:1234:56 code 23505";
    expect(scrub(line)).toBe(line);
  });
});

describe("describeError", () => {
  it("keeps a database error's code and constraint but not its message, which quotes parameters", () => {
    const cause = Object.assign(new Error("duplicate key value: Key (email)=(a@b.example)"), {
      code: "23505",
      constraint: "user_email_unique",
      detail: "Key (email)=(a@b.example) already exists.",
    });
    const wrapped = Object.assign(
      new Error('Failed query: insert into "profile" ... params: 9434765919,1961-03-15'),
      { name: "DrizzleQueryError", cause },
    );
    const described = describeError(wrapped);
    expect(described).toMatchObject({
      type: "Error",
      code: "23505",
      constraint: "user_email_unique",
    });
    expect(JSON.stringify(described)).not.toMatch(
      /a@b\.example|9434765919|1961-03-15|Failed query/,
    );
  });
});

describe("log lines", () => {
  it("redact personal fields by name and scrub everything else", () => {
    const { logger, text } = capture();
    logger.error(
      {
        route: "/signup",
        code: "signup_failed",
        email: "x@y.example",
        profile: { nhsNumber: "9434765919", dateOfBirth: "1961-03-15" },
        note: "typed 01632 960 001",
        err: new Error("value 9434765919 too long"),
      },
      "for x@y.example",
    );
    const output = text();
    expect(output).toContain('"route":"/signup"');
    expect(output).toContain('"code":"signup_failed"');
    for (const secret of ["x@y.example", "9434765919", "1961-03-15", "01632 960 001"])
      expect(output).not.toContain(secret);
  });
});
