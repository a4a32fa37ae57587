import { afterEach, describe, expect, it, vi } from "vitest";
import {
  isDatabaseDown,
  isDatabaseUnavailableError,
  noteDatabaseError,
  watchDatabase,
} from "./health.server";

describe("isDatabaseUnavailableError", () => {
  it.each([
    [
      "a refused connection",
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    ],
    ["a dropped database", Object.assign(new Error("database gone"), { code: "3D000" })],
    ["an administrator shutdown", Object.assign(new Error("terminating"), { code: "57P01" })],
    ["a connection exception", Object.assign(new Error("broken"), { code: "08006" })],
    ["a lost connection", new Error("Connection terminated unexpectedly")],
    [
      "one wrapped by Drizzle",
      Object.assign(new Error("Failed query: select 1"), {
        cause: Object.assign(new Error("x"), { code: "ECONNRESET" }),
      }),
    ],
  ])("recognises %s", (_label, error) => {
    expect(isDatabaseUnavailableError(error)).toBe(true);
  });

  it.each([
    ["a unique violation", Object.assign(new Error("duplicate"), { code: "23505" })],
    ["a NUL byte refused", Object.assign(new Error("invalid byte sequence"), { code: "22021" })],
    ["a plain bug", new TypeError("x is undefined")],
    ["a string", "oops"],
  ])("does not mistake %s for an outage", (_label, error) => {
    expect(isDatabaseUnavailableError(error)).toBe(false);
  });
});

describe("noteDatabaseError", () => {
  afterEach(() => vi.useRealTimers());

  it("marks the database down on an outage, and up again once a ping answers", async () => {
    vi.useFakeTimers();
    let answers = false;
    watchDatabase(async () => {
      if (!answers) throw new Error("still down");
    });
    expect(noteDatabaseError(new Error("unique violation"))).toBe(false);
    expect(isDatabaseDown()).toBe(false);
    expect(noteDatabaseError(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseDown()).toBe(true);
    await vi.advanceTimersByTimeAsync(3000);
    expect(isDatabaseDown()).toBe(true);
    answers = true;
    await vi.advanceTimersByTimeAsync(1100);
    expect(isDatabaseDown()).toBe(false);
  });
});
