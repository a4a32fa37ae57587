import { isIP } from "node:net";
import { z } from "zod";

/** Every setting the service reads from the environment, validated once at start-up. */
const booleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"], {
    error: "must be 1, 0, true, false, yes, no, on or off",
  })
  .transform((value) => ["1", "true", "yes", "on"].includes(value));

/** pino's levels. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });

function wholeNumber(min: number, max?: number) {
  const error = `must be a whole number ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}`;
  const atLeast = z.coerce.number({ error }).int({ error }).min(min, { error });
  return max === undefined ? atLeast : atLeast.max(max, { error });
}

/** An absolute address with one of these schemes. */
function urlWith(protocols: string[], example: string) {
  return z
    .string()
    .refine(
      (value) => URL.canParse(value) && protocols.includes(new URL(value).protocol.slice(0, -1)),
      { error: `must be an address such as ${example}` },
    );
}

const postgresUrl = urlWith(
  ["postgres", "postgresql"],
  "postgres://user:password@host:5432/database",
);
const webUrl = urlWith(["https", "http"], "https://www.example.org");

/** Express's names for address ranges, accepted in TRUST_PROXY's list. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** An address or a subnet (address/prefix length, or IPv4 address/netmask), as proxy-addr takes it. */
function isAddressOrSubnet(item: string): boolean {
  const [address = "", range, ...rest] = item.split("/");
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * What Express's `trust proxy` setting takes, typed as Express wants it: true or false, a count of
 * proxies in front ("1"; as a string Express would read it as an address and trust nothing), or a
 * comma-separated list of addresses, subnets and the names loopback, linklocal and uniquelocal.
 */
export const trustProxySetting = z.string().transform((value, ctx): boolean | number | string[] => {
  const text = value.trim().toLowerCase();
  if (text === "true" || text === "false") return text === "true";
  if (/^\d+$/.test(text)) return Number(text);
  const items = text.split(",").map((item) => item.trim());
  if (items.every((item) => PROXY_RANGE_NAMES.has(item) || isAddressOrSubnet(item))) return items;
  ctx.addIssue({
    code: "custom",
    message:
      "must be true, false, a number of proxies (such as 1), or a comma-separated list of addresses, subnets (10.0.0.0/8) and the names loopback, linklocal and uniquelocal",
  });
  return z.NEVER;
});

const envSchema = z
  .object({
    NODE_ENV: oneOf(["development", "production", "test"]).default("development"),
    PORT: wholeNumber(0, 65535).default(3000),
    // Loopback only unless asked: the dev mailbox shows password-reset links to whoever can connect.
    HOST: z
      .string()
      .refine((value) => isIP(value) !== 0 || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(value), {
        error: "must be an IP address (such as 127.0.0.1 or 0.0.0.0) or a host name",
      })
      .default("127.0.0.1"),
    APP_URL: webUrl.optional(),
    DATABASE_URL: postgresUrl.optional(),
    // The tables' owner, used only to migrate; DATABASE_URL's role then gets rows, not tables.
    MIGRATION_DATABASE_URL: postgresUrl.optional(),
    PGLITE_DIR: z.string().default("./.data/pglite"),
    DEMO_DATA: booleanFlag.optional(),
    AUTH_SECRET: z.string().min(32, { error: "must be at least 32 characters long" }).optional(),
    SMTP_URL: urlWith(["smtp", "smtps"], "smtp://user:password@smtp.example.org:587").optional(),
    MAIL_FROM: z
      .string()
      .min(3, { error: "must be a sender such as Name <address@example.org>" })
      .default("Men's Health Advocacy Trust <bookings@example.org>"),
    STAFF_NOTIFY_EMAIL: z.email({ error: "must be an e-mail address" }).default("info@example.org"),
    PAYPAL_CLIENT_ID: z.string().optional(),
    PAYPAL_CLIENT_SECRET: z.string().optional(),
    // Unset means sandbox outside production; production must say which (see the check below).
    PAYPAL_ENV: oneOf(["sandbox", "production"]).optional(),
    PAYPAL_API_BASE: webUrl.optional(),
    MAP_TILE_URL: z.string().default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
    TRUST_PROXY: trustProxySetting.optional(),
    RATE_LIMIT_FORMS_PER_WINDOW: wholeNumber(1).default(10),
    RATE_LIMIT_POSTS_PER_WINDOW: wholeNumber(1).default(60),
    /** New holds on a place (not moves to another time) per client address per hour. */
    RATE_LIMIT_HOLDS_PER_HOUR: wholeNumber(1).default(20),
    /** New accounts per client address per hour. */
    RATE_LIMIT_SIGNUPS_PER_HOUR: wholeNumber(1).default(10),
    OUTBOX_POLL_MS: wholeNumber(50).default(5000),
    /** How often the booking worker runs its jobs (payments, refunds, offers, reminders, retention). */
    WORKER_INTERVAL_MS: wholeNumber(50).default(60_000),
    HOLD_MINUTES: wholeNumber(1, 120).default(15),
    /**
     * Years a released result is kept after its patient deleted his account, from its release
     * (NHS Records Management Code of Practice: adult records 8 years after the care ended).
     */
    RESULT_RETENTION_YEARS: wholeNumber(1, 100).default(8),
    /**
     * Days after the test (and the agreement) that consent answers are shredded: long enough for
     * the result, an Amber repeat after 3 months and questions about it; a retest asks again.
     */
    CONSENT_RETENTION_DAYS: wholeNumber(30, 3650).default(365),
    /** How long a place offered from an event's waiting list is held for the person offered it. */
    WAITLIST_OFFER_HOURS: wholeNumber(1, 168).default(12),
    /** How many hours before an appointment its reminder goes out (up to two weeks). */
    REMINDER_HOURS_BEFORE: wholeNumber(2, 336).default(48),
    /**
     * Seconds a page that is the same for every visitor without a session is kept in memory and
     * may be kept by browsers and CDNs (0: never). Another instance's change shows within it.
     */
    PAGE_CACHE_SECONDS: wholeNumber(0, 300).default(10),
    /** Milliseconds the upcoming-event lists are shared between pages and the API (0: never). */
    EVENT_LIST_CACHE_MS: wholeNumber(0, 60_000).default(2000),
    LOG_LEVEL: oneOf(LOG_LEVELS).default("info"),
  })
  .superRefine((env, ctx) => {
    // Half a pair would quietly fall back to the simulated provider.
    if (Boolean(env.PAYPAL_CLIENT_ID) !== Boolean(env.PAYPAL_CLIENT_SECRET)) {
      const missing = env.PAYPAL_CLIENT_ID ? "PAYPAL_CLIENT_SECRET" : "PAYPAL_CLIENT_ID";
      const other = env.PAYPAL_CLIENT_ID ? "PAYPAL_CLIENT_ID" : "PAYPAL_CLIENT_SECRET";
      ctx.addIssue({ code: "custom", path: [missing], message: `is needed with ${other}` });
    }
    if (env.MIGRATION_DATABASE_URL && !env.DATABASE_URL)
      ctx.addIssue({
        code: "custom",
        path: ["MIGRATION_DATABASE_URL"],
        message: "needs DATABASE_URL as well (the embedded database has no roles)",
      });
    if (env.NODE_ENV !== "production") return;
    for (const key of ["APP_URL", "AUTH_SECRET", "SMTP_URL"] as const) {
      if (!env[key])
        ctx.addIssue({ code: "custom", path: [key], message: "is required in production" });
    }
    // Demo data includes staff accounts whose passwords and TOTP key are in the README.
    if (env.DEMO_DATA)
      ctx.addIssue({
        code: "custom",
        path: ["DEMO_DATA"],
        message: "is refused in production (the demo's staff accounts are public)",
      });
    // Left to a default, a live site given sandbox credentials would confirm bookings paid for
    // with PayPal's play money: production says which PayPal it means.
    if (!env.PAYPAL_ENV)
      ctx.addIssue({
        code: "custom",
        path: ["PAYPAL_ENV"],
        message:
          "is required in production: production for real payments, or sandbox for PayPal's test money",
      });
    // Without PayPal credentials the site would use its simulated provider, which takes no money.
    for (const key of ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET"] as const) {
      if (!env[key])
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "is required in production (the simulated payment provider is refused there)",
        });
    }
  });

