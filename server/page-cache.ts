import { gzipSync } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import type { SharedPage } from "#app/services/page-cache.server";

/** What the page cache needs of its store (`sharedPages()`, or a test's own). */
interface PageStore {
  get(key: string): SharedPage | undefined;
  set(key: string, value: SharedPage, seenGeneration: number): boolean;
  generation(): number;
}

/** A page bigger than this is sent as it is, never kept. */
const MAX_PAGE_BYTES = 512 * 1024;
/** The headers a kept page is sent again with; the security headers are set afresh each time. */
const KEPT_HEADERS = ["content-type", "cache-control", "vary", "content-language"] as const;

/**
 * Pages that are the same for every visitor without a session (the render marks them
 * `Cache-Control: public`, app/entry.server.tsx) are kept as sent and sent again from memory,
 * gzipped once, until they expire or the events change. Only a GET or HEAD with no cookie at all
 * is ever answered from here, so nobody signed in, or carrying anything of their own, gets one.
 */
export function sharedPageCache(pageStore: () => PageStore): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.headers.cookie !== undefined)
      return next();
    // Asked for per request: the store is made on first use, once the settings have been read.
    const store = pageStore();
    const key = req.originalUrl;
    const kept = store.get(key);
    if (kept) return sendKept(req, res, kept);
    if (req.method === "GET") keepWhenShareable(res, key, store);
    next();
  };
}

function sendKept(req: Request, res: Response, page: SharedPage) {
  res.status(page.status);
  for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
  res.setHeader("Vary", mergeVary(page.headers.vary, "Accept-Encoding"));
  const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
  const body = gzip ? page.gzipped : page.body;
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", body.byteLength);
  res.end(req.method === "HEAD" ? undefined : body);
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
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = Buffer.concat(chunks);
    store.set(key, { status: 200, headers, body, gzipped: gzipSync(body) }, generation);
  });
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
