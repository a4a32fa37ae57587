import { createTtlMap } from "#app/domain/ttl-cache";
import { SHARED_PAGE_MAX_AGE } from "#app/utils/headers";

/** A page that is the same for every visitor without a session, as it was sent. */
export interface SharedPage {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The same body gzipped once, for the many clients that accept it. */
  gzipped: Buffer;
}

/**
 * This process's copy of the pages that may be shared (see isShareablePage): cleared whenever
 * events, bookings or places change here (`eventsChanged`), and never older than a browser may
 * keep the page, which also bounds how long another instance's change takes to show.
 */
export const sharedPages = createTtlMap<SharedPage>({
  ttlMs: SHARED_PAGE_MAX_AGE * 1000,
  maxEntries: 200,
});

export function sharedPagesChanged() {
  sharedPages.clear();
}
