import "react-router";
import express, { type Request, type Response } from "express";
import { config, SetupError } from "#app/config.server";
import { openConfiguredDatabase, setDatabase, database } from "#app/db/client.server";
import { watchDatabase } from "#app/db/health.server";
import { seedDemoData } from "#app/demo/seed.server";
import { startBookingWorker } from "#app/services/booking/reconcile.server";
import { startOutboxWorker, type OutboxWorker } from "#app/services/email.server";
import { log } from "#app/services/log.server";
import { loadServerSecret } from "#app/services/secrets.server";
import { sharedPages } from "#app/services/page-cache.server";
import { answerFromSharedPages, keepSharedPages } from "./page-cache";
import { pageHandler } from "./pages";
import {
  clientAddress,
  cspNonce,
  databaseGate,
  errorHandler,
  rateLimits,
  requestShape,
  sameOriginOnly,
  securityHeaders,
  servedMethodsOnly,
} from "./security";

export { config, log, SetupError };
export { createAdminFromCommandLine } from "./cli";
export { fixedFiles } from "./static-files";
export { answerClientError } from "./client-error";

declare module "react-router" {
  interface AppLoadContext {
    cspNonce: string;
    /** The client's address as Express sees it (set TRUST_PROXY behind a proxy). */
    clientAddress: string;
  }
}

/** Opens the database, applies migrations, seeds demo data and starts the mail worker. */
export async function startup() {
  const settings = config();
  if (settings.TRUST_PROXY === true)
    log.warn(
      "TRUST_PROXY=true believes any X-Forwarded-For a client sends, so anyone can pick their own address for rate limits and sign-in throttling: give the number of proxies in front (such as 1) or their addresses instead",
    );
  const opened = openConfiguredDatabase(settings);
  await opened.migrate();
  setDatabase(opened);
  watchDatabase(opened.ping);
  await loadServerSecret(opened.db, settings.AUTH_SECRET);
  if (settings.demoData && (await seedDemoData(opened.db))) log.info("Demo data seeded.");

  let worker: OutboxWorker | undefined;
  if (settings.SMTP_URL) {
    worker = startOutboxWorker({
      db: opened.db,
      smtpUrl: settings.SMTP_URL,
      from: settings.MAIL_FROM,
      pollMs: settings.OUTBOX_POLL_MS,
    });
  } else {
    log.info("SMTP_URL is not set: mail stays in the outbox; read it at /dev/mailbox.");
  }

  // Settles payments whose browser never came back, tidies expired holds and runs WORKER_JOBS.
  const bookingWorker = startBookingWorker({
    db: opened.db,
    intervalMs: settings.WORKER_INTERVAL_MS,
  });

  return {
    driver: opened.driver,
    async shutdown() {
      await bookingWorker.stop();
      await worker?.stop();
      await opened.close();
      setDatabase(undefined);
    },
  };
}

/** The tile server's origin, for the CSP's img-src (data: tiles are already allowed). */
function tileOrigin(template: string): string[] {
  try {
    const url = new URL(template.replace(/\{[a-z]\}/g, "a"));
    return url.protocol === "https:" || url.protocol === "http:" ? [url.origin] : [];
  } catch {
    return [];
  }
}

/**
 * Where the checkout page may send people and load PayPal from: PayPal's sites for the
 * environment, or the override (the tests' fake). None with the simulated provider.
 */
function paymentOrigins(settings: ReturnType<typeof config>): string[] {
  if (!settings.PAYPAL_CLIENT_ID || !settings.PAYPAL_CLIENT_SECRET) return [];
  if (settings.PAYPAL_API_BASE) return [new URL(settings.PAYPAL_API_BASE).origin];
  return settings.PAYPAL_ENV === "production"
    ? ["https://www.paypal.com"]
    : ["https://www.sandbox.paypal.com", "https://www.paypal.com"];
}

/** Headers, CSRF guard, rate limits and the health check: everything that runs before a page or a file. */
export function security({ viteDevServer }: { viteDevServer: boolean }) {
  const settings = config();
  const router = express.Router();
  router.use(clientAddress);
  router.use(cspNonce);
  router.use(
    securityHeaders({
      isProduction: settings.isProduction,
      viteDevServer,
      servedOverHttps: settings.APP_URL?.startsWith("https:") ?? false,
      imageSources: tileOrigin(settings.MAP_TILE_URL),
      paymentOrigins: paymentOrigins(settings),
      formsPerWindow: settings.RATE_LIMIT_FORMS_PER_WINDOW,
      postsPerWindow: settings.RATE_LIMIT_POSTS_PER_WINDOW,
    }),
  );
  router.use(servedMethodsOnly);
  router.get("/healthz", async (_req: Request, res: Response) => {
    res.set("Cache-Control", "no-store");
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        database().ping(),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), 2000))),
      ]);
      res.json({ status: "ok" });
    } catch {
      res.status(503).json({ status: "unavailable" });
    } finally {
      // Left running, each check's timer would hold its promise for two seconds.
      clearTimeout(timer);
    }
  });
  router.use(
    sameOriginOnly({ appOrigin: settings.APP_URL ? new URL(settings.APP_URL).origin : undefined }),
  );
  router.use(requestShape());
  router.use(
    ...rateLimits({
      formsPerWindow: settings.RATE_LIMIT_FORMS_PER_WINDOW,
      postsPerWindow: settings.RATE_LIMIT_POSTS_PER_WINDOW,
    }),
  );
  return router;
}

// The build itself in production (its route table is made once); a function under Vite's dev server.
const renderPages = pageHandler(() => import("virtual:react-router/server-build"), {
  development: import.meta.env.DEV,
  getLoadContext: (req, res) => ({
    cspNonce: res.locals.cspNonce as string,
    clientAddress: req.ip ?? "unknown",
  }),
});

/**
 * Pages and the API, behind the database gate, with a last-resort error handler. What may be
 * shared with every visitor without a session is kept as it is sent, for `answerFromKept`.
 */
export const handler = express
  .Router()
  .use(keepSharedPages(sharedPages), databaseGate, renderPages, errorHandler);

/**
 * Put in front of Express (server/index.js): answers a request for a kept page with the bytes and
 * headers it was first sent with, or says it did not. It needs no database, so kept pages stay up
 * while the database is down.
 */
export const answerFromKept = answerFromSharedPages(sharedPages);
