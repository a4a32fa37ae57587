import { describe, expect, it } from "vitest";
import { signInThrottle } from "./sign-in-limits";

const none = { hits: 0, retryAfterSeconds: 900 };

describe("signInThrottle", () => {
  it("allows sign-in until one address has failed 10 times for one account", () => {
    expect(
      signInThrottle({
        accountAndAddress: { hits: 9, retryAfterSeconds: 600 },
        account: none,
        address: none,
      }),
    ).toEqual({ allowed: true });
    expect(
      signInThrottle({
        accountAndAddress: { hits: 10, retryAfterSeconds: 600 },
        account: { hits: 10, retryAfterSeconds: 600 },
        address: { hits: 10, retryAfterSeconds: 600 },
      }),
    ).toEqual({ allowed: false, retryAfterSeconds: 600 });
  });

  it("stops a guess spread over many addresses at 100 failures for the account", () => {
    const oneAddress = { hits: 2, retryAfterSeconds: 300 };
    expect(
      signInThrottle({
        accountAndAddress: oneAddress,
        account: { hits: 99, retryAfterSeconds: 300 },
        address: oneAddress,
      }),
    ).toEqual({ allowed: true });
    expect(
      signInThrottle({
        accountAndAddress: none,
        account: { hits: 100, retryAfterSeconds: 300 },
        address: none,
      }),
    ).toEqual({ allowed: false, retryAfterSeconds: 300 });
  });

  it("stops one address trying many accounts at 50 failures", () => {
    expect(
      signInThrottle({
        accountAndAddress: none,
        account: none,
        address: { hits: 50, retryAfterSeconds: 61 },
      }),
    ).toEqual({ allowed: false, retryAfterSeconds: 61 });
  });

  it("waits for the longest of the limits reached, and at least a second", () => {
    expect(
      signInThrottle({
        accountAndAddress: { hits: 10, retryAfterSeconds: 120 },
        account: none,
        address: { hits: 50, retryAfterSeconds: 480 },
      }),
    ).toEqual({ allowed: false, retryAfterSeconds: 480 });
    expect(
      signInThrottle({
        accountAndAddress: { hits: 10, retryAfterSeconds: 0 },
        account: none,
        address: none,
      }),
    ).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
