import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.server";

const production = {
  NODE_ENV: "production",
  APP_URL: "https://www.example.org",
  AUTH_SECRET: "a-secret-of-at-least-thirty-two-characters",
  SMTP_URL: "smtp://mail.example.org:587",
  PAYPAL_CLIENT_ID: "id",
  PAYPAL_CLIENT_SECRET: "secret",
};

describe("configuration", () => {
  it("turns demo data off in production, and on elsewhere", () => {
    expect(parseConfig(production).demoData).toBe(false);
    expect(parseConfig({}).demoData).toBe(true);
  });

  it("refuses demo data in production: its staff passwords and TOTP key are public", () => {
    expect(() => parseConfig({ ...production, DEMO_DATA: "1" })).toThrow(/DEMO_DATA/);
  });
});
