// Fuzz test (property-based, fast-check): random and malformed bodies, content types, NUL bytes,
// odd methods, broken query strings and oversized bodies, sent to every form route (and its React
// Router single-fetch twin, "/about-us.data") and every JSON endpoint. Not one answer may be ≥ 500,
// and /healthz must still answer 200 afterwards.
//
// This file starts its own server (not the suite's shared one): the thousands of failed sign-ins and
// access-code attempts it makes would otherwise trip the rate limits the other e2e files rely on.
//
// FUZZ_RUNS=200 npx vitest run --project e2e tests/e2e/fuzz.test.ts   runs each property longer;
// FUZZ_SURVEY=1 makes each property run all its cases and list every failure instead of shrinking
// the first one. Either way, a summary of the distinct failures (answers ≥ 500, no answer at all,
// headers over 16 KB), grouped by the server's error, is printed at the end.
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server";
import { createAccessCode } from "#app/services/access-codes.server";
import { loadServerSecret } from "#app/services/secrets.server";
import { insertFreeEvent, insertPaidEvent, londonDay } from "#tests/support/fixtures/events";
import { createScratchDatabase } from "#tests/support/postgres";
import { routeTable, type RouteEntry } from "#tests/support/route-table";
import { startBuiltServer } from "#tests/support/server";
import {
  bodyArb,
  describeRequest,
  entriesArb,
  formFields,
  isAlive,
  pct,
  queryArb,
  readable,
  residentMb,
  send,
  chunkedTransfer,
  withTransfer,
  type Entries,
  type FieldSpec,
  type FormField,
  type FuzzRequest,
  type Outcome,
  anyText,
  headerText,
  urlencoded,
} from "./fuzz-support";

const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const SURVEY = process.env.FUZZ_SURVEY === "1";
/**
 * A property that has not finished after this long fails (a failure found by then is reported
 * with the counterexample shrunk so far): it bounds shrinking, which sends a request per step.
 */
const timeLimit = (numRuns: number) => Math.max(30_000, numRuns * 600);
const PROPERTY_TIMEOUT = timeLimit(RUNS * 2) + 60_000;

type Server = Awaited<ReturnType<typeof startBuiltServer>>;
let server: Server;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;

/** Ids of this file's own events, made in beforeAll (see insertFuzzEvents). */
const ids = { private: "", privateCorporate: "", public: "", past: "", bookable: "" };
/** The access codes of this file's private events, good and not. */
const ACCESS_CODES = {
  lodge: "FUZZ-LODGE-7",
  usedUp: "FUZZ-USED-UP",
  expired: "FUZZ-EXPIRED",
  corporate: "FUZZ-STAFF-3",
};
const PASSWORD = "Quiet-Harbour-Lantern-42";
const accounts = { portal: { email: "", cookie: "" }, auth: { email: "", cookie: "" } };

// ---------------------------------------------------------------------------------------------
// Every failed request seen (including while fast-check shrinks), grouped for the summary.
// ---------------------------------------------------------------------------------------------

/** Node's and many proxies' limit on the size of an answer's headers (nginx's is smaller). */
const HEADER_LIMIT = 16 * 1024;

interface Seen {
  status: string;
  log: string;
  count: number;
  routes: Set<string>;
  contentTypes: Set<string>;
  /** The shortest two requests that got this answer. */
  examples: string[];
}
const seen = new Map<string, Seen>();

/** A path with ids and the query blanked, to group failures by route. */
const shape = (path: string) =>
  path
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "{id}")
    .replace(/\?.*$/, "?…");

/** The first lines of what the server logged while handling the request (errors, stack top). */
function logExcerpt(log: string): string {
  const lines = log.split("\n").filter((line) => line.trim() !== "");
  const first = lines.findIndex((line) => /error|exception|at |fail/i.test(line));
  return lines
    .slice(Math.max(first, 0), Math.max(first, 0) + 6)
    .join("\n")
    .slice(0, 1200);
}

async function exchange(req: FuzzRequest): Promise<{ outcome: Outcome; log: string }> {
  const before = server.output().length;
  const outcome = await send(server.url, req);
  const failed =
    outcome.status === undefined ||
    outcome.status >= 500 ||
    (outcome.headerBytes ?? 0) > HEADER_LIMIT;
  if (failed) await new Promise((resume) => setTimeout(resume, 50)); // let the log catch up
  const log = server.output().slice(before);
  if (failed) {
    const status =
      outcome.status === undefined
        ? `no answer (${outcome.error})`
        : outcome.status >= 500
          ? String(outcome.status)
          : `${outcome.status} with headers over 16 KB`;
    const excerpt = logExcerpt(log);
    // One entry per status and first line of the server's error (or per route, without one).
    const cause = excerpt
      .split("\n")[0]!
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;]*m/g, "") // colours
      .replace(/^\s*\d{4}-\d\d-\d\dT\S+\s*/, "") // a timestamp
      .slice(0, 160);
    const key = `${status} | ${cause || `${req.method} ${shape(req.path)}`}`;
    const entry = seen.get(key) ?? {
      status,
      log: excerpt,
      count: 0,
      routes: new Set<string>(),
      contentTypes: new Set<string>(),
      examples: [],
    };
    entry.count++;
    entry.routes.add(`${req.method} ${shape(req.path)}`);
    entry.contentTypes.add(
      req.contentType === undefined ? "(none)" : JSON.stringify(req.contentType),
    );
    entry.examples = [...entry.examples, describeRequest(req).slice(0, 400)]
      .sort((a, b) => a.length - b.length)
      .slice(0, 2);
    seen.set(key, entry);
  }
  return { outcome, log };
}

