import crypto from "node:crypto";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";
import { MemoryStore, rateLimit, type Store } from "express-rate-limit";
import helmet from "helmet";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import { isDatabaseDown, noteDatabaseError } from "#app/db/health.server";
import { logError } from "#app/services/log.server";
import { DatabaseRateLimitStore } from "#app/services/rate-limit.server";
import {
  CLIENT_ADDRESS_HEADER,
  FORM_BODY_LIMIT_BYTES,
  isFormContentType,
  isJsonContentType,
} from "#app/utils/http.server";

export interface SecurityOptions {
  isProduction: boolean;
  /** Vite's dev server needs inline scripts and a socket; everything else gets the strict policy. */
  viteDevServer: boolean;
  /** Upgrade-insecure-requests only makes sense where the site is served over https. */
  servedOverHttps: boolean;
  /** The public origin (from APP_URL); when unset, the request's own host is expected. */
  appOrigin?: string;
  /** Extra image sources, such as the map tile server. */
  imageSources?: string[];
  /**
   * PayPal's origins, allowed on the checkout page only: its script, frames, calls and images, and
   * the redirect to its approval page after the no-JavaScript "Pay with PayPal or card" form.
   */
  paymentOrigins?: string[];
  formsPerWindow: number;
  postsPerWindow: number;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** No page or endpoint needs a longer address; longer ones would only grow the sign-in redirect. */
export const MAX_URL_LENGTH = 4096;
/** React Router asks for the routes behind a page's links in one request of up to 7,680 characters. */
export const MAX_MANIFEST_URL_LENGTH = 8192;

function urlLimit(url: string) {
  return url.startsWith("/__manifest?") ? MAX_MANIFEST_URL_LENGTH : MAX_URL_LENGTH;
}

/** Public forms and their single-fetch twins ("/news.data"), which get a tighter limit. */
export const PUBLIC_FORM_PATHS = [
  /^\/about-us(\.data)?$/,
  /^\/news(\.data)?$/,
  /^\/api\/subscriptions$/,
  /^\/api\/logs\/error$/,
];

/** The JSON API: `/api` and everything under it. */
const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

export function wantsJson(req: Request) {
  return (
    isApiPath(req.path) || req.path.endsWith(".data") || req.accepts(["html", "json"]) === "json"
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A refusal, in JSON for the API and a small page for people. */
function refuse(req: Request, res: Response, status: number, message: string, detail = "") {
  if (wantsJson(req)) {
    res.status(status).json({ error: message });
    return;
  }
  const { general } = organisation.phones;
  res
    .status(status)
    .type("html")
    .send(
      `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(message)} | ${escapeHtml(organisation.name)}</title></head>` +
        `<body><main><h1>${escapeHtml(message)}</h1>${detail ? `<p>${escapeHtml(detail)}</p>` : ""}` +
        `<p>If you need help, call us on <a href="tel:${general.tel}">${general.display}</a>.</p>` +
        `<p><a href="/">Go to the home page</a>.</p></main></body></html>`,
    );
}

/**
 * One client address everywhere: the socket's, or the proxy's header only when TRUST_PROXY is
 * set (Express's `req.ip`). It replaces whatever the client sent in our header, and rate limits,
 * sign-in throttling and better-auth all read it from there.
 */
export const clientAddress: RequestHandler = (req, _res, next) => {
  req.headers[CLIENT_ADDRESS_HEADER] = req.ip ?? "";
  next();
};

/** The methods the site serves: pages and files (GET, HEAD) and forms and the API (POST). */
export const SERVED_METHODS = ["GET", "HEAD", "POST"] as const;

/**
 * Any other method (TRACE, OPTIONS, PROPFIND, PUT…) is 405 with an Allow header, before a route
 * sees it: React Router would log it as an error, and fetch's Request refuses TRACE outright (500).
 */
export const servedMethodsOnly: RequestHandler = (req, res, next) => {
  if ((SERVED_METHODS as readonly string[]).includes(req.method)) return next();
  res.set("Allow", SERVED_METHODS.join(", "));
  refuse(req, res, 405, "This address does not accept that kind of request");
};

/**
 * Requests no page or endpoint accepts, refused before any of them runs: a NUL or other control
 * character in the address (400), a state change whose body is not a form (pages) or JSON (the
 * API) (415), and a declared body over the form limit (413, without reading it). Bodies sent
 * without a length are counted as they are read (app/utils/http.server.ts).
 */
/**
 * A path that does not decode (a stray `%`) is refused here: React Router would warn of it on the
 * console with the path as it came, past the log's scrubbing, and a path can carry what someone
 * typed.
 */
function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export function requestShape(options: { formBodyLimitBytes?: number } = {}): RequestHandler {
  const limit = options.formBodyLimitBytes ?? FORM_BODY_LIMIT_BYTES;
  return (req, res, next) => {
    if (req.originalUrl.length > urlLimit(req.originalUrl))
      return refuse(req, res, 414, "This address is too long");
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    if (/%00|[\u0000-\u001f\u007f]/i.test(req.originalUrl) || !decodable(req.path))
      return refuse(req, res, 400, "This address contains characters we cannot accept");
    if (!UNSAFE_METHODS.has(req.method)) return next();
    if (Number(req.get("content-length") ?? "0") > limit) {
      res.set("Connection", "close");
      return refuse(
        req,
        res,
        413,
        "That was too much to send",
        "Please go back, shorten what you typed, and try again.",
      );
    }
    const type = req.get("content-type") ?? null;
    if (isApiPath(req.path)) {
      if (!isJsonContentType(type))
        return refuse(req, res, 415, "Send the body as JSON (Content-Type: application/json)");
    } else if (!isFormContentType(type))
      return refuse(req, res, 415, "We could not read that form");
    next();
  };
}

const UNAVAILABLE = {
  title: "This part of our website is not available just now",
  detail: "Please try again in a few minutes.",
};

/**
 * While the database is unreachable, pages and the API answer 503 at once. A request that was
 * already under way when it went gets its 500 turned into a 503 as well.
 */
export const databaseGate: RequestHandler = (req, res, next) => {
  if (req.path !== "/healthz" && isDatabaseDown()) {
    res.set("Retry-After", "30");
    return refuse(req, res, 503, UNAVAILABLE.title, UNAVAILABLE.detail);
  }
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, statusCode: number, ...rest: unknown[]) {
    const status = statusCode === 500 && isDatabaseDown() ? 503 : statusCode;
    return (writeHead as (...args: unknown[]) => Response).call(this, status, ...rest);
  } as Response["writeHead"];
  next();
};

/** The last resort: an error no route handled is logged with an id, and answered without a stack. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const declared = (error as { status?: unknown }).status;
  const status =
    typeof declared === "number" && declared >= 400 && declared < 500
      ? declared
      : noteDatabaseError(error)
        ? 503
        : 500;
  if (status === 500) logError(error, { route: req.path, method: req.method, code: "unhandled" });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (status === 503) return refuse(req, res, 503, UNAVAILABLE.title, UNAVAILABLE.detail);
  refuse(
    req,
    res,
    status,
    status === 500 ? "Sorry, something went wrong" : "We could not read that",
  );
};

/** A fresh nonce per request, read by entry.server.tsx for every script tag it renders. */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  next();
};

/** The pages where PayPal's code runs or where a form leads to PayPal. */
const CHECKOUT_PATHS = new Set(["/checkout", "/checkout.data"]);

export function securityHeaders(options: SecurityOptions): RequestHandler {
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce}'`;
  // A directive value per request: PayPal's origins on the checkout page, nothing extra elsewhere.
  const onCheckout =
    (sources: string[]) =>
    (req: unknown): string =>
      CHECKOUT_PATHS.has((req as Request).path) && sources.length ? sources.join(" ") : "'self'";
  const payment = options.paymentOrigins ?? [];
  const paymentWildcards = payment.length ? ["https://*.paypal.com"] : [];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Vite's dev server injects an inline preamble and opens an HMR socket; otherwise only nonced scripts run.
        scriptSrc: options.viteDevServer
          ? ["'self'", "'unsafe-inline'"]
          : ["'self'", nonce, onCheckout([...payment, ...paymentWildcards])],
        // PayPal's script adds <style> elements carrying our nonce (data-csp-nonce). Vite's dev
        // server puts CSS imported by scripts (Leaflet's, on the map pages) in <style> elements.
        styleSrc: options.viteDevServer
          ? ["'self'", "'unsafe-inline'"]
          : [
              "'self'",
              (req, res) =>
                CHECKOUT_PATHS.has((req as Request).path) ? nonce(req, res) : "'self'",
            ],
        // Vite's dev client waits for a restarted server from a blob: worker.
        ...(options.viteDevServer ? { workerSrc: ["'self'", "blob:"] } : {}),
        imgSrc: [
          "'self'",
          "data:",
          ...(options.imageSources ?? []),
          onCheckout(payment.length ? ["https://*.paypalobjects.com", ...paymentWildcards] : []),
        ],
        fontSrc: ["'self'"],
        connectSrc: options.viteDevServer
          ? ["'self'", "ws:"]
          : ["'self'", onCheckout([...payment, ...paymentWildcards])],
        frameSrc: ["'self'", onCheckout([...payment, ...paymentWildcards])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'", onCheckout(payment)],
        frameAncestors: ["'none'"],
        ...(options.servedOverHttps ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.isProduction
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: "deny" },
  });
}

