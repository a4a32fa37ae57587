import { describe, expect, it } from "vitest";
import { CONFIGURATION_NAMES, parseConfig } from "./config.server";

const production = {
  NODE_ENV: "production",
  APP_URL: "https://www.example.org",
  AUTH_SECRET: "a-secret-of-at-least-thirty-two-characters",
  SMTP_URL: "smtp://mail.example.org:587",
  PAYPAL_CLIENT_ID: "id",
  PAYPAL_CLIENT_SECRET: "secret",
  PAYPAL_ENV: "production",
};

describe("configuration", () => {
  it("turns demo data off in production, and on elsewhere", () => {
    expect(parseConfig(production).demoData).toBe(false);
    expect(parseConfig({}).demoData).toBe(true);
  });

  it("refuses demo data in production: its staff passwords and TOTP key are public", () => {
    expect(() => parseConfig({ ...production, DEMO_DATA: "1" })).toThrow(/DEMO_DATA/);
  });

  it("makes production say which PayPal it means, and defaults to the sandbox elsewhere", () => {
    const unsaid: Record<string, string> = { ...production };
    delete unsaid.PAYPAL_ENV;
    expect(() => parseConfig(unsaid)).toThrow(/PAYPAL_ENV is required in production/);
    expect(parseConfig({ ...production, PAYPAL_ENV: "sandbox" }).PAYPAL_ENV).toBe("sandbox");
    expect(parseConfig({}).PAYPAL_ENV).toBeUndefined();
  });
});

describe("REMINDER_HOURS_BEFORE", () => {
  it("is 48 hours unless set, and takes 2 to 336 hours", () => {
    expect(parseConfig({}).REMINDER_HOURS_BEFORE).toBe(48);
    expect(parseConfig({ REMINDER_HOURS_BEFORE: "24" }).REMINDER_HOURS_BEFORE).toBe(24);
    for (const bad of ["1", "337", "two days", "1.5"])
      expect(() => parseConfig({ REMINDER_HOURS_BEFORE: bad })).toThrow(
        "Configuration: REMINDER_HOURS_BEFORE must be a whole number from 2 to 336",
      );
  });
});

/** Finding 9 of issue 14: TRUST_PROXY=1 trusted nothing and TRUST_PROXY=true crashed. */
describe("TRUST_PROXY takes the forms of Express's trust proxy setting", () => {
  const trust = (value: string) => parseConfig({ TRUST_PROXY: value }).TRUST_PROXY;

  it("true and false are booleans", () => {
    expect(trust("true")).toBe(true);
    expect(trust("false")).toBe(false);
    expect(trust(" TRUE ")).toBe(true);
  });

  it("a whole number is the count of proxies in front", () => {
    expect(trust("1")).toBe(1);
    expect(trust("2")).toBe(2);
    expect(trust("0")).toBe(0);
  });

  it("addresses, subnets and Express's names are a list", () => {
    expect(trust("loopback")).toEqual(["loopback"]);
    expect(trust("loopback, linklocal, uniquelocal")).toEqual([
      "loopback",
      "linklocal",
      "uniquelocal",
    ]);
    expect(trust("10.0.0.1,192.168.0.0/16, fd00::/8")).toEqual([
      "10.0.0.1",
      "192.168.0.0/16",
      "fd00::/8",
    ]);
    expect(trust("10.0.0.0/255.0.0.0")).toEqual(["10.0.0.0/255.0.0.0"]);
    expect(trust("::1")).toEqual(["::1"]);
  });

  it("is not set when blank", () => {
    expect(parseConfig({ TRUST_PROXY: "" }).TRUST_PROXY).toBeUndefined();
    expect(parseConfig({}).TRUST_PROXY).toBeUndefined();
  });

  it.each([
    "yes please",
    "1.5",
    "-1",
    "10.0.0.0/33",
    "fd00::/129",
    "10.0.0",
    "loopback,,",
    "300.1.1.1",
  ])("refuses %j, naming the setting", (value) => {
    expect(() => parseConfig({ TRUST_PROXY: value })).toThrow(/^Configuration: TRUST_PROXY /);
  });
});

describe("every setting is checked before anything uses it (finding 9: LOG_LEVEL=verbose crashed in pino)", () => {
  it("refuses an unknown LOG_LEVEL and accepts pino's levels", () => {
    expect(() => parseConfig({ LOG_LEVEL: "verbose" })).toThrow(/^Configuration: LOG_LEVEL /);
    for (const level of ["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      expect(parseConfig({ LOG_LEVEL: level }).LOG_LEVEL).toBe(level);
    expect(parseConfig({}).LOG_LEVEL).toBe("info");
  });

  it("puts each problem on one line of its own, naming the setting", () => {
    try {
      parseConfig({ LOG_LEVEL: "verbose", HOLD_MINUTES: "0", PORT: "eighty" });
      expect.unreachable();
    } catch (error) {
      const lines = (error as Error).message.split("\n");
      expect(lines.map((line) => line.split(" ")[1]).sort()).toEqual([
        "HOLD_MINUTES",
        "LOG_LEVEL",
        "PORT",
      ]);
      for (const line of lines) expect(line).toMatch(/^Configuration: [A-Z_]+ \S/);
    }
  });

  it("refuses database, mail and site addresses that cannot work", () => {
    expect(() => parseConfig({ DATABASE_URL: "mysql://root@db/mhat" })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ SMTP_URL: "mail.example.org" })).toThrow(/SMTP_URL/);
    expect(() => parseConfig({ APP_URL: "www.example.org" })).toThrow(/APP_URL/);
    expect(() => parseConfig({ PAYPAL_CLIENT_ID: "only-the-id" })).toThrow(/PAYPAL_CLIENT_SECRET/);
    expect(parseConfig({ DATABASE_URL: "postgresql://site@db:5432/mhat" }).DATABASE_URL).toBe(
      "postgresql://site@db:5432/mhat",
    );
    expect(parseConfig({ SMTP_URL: "smtps://user:pass@mail.example.org:465" }).SMTP_URL).toBe(
      "smtps://user:pass@mail.example.org:465",
    );
  });

  it("refuses a HOST that is neither an address nor a host name, and defaults to loopback", () => {
    expect(() => parseConfig({ HOST: "not a host!" })).toThrow(/^Configuration: HOST /);
    expect(parseConfig({}).HOST).toBe("127.0.0.1");
    expect(parseConfig({ HOST: "::" }).HOST).toBe("::");
  });
});

describe("the documented settings", () => {
  it("names every setting the site reads in .env.example and in the README's table", async () => {
    const { readFile } = await import("node:fs/promises");
    const example = await readFile(".env.example", "utf8");
    const readme = await readFile("README.md", "utf8");
    const missing = CONFIGURATION_NAMES.filter(
      (name) =>
        !new RegExp(`^${name}=`, "m").test(example) ||
        !new RegExp(`^\\|[^|\\n]*\`${name}\``, "m").test(readme),
    );
    expect(CONFIGURATION_NAMES.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