/**
 * A problem with how the service is set up, such as a bad setting: told in plain lines, each
 * complete in itself, and printed without a stack (server/index.js, scripts/create-admin.mjs).
 */
export class SetupError extends Error {
  override name = "SetupError";
}

export type Config = ReturnType<typeof parseConfig>;

export function parseConfig(env: NodeJS.ProcessEnv = process.env) {
  // A blank value (as a .env file often has) means "not set".
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = envSchema.safeParse(present);
  if (!result.success) {
    // One line per setting, never its value (it may be a password or a secret).
    const lines = result.error.issues.map(
      (issue) => `Configuration: ${issue.path.join(".")} ${issue.message}`,
    );
    throw new SetupError([...new Set(lines)].join("\n"));
  }
  const env_ = result.data;
  const isProduction = env_.NODE_ENV === "production";
  return {
    ...env_,
    isProduction,
    demoData: env_.DEMO_DATA ?? !isProduction,
    /** The address e-mailed links start with. */
    publicBaseUrl: (env_.APP_URL ?? `http://localhost:${env_.PORT}`).replace(/\/$/, ""),
    // The dev mailbox exists only where no real mail goes out, and never in production.
    devMailboxEnabled: !isProduction && !env_.SMTP_URL,
  };
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= parseConfig();
  return cached;
}

/** Every setting the site reads, for the test that keeps .env.example and the README complete. */
export const CONFIGURATION_NAMES: readonly string[] = Object.keys(envSchema.shape);