/**
 * The property: an answer arrives, it is not a server error, and its headers fit in 16 KB (behind
 * a proxy, an answer with bigger headers becomes a 502).
 */
async function expectNoServerError(req: FuzzRequest) {
  const { outcome, log } = await exchange(req);
  const problem =
    outcome.status === undefined
      ? `no answer (${outcome.error})`
      : outcome.status >= 500
        ? `status ${outcome.status}`
        : (outcome.headerBytes ?? 0) > HEADER_LIMIT
          ? `status ${outcome.status} with ${outcome.headerBytes} bytes of headers (over 16 KB)`
          : undefined;
  expect(
    problem,
    problem &&
      [
        `${problem} for ${describeRequest(req)}`,
        `answer: ${outcome.body.slice(0, 300)}`,
        `server log: ${logExcerpt(log) || "(nothing)"}`,
      ].join("\n"),
  ).toBeUndefined();
}

/**
 * Runs one property. With FUZZ_SURVEY=1 it does not stop at the first failure but runs all its
 * cases and then fails with the list of every answer ≥ 500 it saw (to find all distinct bugs).
 */
async function runProperty(arb: fc.Arbitrary<FuzzRequest>, numRuns = RUNS) {
  if (!SURVEY) {
    await fc.assert(
      fc.asyncProperty(arb, async (req) => expectNoServerError(req)),
      {
        numRuns,
        plugins: [fc.interruptAfterTimeLimit(timeLimit(numRuns), { failOnInterrupt: true })],
      },
    );
    return;
  }
  const failures = new Set<string>();
  await fc.assert(
    fc.asyncProperty(arb, async (req) => {
      try {
        await expectNoServerError(req);
      } catch (error) {
        failures.add(
          String((error as Error).message)
            .split("\n")[0]!
            .slice(0, 400),
        );
      }
    }),
    {
      numRuns,
      plugins: [fc.interruptAfterTimeLimit(timeLimit(numRuns), { failOnInterrupt: true })],
    },
  );
  const shown = [...failures].sort((a, b) => a.length - b.length).slice(0, 15);
  expect(
    shown,
    `${failures.size} failing request(s), the shortest ${shown.length}:\n${shown.join("\n")}`,
  ).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Field values
// ---------------------------------------------------------------------------------------------

const uniqueEmail = fc.uuid().map((uuid) => `fuzz-${uuid.slice(0, 8)}@example.com`);
const emailValue = () =>
  fc.oneof(
    { weight: 3, arbitrary: uniqueEmail },
    { weight: 1, arbitrary: fc.constant(accounts.portal.email) },
    { weight: 1, arbitrary: fc.emailAddress() },
  );
const firstName = fc.constantFrom("Arthur", "Ray", "Seán", "Mary-Jane", "O'Neill");
const lastName = fc.constantFrom("Pembridge", "Smith", "Ó Súilleabháin", "Nkemelu");
const phone = fc.constantFrom("447700900123", "01632 960 001", "+44 1632 960 001");
const postcode = fc.constantFrom("CM1 2AB", "IP4 1AA", "E15 1BB");
const country = fc.constantFrom("United Kingdom", "Ireland");
const gender = fc.constantFrom("Male", "Female", "Non-binary", "Other");
const ethnicity = fc.constantFrom("White - British", "Not stated", "Other Ethnic Groups - Chinese");
const password = fc.constantFrom(PASSWORD, "correct horse battery staple", "Tr0ub4dor&3-extra");
const addressLine = fc.constantFrom("12 Mill Lane", "Flat 3, 1 High Street", "The Old Rectory");
const day = fc.integer({ min: 1, max: 28 }).map(String);
const month = fc.integer({ min: 1, max: 12 }).map(String);
const year = fc.integer({ min: 1947, max: 1984 }).map(String);
const redirectTo = fc.constantFrom(
  "/portal",
  "/",
  "/book-event?eventId=1",
  "//evil.example",
  "https://evil.example/",
  "/\\evil.example",
  "javascript:alert(1)",
);
const accessCode = fc.constantFrom(
  ACCESS_CODES.lodge,
  ACCESS_CODES.lodge.toLowerCase().replaceAll("-", " "),
  ACCESS_CODES.usedUp,
  ACCESS_CODES.expired,
  ACCESS_CODES.corporate,
  "WRONG-CODE",
);

const tokenValue = fc.oneof(
  fc.string({ minLength: 24, maxLength: 32 }),
  fc.uuid(),
  fc.constant(""),
);

/** A cookie header: none most of the time, sometimes garbage. */
const garbageCookie = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "mhat.session_token=garbage",
      "mhat.session_token=%00%FF",
      "mhat.session_token=abc.def; mhat.session_data=%7B%22x%22%3A1%7D",
      `mhat.session_token=${"a".repeat(4000)}`,
      "better-auth.session_token=garbage; __Host-mhat.session_token=x",
      "=; ;; =x",
    ),
  },
  { weight: 1, arbitrary: headerText(60).map((text) => text || undefined) },
);

/**
 * Valid values for every field name the site's forms use, old names included (fields have been
 * renamed before): the fields themselves are read from each page's rendered form.
 */
