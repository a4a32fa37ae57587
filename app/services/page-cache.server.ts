import { config } from "#app/config.server";
import { createTtlMap } from "#app/domain/ttl-cache";

/** A page that is the same for every visitor without a session, as it was sent. */
export interface SharedPage {
  status: number;
  body: Buffer;
  /** Every header to send the body with, the security headers and its length included. */
  headers: Record<string, string>;
  /** The same body gzipped once, for the many clients that accept it, and its headers. */
  gzipped: Buffer;
  gzippedHeaders: Record<string, string>;
  /** It does not vary with cookies (no `Vary: Cookie`), so it may go to a request that has some. */
  sameWithAnyCookie: boolean;
}

/**
 * This process's copy of the pages that may be shared (see isShareablePage): cleared whenever
 * events, bookings or places change here (`eventsChanged`), and never older than a browser may
 * keep the page (PAGE_CACHE_SECONDS), which also bounds how long another instance's change takes
 * to show. Made on first use, when the configuration is known.
 */
let pages: ReturnType<typeof createTtlMap<SharedPage>> | undefined;

export function sharedPages() {
  pages ??= createTtlMap<SharedPage>({
    ttlMs: config().PAGE_CACHE_SECONDS * 1000,
    maxEntries: 200,
    // A bound on memory whatever addresses are asked for: each page is kept plain and gzipped.
    weigh: (page) => page.body.byteLength + page.gzipped.byteLength,
    maxWeight: 32 * 1024 * 1024,
  });
  return pages;
}

export function sharedPagesChanged() {
  pages?.clear();
}
