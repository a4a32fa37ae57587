import crypto from "node:crypto";
import pino from "pino";
import { LOG_LEVELS } from "#app/config.server";

/**
 * The service's one logger. Lines carry ids, routes and codes; never what a person typed. Three
 * layers make sure of that: callers log errors through `describeError` (no messages from the
 * database, which quote SQL parameters), known personal fields are redacted by name, and every
 * string is scrubbed of anything shaped like an e-mail address, a phone or NHS number, or a date.
 */

const PERSONAL_FIELDS = [
  "email",
  "password",
  "newPassword",
  "phone",
  "phoneNumber",
  "nhsNumber",
  "nhs",
  "dateOfBirth",
  "firstName",
  "lastName",
  "name",
  "address",
  "message",
  "token",
  "cookie",
  "authorization",
];

const EMAIL = /[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[a-z]{2,}/gi;
/** Runs of digits with spaces or dashes: phone numbers, NHS numbers ("943 476 5919"). Not parts of ids. */
const LONG_NUMBER = /(?<![\w-])\+?\d[\d ()-]{5,}\d(?![\w-])/g;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

/** Replaces anything that looks like personal data in a piece of text. */
export function scrub(text: string): string {
  return text
    .replace(EMAIL, "[email]")
    .replace(ISO_DATE, "[date]")
    .replace(LONG_NUMBER, "[number]");
}

function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrub(value);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, scrubDeep(item, depth + 1)]),
  );
}

export interface ErrorDescription {
  type: string;
  /** A Postgres SQLSTATE, a Node error code, or an HTTP status: something to search for, never a value. */
  code?: string;
  constraint?: string;
  /** Where it happened: the stack's frames without the message line, which may quote input. */
  at?: string[];
}

/**
 * What is safe to log about an error. Database errors quote the statement and its parameters in
 * their messages (and Postgres puts row values in `detail`), so only their codes are kept.
 */
export function describeError(error: unknown): ErrorDescription {
  if (!(error instanceof Error)) return { type: typeof error };
  const cause = (error as { cause?: unknown }).cause;
  const root = error.name === "DrizzleQueryError" && cause instanceof Error ? cause : error;
  const fields = root as Error & { code?: unknown; constraint?: unknown; status?: unknown };
  const code = fields.code ?? fields.status;
  return {
    type: root.name,
    ...(code !== undefined ? { code: String(code) } : {}),
    ...(typeof fields.constraint === "string" ? { constraint: fields.constraint } : {}),
    at: (error.stack ?? "")
      .split("\n")
      .filter((line) => line.trimStart().startsWith("at "))
      .slice(0, 8)
      .map((line) => line.trim()),
  };
}

/** A logger with our rules; tests pass a stream to read what would be written. */
export function createLogger(destination?: pino.DestinationStream) {
  return pino(
    {
      // The logger exists before the settings are checked; a bad LOG_LEVEL is then refused with
      // the other settings' problems (config.server.ts) rather than thrown from inside pino here.
      level: LOG_LEVELS.find((level) => level === process.env.LOG_LEVEL) ?? "info",
      base: undefined,
      redact: {
        paths: PERSONAL_FIELDS.flatMap((field) => [field, `*.${field}`]),
        censor: "[redacted]",
      },
      serializers: { err: describeError, error: describeError },
      formatters: { log: (object) => scrubDeep(object) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === "string" ? scrub(arg) : arg)) as Parameters<
              typeof method
            >,
          );
        },
      },
    },
    destination,
  );
}

export const log = createLogger();

/** A short reference for an error, shown to the person and written in the log line, to match the two. */
export function newErrorId(): string {
  return crypto.randomBytes(5).toString("hex");
}

/** Logs an unexpected error with an id, the route (path only, no query) and a code. */
export function logError(
  error: unknown,
  context: { route?: string; code: string; [key: string]: unknown },
): string {
  const errorId = newErrorId();
  log.error({ errorId, ...context, err: error }, context.code);
  return errorId;
}

/** The path of a request, without its query string (which can carry addresses and tokens). */
export function routeOf(request: Request | { url: string }): string {
  try {
    return new URL(request.url).pathname;
  } catch {
    return "unknown";
  }
}