const validValues = (): Record<string, fc.Arbitrary<unknown>> => ({
  firstName,
  lastName,
  "dateOfBirth-day": day,
  "dateOfBirth-month": month,
  "dateOfBirth-year": year,
  gender,
  ethnicity,
  occupation: fc.constantFrom("", "Engineer"),
  phone,
  phoneNumber: phone,
  homeAddressLine1: addressLine,
  address1: addressLine,
  homeAddressLine2: fc.constantFrom("", "Chelmsford"),
  address2: fc.constantFrom("", "Chelmsford"),
  homePostcode: postcode,
  postCode: postcode,
  homeCountry: country,
  country,
  nhsNumber: fc.constantFrom("9434765919", "943 476 5919", ""),
  nhs: fc.constantFrom("9434765919", "943 476 5919", ""),
  billingAddress: fc.constantFrom("12 Mill Lane", "12 Mill Lane\r\nChelmsford"),
  email: emailValue(),
  password,
  confirmPassword: password,
  newPassword: password,
  token: tokenValue,
  redirectTo,
  "first-name": firstName,
  "last-name": lastName,
  "phone-number": phone,
  message: fc.constantFrom("Hello, when is the next screening?", "Is the test free?"),
  name: firstName,
  hear_about_event: fc.constantFrom("true", "false", "on"),
  access_code: accessCode,
});

/** One valid value per field, for signing up the test accounts. */
const CANONICAL: Record<string, string> = {
  redirectTo: "/portal",
  firstName: "Arthur",
  lastName: "Fuzzington",
  "dateOfBirth-day": "15",
  "dateOfBirth-month": "3",
  "dateOfBirth-year": "1961",
  gender: "Male",
  ethnicity: "White - British",
  occupation: "",
  phone: "447700900123",
  phoneNumber: "447700900123",
  homeAddressLine1: "12 Mill Lane",
  address1: "12 Mill Lane",
  homeAddressLine2: "",
  address2: "",
  homePostcode: "CM1 2AB",
  postCode: "CM1 2AB",
  homeCountry: "United Kingdom",
  country: "United Kingdom",
  nhsNumber: "9434765919",
  nhs: "9434765919",
  password: PASSWORD,
  confirmPassword: PASSWORD,
};

const HONEYPOT = "company_website";

// ---------------------------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------------------------

interface FormTarget {
  name: string;
  path: () => string;
  /** The page that shows the form, and whether it needs the signed-in test account. */
  page?: string;
  signedIn?: boolean;
  /** The fields to use when the page shows no form (or a different one than it accepts). */
  fallback: string[];
  /** Values that differ from validValues() for this form. */
  overrides?: () => FieldSpec;
  same?: [string, string];
  cookie?: () => fc.Arbitrary<string | undefined>;
}

/** Fields read from each page's rendered form in beforeAll, by target name. */
const discovered = new Map<string, FormField[]>();

function fieldsOf(target: FormTarget): FieldSpec {
  const valid = { ...validValues(), ...target.overrides?.() };
  const fields: FormField[] = discovered.get(target.name)?.length
    ? discovered.get(target.name)!
    : target.fallback.map((name) => ({ name, element: "input" }));
  return Object.fromEntries(
    fields
      .filter((field) => field.name !== HONEYPOT)
      .map((field) => [
        field.name,
        (Object.hasOwn(valid, field.name) ? valid[field.name] : undefined) ??
          (field.element === "button"
            ? fc.constantFrom(field.value ?? "", undefined) // pressed, or another button was
            : field.value !== undefined
              ? fc.constant(field.value)
              : fc.constant("Test value")),
      ]),
  );
}

const formTargets: FormTarget[] = [
  {
    name: "/about-us (contact form)",
    path: () => "/about-us",
    fallback: ["intent", "first-name", "last-name", "email", "phone-number", "message"],
    overrides: () => ({ intent: fc.constant("contact") }),
  },
  {
    name: "/news (newsletter)",
    path: () => "/news",
    fallback: ["intent", "hear_about_event", "name", "email"],
    overrides: () => ({ intent: fc.constant("newsletter") }),
  },
  {
    name: "/login (sign in and the forgot intent)",
    path: () => "/login",
    fallback: ["redirectTo", "email", "password", "intent"],
    overrides: () => ({ intent: fc.constantFrom("forgot", "forgot", undefined, "signin") }),
  },
  {
    name: "/signup",
    path: () => "/signup",
    same: ["password", "confirmPassword"],
    fallback: [
      "redirectTo",
      "firstName",
      "lastName",
      "dateOfBirth-day",
      "dateOfBirth-month",
      "dateOfBirth-year",
      "gender",
      "ethnicity",
      "occupation",
      "phone",
      "homeAddressLine1",
      "homeAddressLine2",
      "homePostcode",
      "homeCountry",
      "nhsNumber",
      "email",
      "password",
      "confirmPassword",
    ],
    overrides: () => ({ email: uniqueEmail }),
  },
  {
    name: "/reset-password",
    path: () => "/reset-password",
    same: ["newPassword", "confirmPassword"],
    fallback: ["newPassword", "confirmPassword", "token"],
    overrides: () => ({ token: tokenValue }),
  },
  {
    name: "/portal (signed in)",
    path: () => "/portal",
    page: "/portal?edit",
    signedIn: true,
    cookie: () =>
      fc.oneof(
        { weight: 8, arbitrary: fc.constant(accounts.portal.cookie) },
        { weight: 1, arbitrary: garbageCookie },
      ),
    fallback: [
      "firstName",
      "lastName",
      "gender",
      "dateOfBirth-day",
      "dateOfBirth-month",
      "dateOfBirth-year",
      "ethnicity",
      "occupation",
      "phone",
      "homeAddressLine1",
      "homeAddressLine2",
      "homePostcode",
      "homeCountry",
      "billingAddress",
    ],
  },
  {
    name: "/event/{id} (access code form)",
    path: () => `/event/${ids.private}`,
    fallback: ["intent", "access_code"],
    overrides: () => ({ intent: fc.constant("access-code") }),
  },
  {
    name: "/logout",
    path: () => "/logout",
    // The sign-out button in the header; fuzzed without the account's cookie, which it would end.
    page: "/portal",
    signedIn: true,
    fallback: ["redirectTo"],
  },
];

