import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import type { RequestHandler, Response } from "express";
import type { SharedPage } from "#app/services/page-cache.server";

/** What the page cache needs of its store (`sharedPages()`, or a test's own). */
interface PageStore {
  get(key: string): SharedPage | undefined;
  set(key: string, value: SharedPage, seenGeneration: number, lifetimeMs?: number): boolean;
  generation(): number;
}

/** A page bigger than this is sent as it is, never kept. */
const MAX_PAGE_BYTES = 512 * 1024;

/** Headers that belong to one sending, not to the page: Node writes them afresh, or we do. */
const PER_SENDING_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
]);

/**
 * Answers a GET or HEAD from the answers kept by `keepSharedPages`, before Express or any
 * middleware runs: a kept answer was sent once through all of them, and its headers, the security
 * headers included, were kept with it. Says whether it answered. A page (`Vary: Cookie`) is only
 * ever sent to a request with no cookie at all, so nobody signed in, or carrying anything of
 * their own, gets one.
 */
export function answerFromSharedPages(pageStore: () => PageStore) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    // Asked for per request: the store is made on first use, once the settings have been read.
    const kept = pageStore().get(req.url ?? "");
    // An answer that varies with cookies (every page: its header shows who is signed in) goes
    // only to a request with none; one that does not (the event list) goes to everyone, as a
    // CDN would send it.
    if (!kept || (req.headers.cookie !== undefined && !kept.sameWithAnyCookie)) return false;
    const gzip = acceptsGzip(req.headers["accept-encoding"]);
    res.writeHead(kept.status, gzip ? kept.gzippedHeaders : kept.headers);
    res.end(req.method === "HEAD" ? undefined : gzip ? kept.gzipped : kept.body);
    return true;
  };
}

/**
 * Keeps the answers the render marked `Cache-Control: public` (app/entry.server.tsx, and
 * `/api/events`) for a GET with no cookie, as they were sent: body, gzipped body and headers. A
 * page has no script, so the CSP's nonce is taken out of its kept policy. Each is kept for no
 * longer than its own max-age, and not at all once the events change while it is made.
 */
export function keepSharedPages(pageStore: () => PageStore): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" && req.headers.cookie === undefined) {
      const store = pageStore();
      keepWhenShareable(res, req.originalUrl, store);
    }
    next();
  };
}

/** Copies the body as it is written and keeps it at the end if the render marked it public. */
function keepWhenShareable(res: Response, key: string, store: PageStore) {
  const generation = store.generation();
  const chunks: Buffer[] = [];
  let size = 0;
  let tooBig = false;
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (tooBig || chunk === undefined || chunk === null || typeof chunk === "function") return;
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : Buffer.from(chunk as Uint8Array);
    size += buffer.byteLength;
    if (size > MAX_PAGE_BYTES) tooBig = true;
    else chunks.push(buffer);
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response["write"];
  res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
  } as Response["end"];
  res.once("finish", () => {
    const cacheControl = String(res.getHeader("cache-control") ?? "");
    if (tooBig || res.statusCode !== 200 || !/^public\b/.test(cacheControl)) return;
    if (res.getHeader("set-cookie") !== undefined) return;
    const maxAge = /\bmax-age=(\d+)/.exec(cacheControl);
    const body = Buffer.concat(chunks);
    store.set(
      key,
      sharedPage(res.getHeaders(), body),
      generation,
      maxAge ? Number(maxAge[1]) * 1000 : 0,
    );
  });
}

/** The page as it will be sent again: its headers, worked out once for each encoding. */
function sharedPage(sent: OutgoingHttpHeaders, body: Buffer): SharedPage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    if (value === undefined || PER_SENDING_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  const policy = headers["content-security-policy"];
  if (policy) headers["content-security-policy"] = policy.replace(/ 'nonce-[^']*'/g, "");
  headers.vary = mergeVary(headers.vary, "Accept-Encoding");
  const gzipped = gzipSync(body);
  return {
    status: 200,
    sameWithAnyCookie: !headers.vary.split(",").some((name) => /^\s*(cookie|\*)\s*$/i.test(name)),
    body,
    gzipped,
    headers: { ...headers, "content-length": String(body.byteLength) },
    gzippedHeaders: {
      ...headers,
      "content-encoding": "gzip",
      "content-length": String(gzipped.byteLength),
    },
  };
}

/** Whether an Accept-Encoding header takes gzip (by name or as `*`) with a weight above zero. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    const weight = parameters.find((parameter) => /^q=/i.test(parameter));
    const quality = weight ? Number(weight.slice(2)) : 1;
    const name = coding.toLowerCase();
    if (name === "gzip" || name === "x-gzip") gzip = quality;
    else if (name === "*") any = quality;
  }
  const quality = gzip ?? any ?? 0;
  return Number.isFinite(quality) && quality > 0;
}

function mergeVary(existing: string | undefined, name: string): string {
  const names = (existing ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return names.some((part) => part.toLowerCase() === name.toLowerCase())
    ? names.join(", ")
    : [...names, name].join(", ");
}
