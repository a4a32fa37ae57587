import { isIP } from "node:net";
import { z } from "zod";

/** Every setting the service reads from the environment, validated once at start-up. */
const booleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
  .transform((value) => ["1", "true", "yes", "on"].includes(value));

const postgresUrl = z
  .string()
  .refine((value) => URL.canParse(value) && /^postgres(ql)?:$/.test(new URL(value).protocol), {
    message: "must be a connection string such as postgres://user:password@host:5432/database",
  });

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    // Loopback only unless asked: the dev mailbox shows password-reset links to whoever can connect.
    HOST: z
      .string()
      .refine((value) => isIP(value) !== 0 || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(value), {
        message: "must be an IP address (such as 127.0.0.1 or 0.0.0.0) or a host name",
      })
      .default("127.0.0.1"),
    APP_URL: z.url().optional(),
    DATABASE_URL: postgresUrl.optional(),
    // The tables' owner, used only to migrate; DATABASE_URL's role then gets rows, not tables.
    MIGRATION_DATABASE_URL: postgresUrl.optional(),
    PGLITE_DIR: z.string().min(1).default("./.data/pglite"),
    DEMO_DATA: booleanFlag.optional(),
    AUTH_SECRET: z.string().min(32).optional(),
    SMTP_URL: z.string().min(1).optional(),
    MAIL_FROM: z.string().min(3).default("Men's Health Advocacy Trust <bookings@example.org>"),
    STAFF_NOTIFY_EMAIL: z.email().default("info@example.org"),
    PAYPAL_CLIENT_ID: z.string().optional(),
    PAYPAL_CLIENT_SECRET: z.string().optional(),
    PAYPAL_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
    PAYPAL_API_BASE: z.url().optional(),
    MAP_TILE_URL: z.string().default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
    TRUST_PROXY: z.string().optional(),
    RATE_LIMIT_FORMS_PER_WINDOW: z.coerce.number().int().min(1).default(10),
    RATE_LIMIT_POSTS_PER_WINDOW: z.coerce.number().int().min(1).default(60),
    OUTBOX_POLL_MS: z.coerce.number().int().min(50).default(5000),
    HOLD_MINUTES: z.coerce.number().int().min(1).max(120).default(15),
  })
  .superRefine((env, ctx) => {
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

export type Config = ReturnType<typeof parseConfig>;

export function parseConfig(env: NodeJS.ProcessEnv = process.env) {
  // A blank value (as a .env file often has) means "not set".
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
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