/** A POST to a form page or to its single-fetch twin, as the browser sends it. */
function formRequest(target: FormTarget): fc.Arbitrary<FuzzRequest> {
  const eventPath = fc.constantFrom(
    `/event/${ids.private}`,
    `/event/${ids.private}`,
    `/event/${ids.privateCorporate}`,
    `/event/${ids.public}`,
    `/event/${ids.past}`,
    "/event/00000000-0000-4000-8000-000000000000",
    "/event/%00",
    "/event/not-a-uuid",
  );
  const path = target.name.startsWith("/event/") ? eventPath : fc.constant(target.path());
  return fc
    .tuple(
      path,
      fc.constantFrom("", "", ".data"),
      fc.oneof(
        { weight: 5, arbitrary: fc.constant("") },
        {
          weight: 1,
          arbitrary: queryArb({ redirectTo, token: fc.string(), index: fc.constant("") }).map(
            (q) => (q ? `?${q}` : ""),
          ),
        },
      ),
      bodyArb(entriesArb(fieldsOf(target), target.same), "form"),
      target.cookie ? target.cookie() : garbageCookie,
      chunkedTransfer,
    )
    .map(([p, twin, query, encoded, cookie, chunked]) =>
      readable({
        method: "POST",
        path: p + twin + query,
        ...withTransfer(encoded, chunked),
        cookie,
      }),
    );
}

interface JsonTarget {
  name: string;
  path: () => fc.Arbitrary<string>;
  fields: () => FieldSpec;
  cookie?: () => fc.Arbitrary<string | undefined>;
}

const eventIdSegment = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(ids.private) },
    { weight: 1, arbitrary: fc.constantFrom(ids.privateCorporate, ids.public, ids.past) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: anyText.map(pct) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("%00", "%FF", "%C0%80", "..%2F..", "%2e%2e", "1", "-1", "null"),
    },
  );

const authPaths = [
  "sign-in/email",
  "sign-up/email",
  "sign-out",
  "get-session",
  "request-password-reset",
  "forget-password",
  "reset-password",
  "verify-email",
  "send-verification-email",
  "update-user",
  "change-password",
  "change-email",
  "list-sessions",
  "revoke-session",
  "revoke-sessions",
  "revoke-other-sessions",
  "delete-user",
  "ok",
  "error",
];

const jsonTargets: JsonTarget[] = [
  {
    name: "POST /api/subscriptions",
    path: () => fc.constant("/api/subscriptions"),
    fields: () => ({
      name: firstName,
      email: emailValue(),
      hear_about_event: fc.oneof(fc.boolean(), fc.constantFrom("true", "false", "on")),
    }),
  },
  {
    name: "POST /api/logs/error",
    path: () => fc.constant("/api/logs/error"),
    fields: () => ({
      errorMessage: fc.constantFrom("TypeError: x is undefined", "Hydration failed"),
      description: fc.constantFrom("at App (app.js:1:1)", ""),
      page: fc.constantFrom("/news", "/book-event-main?location=x"),
    }),
  },
  {
    name: "POST /api/events/{id}/check-access-code",
    path: () => eventIdSegment().map((id) => `/api/events/${id}/check-access-code`),
    fields: () => ({ access_code: accessCode }),
  },
  {
    name: "/api/auth/*",
    path: () =>
      fc
        .tuple(
          fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom(...authPaths) },
            {
              weight: 1,
              arbitrary: fc.string({ maxLength: 8 }).map((token) => `reset-password/${pct(token)}`),
            },
            { weight: 1, arbitrary: anyText.map(pct) },
          ),
          fc.oneof(
            { weight: 3, arbitrary: fc.constant("") },
            {
              weight: 1,
              arbitrary: queryArb({ token: fc.string(), callbackURL: redirectTo }).map((q) =>
                q ? `?${q}` : "",
              ),
            },
          ),
        )
        .map(([path, query]) => `/api/auth/${path}${query}`),
    cookie: () =>
      fc.oneof(
        { weight: 2, arbitrary: fc.constant(accounts.auth.cookie) },
        { weight: 3, arbitrary: garbageCookie },
      ),
    fields: () => ({
      email: emailValue(),
      password,
      name: firstName,
      token: fc.string({ maxLength: 32 }),
      newPassword: password,
      currentPassword: fc.constant(PASSWORD),
      callbackURL: redirectTo,
      redirectTo,
      rememberMe: fc.boolean(),
      image: fc.constantFrom("https://example.org/a.png", ""),
    }),
  },
];

function jsonRequest(target: JsonTarget): fc.Arbitrary<FuzzRequest> {
  const isAuth = target.name.startsWith("/api/auth");
  return fc
    .tuple(
      isAuth ? fc.constantFrom("POST", "POST", "POST", "GET") : fc.constant("POST"),
      target.path(),
      bodyArb(entriesArb(target.fields()), "json"),
      target.cookie ? target.cookie() : garbageCookie,
      chunkedTransfer,
    )
    .map(([method, path, encoded, cookie, chunked]) =>
      readable(
        method === "GET"
          ? { method, path, kind: "no body (GET)", cookie }
          : { method, path, ...withTransfer(encoded, chunked), cookie },
      ),
    );
}