/**
 * Cross-site request forgery guard: a state-changing request from a browser must come from our
 * own origin. Clients that send neither header (curl, server-to-server) are let through; they
 * carry no ambient cookies to abuse.
 */
export function sameOriginOnly(options: Pick<SecurityOptions, "appOrigin">): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!UNSAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    if (origin) {
      const expected = options.appOrigin ?? `${req.protocol}://${req.get("host")}`;
      if (origin !== expected) return refuse(req, res, 403, "This request came from another site");
    } else if (req.get("sec-fetch-site") === "cross-site") {
      return refuse(req, res, 403, "This request came from another site");
    }
    next();
  };
}

/** Each limiter's counters, in the database by default so that every instance shares them. */
const databaseStore = (prefix: string): Store => new DatabaseRateLimitStore(prefix, db);

export function rateLimits(
  options: Pick<SecurityOptions, "formsPerWindow" | "postsPerWindow"> & {
    /** Where a limiter counts, given its own key prefix (the unit tests count in memory). */
    store?: (prefix: string) => Store;
  },
): RequestHandler[] {
  const store = options.store ?? databaseStore;
  const message = "Too many requests. Please wait a few minutes and try again.";
  const handler = (req: Request, res: Response) => refuse(req, res, 429, message);
  // TRUST_PROXY=true is warned about once at start-up (server/app.ts), not with a stack per limiter.
  const validate = { trustProxy: false };
  const anyPost = rateLimit({
    windowMs: 60_000,
    limit: options.postsPerWindow,
    skip: (req) => !UNSAFE_METHODS.has(req.method),
    standardHeaders: "draft-8",
    legacyHeaders: false,
    validate,
    handler,
    // The coarse ceiling on every post counts in this instance's memory (D-145): a count in the
    // database before each post's body is read left the browser tests' fuzzed uploads cut off.
    store: options.store?.("http-posts:") ?? new MemoryStore(),
  });
  const publicForms = rateLimit({
    windowMs: 10 * 60_000,
    limit: options.formsPerWindow,
    skip: (req) => req.method !== "POST" || !PUBLIC_FORM_PATHS.some((path) => path.test(req.path)),
    standardHeaders: "draft-8",
    legacyHeaders: false,
    identifier: "public-forms",
    validate,
    handler,
    store: store("http-public-forms:"),
  });
  return [anyPost, publicForms];
}
