import crypto from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { rateLimit } from "express-rate-limit";
import helmet from "helmet";

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
  formsPerWindow: number;
  postsPerWindow: number;
}

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Public forms and their single-fetch twins ("/news.data"), which get a tighter limit. */
export const PUBLIC_FORM_PATHS = [
  /^\/about-us(\.data)?$/,
  /^\/news(\.data)?$/,
  /^\/api\/subscriptions$/,
  /^\/api\/logs\/error$/,
];

export function wantsJson(req: Request) {
  return (
    req.path.startsWith("/api/") ||
    req.path.endsWith(".data") ||
    req.accepts(["html", "json"]) === "json"
  );
}

function refuse(req: Request, res: Response, status: number, message: string) {
  if (wantsJson(req)) {
    res.status(status).json({ error: message });
    return;
  }
  res
    .status(status)
    .type("html")
    .send(
      `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${message}</title></head>` +
        `<body><main><h1>${message}</h1><p><a href="/">Go to the home page</a>.</p></main></body></html>`,
    );
}

/** A fresh nonce per request, read by entry.server.tsx for every script tag it renders. */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  next();
};

export function securityHeaders(options: SecurityOptions): RequestHandler {
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce}'`;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Vite's dev server injects an inline preamble and opens an HMR socket; otherwise only nonced scripts run.
        scriptSrc: options.viteDevServer ? ["'self'", "'unsafe-inline'"] : ["'self'", nonce],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:", ...(options.imageSources ?? [])],
        fontSrc: ["'self'"],
        connectSrc: options.viteDevServer ? ["'self'", "ws:"] : ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
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

export function rateLimits(
  options: Pick<SecurityOptions, "formsPerWindow" | "postsPerWindow">,
): RequestHandler[] {
  const message = "Too many requests. Please wait a few minutes and try again.";
  const handler = (req: Request, res: Response) => refuse(req, res, 429, message);
  const anyPost = rateLimit({
    windowMs: 60_000,
    limit: options.postsPerWindow,
    skip: (req) => !UNSAFE_METHODS.has(req.method),
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler,
  });
  const publicForms = rateLimit({
    windowMs: 10 * 60_000,
    limit: options.formsPerWindow,
    skip: (req) => req.method !== "POST" || !PUBLIC_FORM_PATHS.some((path) => path.test(req.path)),
    standardHeaders: "draft-8",
    legacyHeaders: false,
    identifier: "public-forms",
    handler,
  });
  return [anyPost, publicForms];
}