/** GETs with broken query strings, and random ids in paths. */
function queryRequest(): fc.Arbitrary<FuzzRequest> {
  const eventQuery = queryArb({
    for: fc.constantFrom("community", "freemasons", "corporate", "community,corporate", ""),
    location: fc.constantFrom("Ipswich", "CM1", "Essex", "Lowestoft", ""),
    date: fc.constantFrom("today", "next-week", "next-month", "future-events"),
  });
  const pageQuery = queryArb({
    redirectTo,
    token: fc.string({ maxLength: 30 }),
    page: fc.integer({ min: -2, max: 1e6 }).map(String),
    month: fc.constantFrom("2026-01", "2025-13", "x"),
    callbackURL: redirectTo,
    error: fc.constantFrom("INVALID_TOKEN", "x"),
    eventId: fc.constantFrom(ids.private, ids.public),
    reset: fc.constant("1"),
    saved: fc.constant(""),
  });
  const withQuery = (path: fc.Arbitrary<string>, query: fc.Arbitrary<string>) =>
    fc.tuple(path, query).map(([p, q]) => (q ? `${p}?${q}` : p));
  const path = fc.oneof(
    { weight: 6, arbitrary: withQuery(fc.constant("/api/events"), eventQuery) },
    {
      weight: 2,
      arbitrary: withQuery(
        fc.constantFrom("/book-event-main", "/book-event-main.data"),
        eventQuery,
      ),
    },
    {
      weight: 2,
      arbitrary: withQuery(
        eventIdSegment().map((id) => `/api/events/${id}/slots`),
        fc.constant(""),
      ),
    },
    {
      weight: 1,
      arbitrary: withQuery(
        eventIdSegment().map((id) => `/event/${id}`),
        pageQuery,
      ),
    },
    {
      weight: 3,
      arbitrary: withQuery(
        fc.constantFrom(
          "/news",
          "/news.data",
          "/login",
          "/login.data",
          "/signup",
          "/reset-password",
          "/reset-password.data",
          "/portal",
          "/book-event",
          "/medical-results",
          "/signup-success",
          "/dev/mailbox",
        ),
        pageQuery,
      ),
    },
    {
      weight: 2,
      arbitrary: withQuery(
        fc.oneof(
          fc.constant("/api/auth/verify-email"),
          fc.string({ maxLength: 40 }).map((token) => `/api/auth/reset-password/${pct(token)}`),
          fc.constant("/api/auth/get-session"),
        ),
        pageQuery,
      ),
    },
  );
  return fc
    .tuple(
      path,
      fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant(accounts.auth.cookie) },
        { weight: 1, arbitrary: garbageCookie },
      ),
    )
    .map(([p, cookie]) => readable({ method: "GET", path: p, kind: "no body (GET)", cookie }));
}

// ---------------------------------------------------------------------------------------------
// Every other route with an action, found in app/routes.ts: fuzzed generically, so that a form or
// endpoint added later is covered before anyone writes a target for it.
// ---------------------------------------------------------------------------------------------

/** The routes the targets above fuzz with their own fields. */
const SPECIFIC_PATHS = new Set([
  "/about-us",
  "/news",
  "/login",
  "/signup",
  "/reset-password",
  "/portal",
  "/event/:eventId",
  "/logout",
  "/api/subscriptions",
  "/api/logs/error",
  "/api/events/:eventId/check-access-code",
  "/api/auth/*",
]);

const otherActionRoutes = routeTable().filter(
  (entry) => entry.hasAction && !SPECIFIC_PATHS.has(entry.path),
);

/** Fills a route pattern's parameters: real event ids mostly, anything at all sometimes. */
function fillPath(pattern: string): fc.Arbitrary<string> {
  const parts = pattern.split("/").map((part) =>
    part === ":eventId"
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(ids.private, ids.public, ids.past) },
          { weight: 1, arbitrary: fc.uuid() },
          { weight: 1, arbitrary: anyText.map(pct) },
        )
      : part.startsWith(":") || part === "*"
        ? fc.oneof(
            fc.uuid(),
            fc.constantFrom("1", "0", "-1", "null", "%00", "%FF"),
            anyText.map((text) => pct(text) || "x"),
          )
        : fc.constant(part),
  );
  return fc.tuple(...parts).map((filled) => filled.join("/"));
}

/** Field names to try on a form whose page shows no form without the right query. */
const GENERIC_FIELDS = [
  "intent",
  "eventId",
  "slot",
  "date",
  "time",
  "consent",
  "orderId",
  "email",
  "name",
  "notes",
];

const genericValues = (): Record<string, fc.Arbitrary<unknown>> => ({
  ...validValues(),
  eventId: fc.constantFrom(ids.bookable, ids.private, ids.public, ids.past),
  event: fc.constantFrom(ids.bookable, ids.private, ids.public, ids.past),
  slot: fc.constantFrom("10:00", "10:15", "23:59", "25:00"),
  time: fc.constantFrom("10:00", "10:15", "23:59"),
  date: fc.constantFrom("2026-12-01", "2020-01-01", "2026-02-30"),
  consent: fc.constantFrom("on", "yes", "true"),
  orderId: fc.uuid(),
  intent: fc.constantFrom("book", "consent", "pay", "cancel", ""),
});

