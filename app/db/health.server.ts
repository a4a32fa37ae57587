import { log } from "#app/services/log.server";

/**
 * Whether the database is reachable, as far as this process knows. A connection failure anywhere
 * marks it down; from then on pages and the API answer 503 at once (instead of each request
 * waiting for its own time-out), and a probe pings the database every second until it answers.
 */

const NODE_CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  "EHOSTUNREACH",
  "EAI_AGAIN",
]);
/** SQLSTATEs meaning "no usable connection": class 08, shutdowns, a dropped database, too many clients. */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|3D000|53300)$/;
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

export function isDatabaseUnavailableError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (
      typeof code === "string" &&
      (NODE_CONNECTION_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code))
    )
      return true;
    if (typeof message === "string" && DRIVER_MESSAGES.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailableError))
      return true;
    current = cause;
  }
  return false;
}

let down = false;
let ping: (() => Promise<void>) | undefined;

/** Given by start-up: how to ask the database whether it answers. */
export function watchDatabase(pingDatabase: () => Promise<void>) {
  ping = pingDatabase;
  down = false;
}

export function isDatabaseDown(): boolean {
  return down;
}

/** Call with any error from a database call; a connection failure marks the database down. */
export function noteDatabaseError(error: unknown): boolean {
  if (!isDatabaseUnavailableError(error)) return false;
  if (!down) {
    down = true;
    log.warn(
      { code: "database_unavailable" },
      "database unavailable: answering 503 until it is back",
    );
    void probeUntilBack();
  }
  return true;
}

async function probeUntilBack() {
  while (down && ping) {
    await new Promise((resolve) => setTimeout(resolve, 1000).unref());
    try {
      await Promise.race([
        ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 2000).unref()),
      ]);
      down = false;
      log.info({ code: "database_available" }, "database available again");
    } catch {
      // still down; try again in a second
    }
  }
}