function genericRequest(entry: RouteEntry): fc.Arbitrary<FuzzRequest> {
  const isApi = entry.path.startsWith("/api/");
  const found = discovered.get(entry.path) ?? [];
  const names = found.length ? found.map((field) => field.name) : GENERIC_FIELDS;
  const values = genericValues();
  const spec: FieldSpec = Object.fromEntries(
    names
      .filter((name) => name !== HONEYPOT)
      .map((name) => [
        name,
        Object.hasOwn(values, name)
          ? values[name]!
          : fc.constant(found.find((field) => field.name === name)?.value ?? "Test value"),
      ]),
  );
  return fc
    .tuple(
      fc.constantFrom("POST", "POST", "POST", "POST", "PUT", "PATCH", "DELETE"),
      fillPath(entry.path),
      isApi ? fc.constant("") : fc.constantFrom("", "", ".data"),
      // The booking pages carry the event, booking or order in the query.
      fc.oneof(
        { weight: 1, arbitrary: fc.constant("") },
        {
          weight: 3,
          arbitrary: queryArb({
            event: fc.constantFrom(ids.bookable, ids.private, ids.public, ids.past),
            eventId: fc.constantFrom(ids.bookable, ids.public),
            booking: fc.oneof(fc.string({ maxLength: 12 }), fc.constant("MHAT-0000-0000")),
            order: fc.uuid(),
            token: fc.string({ maxLength: 20 }),
          }).map((query) => (query ? `?${query}` : "")),
        },
      ),
      bodyArb(entriesArb(spec), isApi ? "json" : "form"),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(accounts.portal.cookie) },
        { weight: 2, arbitrary: garbageCookie },
      ),
      chunkedTransfer,
    )
    .map(([method, path, twin, query, encoded, cookie, chunked]) =>
      readable({ method, path: path + twin + query, ...withTransfer(encoded, chunked), cookie }),
    );
}

/** PUT, PATCH, DELETE, OPTIONS (and POST) on form pages, API routes and pages without a form. */
function methodRequest(): fc.Arbitrary<FuzzRequest> {
  const paths = [
    ...formTargets.flatMap((target) => [target.path(), `${target.path()}.data`]),
    "/api/subscriptions",
    "/api/logs/error",
    `/api/events/${ids.private}/check-access-code`,
    "/api/events",
    `/api/events/${ids.public}/slots`,
    "/api/auth/sign-in/email",
    "/api/auth/sign-up/email",
    "/api/auth/get-session",
    "/",
    "/_root.data",
    "/events",
    "/book-event",
    "/book-event-main",
    "/medical-results",
    "/signup-success",
    "/dev/mailbox",
    "/no-such-page",
    "/no-such-page.data",
    "/healthz",
  ];
  const anyEntries = fc.array(
    fc.tuple(fc.constantFrom("email", "name", "access_code", "intent", "message", "x"), anyText),
    { maxLength: 4 },
  ) as fc.Arbitrary<Entries>;
  return fc
    .tuple(
      fc.constantFrom("POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
      fc.constantFrom(...paths),
      bodyArb(anyEntries, "form"),
      fc.oneof(
        { weight: 2, arbitrary: fc.constant(accounts.auth.cookie) },
        { weight: 3, arbitrary: garbageCookie },
      ),
      chunkedTransfer,
    )
    .map(([method, path, encoded, cookie, chunked]) =>
      readable({ method, path, ...withTransfer(encoded, chunked), cookie }),
    );
}

// ---------------------------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------------------------

function cookieHeader(setCookie: string[] | undefined): string {
  return (setCookie ?? []).map((cookie) => cookie.split(";")[0]).join("; ");
}

/** Signs up an account through the /signup form and returns its session cookie. */
async function signUp(email: string): Promise<string> {
  const target = formTargets.find((candidate) => candidate.path() === "/signup")!;
  const fields = discovered.get(target.name)?.length
    ? discovered.get(target.name)!
    : target.fallback.map((name): FormField => ({ name, element: "input" }));
  const body = urlencoded(
    fields
      .filter((field) => field.name !== HONEYPOT)
      .map((field) => [
        field.name,
        field.name === "email" ? email : (CANONICAL[field.name] ?? field.value ?? ""),
      ]),
  );
  const base = new URL(server.url);
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: "POST",
        path: "/signup",
        agent: false,
        headers: {
          origin: base.origin,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(body.length),
        },
      },
      resolve,
    );
    request.on("error", reject);
    request.end(body);
  });
  response.resume();
  const cookie = cookieHeader(response.headers["set-cookie"]);
  if (response.statusCode !== 302 || !cookie.includes("session_token"))
    throw new Error(
      `Sign-up of ${email} answered ${response.statusCode} without a session cookie:\n${server.output().slice(-2000)}`,
    );
  const portal = await fetch(`${server.url}/portal`, { headers: { cookie }, redirect: "manual" });
  if (portal.status !== 200)
    throw new Error(`/portal answered ${portal.status} to the new account`);
  return cookie;
}

/**
 * The events the requests name, one of each kind: a private lodge event with a good, a used-up and
 * an expired code; a private corporate-only one with its own code; a public one tomorrow; one that
 * took place; and a public one open to everyone with places to book.
 */
async function insertFuzzEvents(databaseUrl: string) {
  const opened = openDatabase({ url: databaseUrl });
  try {
    const { db } = opened;
    // The codes are stored keyed with the server's secret, made on its first start.
    await loadServerSecret(db, undefined);
    const lodge = await insertPaidEvent(db, {
      name: "Fuzz Masonic Hall Screening",
      category: "freemasons",
      isPublic: false,
      eventDate: londonDay(11),
    });
    await createAccessCode(db, { eventId: lodge.id, code: ACCESS_CODES.lodge, maxUses: 60 });
    await createAccessCode(db, {
      eventId: lodge.id,
      code: ACCESS_CODES.usedUp,
      maxUses: 1,
      uses: 1,
    });
    await createAccessCode(db, {
      eventId: lodge.id,
      code: ACCESS_CODES.expired,
      expiresAt: new Date(Date.now() - 86_400_000),
    });
    const corporate = await insertFreeEvent(db, {
      name: "Fuzz Logistics Head Office Screening",
      category: "corporate",
      exclusiveFor: "CORPORATE",
      isPublic: false,
      eventDate: londonDay(13),
    });
    await createAccessCode(db, {
      eventId: corporate.id,
      code: ACCESS_CODES.corporate,
      maxUses: 80,
      expiresAt: new Date(Date.now() + 60 * 86_400_000),
    });
    const tomorrow = await insertFreeEvent(db, {
      name: "Fuzz Quay Morning Screening",
      eventDate: londonDay(1),
      startTime: "08:00",
      endTime: "11:00",
    });
    const past = await insertPaidEvent(db, {
      name: "Fuzz Rugby Club Screening",
      eventDate: londonDay(-14),
    });
    const bookable = await insertFreeEvent(db, {
      name: "Fuzz Community Morning",
      eventDate: londonDay(5),
    });
    Object.assign(ids, {
      private: lodge.id,
      privateCorporate: corporate.id,
      public: tomorrow.id,
      past: past.id,
      bookable: bookable.id,
    });
  } finally {
    await opened.close();
  }
}

beforeAll(async () => {
  scratch = await createScratchDatabase("mhat_fuzz");
  server = await startBuiltServer({
    DATABASE_URL: scratch.url,
    // The file makes the events it needs (insertFuzzEvents), so it depends on no demo event.
    DEMO_DATA: "0",
    SMTP_URL: "",
    // React Router logs an action's or loader's uncaught error only outside NODE_ENV=test (the
    // site's own settings are the same in development and test), and we want those errors.
    NODE_ENV: "development",
    // The coarse limiter would otherwise answer 429 to nearly everything.
    RATE_LIMIT_FORMS_PER_WINDOW: "100000",
    RATE_LIMIT_POSTS_PER_WINDOW: "100000",
    RATE_LIMIT_SIGNUPS_PER_HOUR: "100000",
    RATE_LIMIT_HOLDS_PER_HOUR: "100000",
  });
  await insertFuzzEvents(scratch.url);

  // The forms' fields as the pages render them (sign-up first: the accounts are made with it).
  const discover = async (target: FormTarget) => {
    const cookie = target.signedIn ? accounts.portal.cookie : "";
    const page = await fetch(server.url + (target.page ?? target.path()), { headers: { cookie } });
    discovered.set(target.name, formFields(await page.text(), target.path()));
  };
  await discover(formTargets.find((target) => target.path() === "/signup")!);
  for (const which of ["portal", "auth"] as const) {
    accounts[which].email = `fuzz-${which}-${Date.now()}@example.com`;
    accounts[which].cookie = await signUp(accounts[which].email);
  }
  for (const target of formTargets) await discover(target);
  for (const entry of otherActionRoutes.filter((route) => !route.path.startsWith("/api/"))) {
    const path = entry.path.replace(":eventId", ids.bookable).replace(/:[A-Za-z]+/g, "1");
    const query = `?event=${ids.bookable}&eventId=${ids.bookable}`;
    const page = await fetch(server.url + path + query, {
      headers: { cookie: accounts.portal.cookie },
    });
    discovered.set(entry.path, formFields(await page.text(), path));
  }
  console.log(
    `Form fields found on the pages:\n${formTargets
      .map(
        (t) =>
          `  ${t.path()}: ${(discovered.get(t.name) ?? []).map((f) => f.name).join(", ") || "(none: using the built-in list)"}`,
      )
      .join("\n")}`,
  );
}, 120_000);

afterAll(async () => {
  if (seen.size > 0) {
    const list = [...seen.values()]
      .map((entry, index) =>
        [
          `${index + 1}. ${entry.status}, seen ${entry.count}×`,
          `   routes: ${[...entry.routes].sort().join(", ")}`,
          `   content types: ${[...entry.contentTypes].slice(0, 12).join(", ")}${entry.contentTypes.size > 12 ? ", …" : ""}`,
          "   shortest examples:",
          ...entry.examples.map((example) => `     ${example}`),
          "   server log:",
          ...entry.log.split("\n").map((line) => `     ${line}`),
        ].join("\n"),
      )
      .join("\n");
    console.log(
      `Distinct failures seen during this run (answers ≥ 500, no answer, headers over 16 KB):\n${list}`,
    );
  }
  await server?.stop();
  await scratch?.drop();
});

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

describe("fuzzing form routes (HTML posts and their .data twins)", () => {
  for (const target of formTargets) {
    it(
      `${target.name}: no answer ≥ 500`,
      async () => {
        await runProperty(formRequest(target));
      },
      PROPERTY_TIMEOUT,
    );
  }
});

describe("fuzzing JSON endpoints", () => {
  for (const target of jsonTargets) {
    it(
      `${target.name}: no answer ≥ 500`,
      async () => {
        await runProperty(jsonRequest(target));
      },
      PROPERTY_TIMEOUT,
    );
  }

  it(
    "GET with broken query strings and random ids: no answer ≥ 500",
    async () => {
      await runProperty(queryRequest(), RUNS * 2);
    },
    PROPERTY_TIMEOUT,
  );
});

describe("fuzzing every other route with an action (read from app/routes.ts)", () => {
  it("lists them, and every route a target above fuzzes is still in app/routes.ts", () => {
    const routes = new Set(routeTable().map((entry) => entry.path));
    expect([...SPECIFIC_PATHS].filter((path) => !routes.has(path))).toEqual([]);
    expect(otherActionRoutes.length).toBeGreaterThan(0);
    console.log(
      `Routes with an action fuzzed generically:\n${
        otherActionRoutes
          .map(
            (entry) =>
              `  ${entry.path} (${entry.module}): ${(discovered.get(entry.path) ?? []).map((field) => field.name).join(", ") || "no form on the page: generic fields"}`,
          )
          .join("\n") || "  none"
      }`,
    );
  });
  for (const entry of otherActionRoutes) {
    it(
      `${entry.path}: no answer ≥ 500`,
      async () => {
        await runProperty(genericRequest(entry), Math.max(10, Math.ceil(RUNS / 2)));
      },
      PROPERTY_TIMEOUT,
    );
  }
});

describe("fuzzing methods", () => {
  it(
    "PUT, PATCH, DELETE, OPTIONS and POST on every route: no answer ≥ 500",
    async () => {
      await runProperty(methodRequest(), RUNS * 2);
    },
    PROPERTY_TIMEOUT,
  );
});

describe("oversized bodies", () => {
  const JUST_OVER_100_KB = 100 * 1024 + 512;
  const FIVE_MB = 5 * 1024 * 1024;

  /** Routes that must refuse a big body with 413 (forms over ~100 KB, the API's own limits). */
  const mustRefuse = () => [
    { path: "/about-us", type: "form" },
    { path: "/about-us.data", type: "form" },
    { path: "/news", type: "form" },
    { path: "/news.data", type: "form" },
    { path: "/login", type: "form" },
    { path: "/signup", type: "form" },
    { path: "/reset-password", type: "form" },
    { path: "/portal", type: "form", cookie: accounts.portal.cookie },
    { path: `/event/${ids.private}`, type: "form" },
    { path: "/logout", type: "form" },
    { path: "/api/subscriptions", type: "json" },
    { path: "/api/logs/error", type: "json" },
    { path: `/api/events/${ids.private}/check-access-code`, type: "json" },
  ];

  function bigBody(type: string, size: number): { contentType: string; body: Buffer } {
    if (type === "json") {
      const head = '{"errorMessage":"x","name":"a","email":"a@example.com","access_code":"';
      return {
        contentType: "application/json",
        body: Buffer.from(head + "x".repeat(size - head.length - 2) + '"}'),
      };
    }
    const head =
      "intent=contact&first-name=A&last-name=B&email=a%40example.com&phone-number=01632960001&message=";
    return {
      contentType: "application/x-www-form-urlencoded",
      body: Buffer.from(head + "x".repeat(size - head.length)),
    };
  }

  it(
    "a body just over 100 KB, one of 5 MB and one of 5 MB chunked are refused with 413, and memory stays flat",
    async () => {
      const problems: string[] = [];
      const notes: string[] = [];
      const pid = server.pid;
      expect(pid, "the server's process id").toBeTypeOf("number");
      const baseline = residentMb(pid!);
      expect(baseline, "the server's resident memory, from /proc").toBeTypeOf("number");
      let peak = baseline!;
      const sampler = setInterval(() => {
        const now = residentMb(pid!);
        if (now !== undefined) peak = Math.max(peak, now);
      }, 20);
      try {
        const routes = [
          ...mustRefuse(),
          { path: "/api/auth/sign-in/email", type: "json", lenient: true },
          { path: "/api/auth/sign-up/email", type: "json", lenient: true },
        ];
        for (const route of routes) {
          for (const variant of ["just over 100 KB", "5 MB", "5 MB chunked"] as const) {
            const size = variant === "just over 100 KB" ? JUST_OVER_100_KB : FIVE_MB;
            const { contentType, body } = bigBody(route.type, size);
            const req: FuzzRequest =
              variant === "5 MB chunked"
                ? {
                    method: "POST",
                    path: route.path,
                    contentType,
                    // 80 chunks of 64 KB: the first chunk carries the field names, the rest more of the value.
                    chunked: Array.from({ length: size / (64 * 1024) }, () =>
                      body.subarray(0, 64 * 1024),
                    ),
                    kind: `oversized ${variant}`,
                  }
                : {
                    method: "POST",
                    path: route.path,
                    contentType,
                    body,
                    slow: true,
                    kind: `oversized ${variant}`,
                  };
            req.cookie = "cookie" in route ? route.cookie : undefined;
            const { outcome, log } = await exchange(req);
            const what = `${req.method} ${route.path} (${variant}, ${contentType}) → ${outcome.status ?? "no answer"}${outcome.error ? ` [${outcome.error}]` : ""} in ${outcome.ms} ms`;
            notes.push(what);
            // A 413 may be followed by the server closing the connection while the body still
            // arrives; a connection closed with no answer at all is a failure.
            if (outcome.status === undefined || outcome.status >= 500)
              problems.push(`${what}\n     server log: ${logExcerpt(log) || "(nothing)"}`);
            else if (!("lenient" in route) && outcome.status !== 413)
              problems.push(`${what}: expected 413\n     answer: ${outcome.body.slice(0, 200)}`);
          }
        }
      } finally {
        clearInterval(sampler);
      }
      console.log(`Oversized bodies:\n  ${notes.join("\n  ")}`);
      console.log(
        `Server resident memory: ${baseline!.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB during`,
      );
      if (peak - baseline! > 64)
        problems.push(
          `resident memory grew from ${baseline!.toFixed(0)} MB to ${peak.toFixed(0)} MB (over 64 MB more)`,
        );
      expect(problems, `${problems.length} problem(s)`).toEqual([]);
    },
    PROPERTY_TIMEOUT,
  );
});

describe("afterwards", () => {
  it("/healthz is 200 and the server process is still alive", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(server.pid, "the server's process id").toBeTypeOf("number");
    expect(isAlive(server.pid!)).toBe(true);
  });
});
