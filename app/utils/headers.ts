import type { HeadersFunction } from "react-router";

/** For responses that show personal data or a form's secrets: no cache keeps a copy. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/**
 * For a page opened from a link that carries a token: no cache keeps it, and no other site gets
 * it in a Referer header. Not "no-referrer": with that, a browser without JavaScript posts the
 * page's form with `Origin: null`, which the cross-site guard (server/security.ts) refuses.
 */
export const TOKEN_LINK_HEADERS = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "same-origin",
} as const;

/** Headers a loader or action may set that must reach the page's own response. */
const FORWARDED = ["Cache-Control", "Referrer-Policy", "Vary", "Retry-After"] as const;

/**
 * React Router uses a route's loader headers only if the route exports `headers`. Every route
 * with a loader exports this one (as the Epic Stack's pipeHeaders does): the deepest route's
 * value wins, except that `no-store` anywhere (a page showing personal data, or anyone signed
 * in) is never relaxed by a parent or a child.
 */
export const pipeHeaders: HeadersFunction = ({
  parentHeaders,
  loaderHeaders,
  actionHeaders,
  errorHeaders,
}) => {
  const sources = [parentHeaders, loaderHeaders, actionHeaders, errorHeaders].filter(
    (source): source is Headers => source instanceof Headers,
  );
  const headers = new Headers();
  for (const name of FORWARDED) {
    for (const source of sources) {
      const value = source.get(name);
      if (value) headers.set(name, value);
    }
  }
  if (sources.some((source) => /\bno-store\b/.test(source.get("Cache-Control") ?? "")))
    headers.set("Cache-Control", "private, no-store");
  return headers;
};

/**
 * The headers of a page anyone may keep, for `maxAge` seconds (PAGE_CACHE_SECONDS). `Vary: Cookie`
 * keeps a CDN from handing it to someone signed in, whose pages say `private, no-store`.
 */
export function sharedPageHeaders(maxAge: number) {
  return {
    "Cache-Control": `public, max-age=${maxAge}, stale-while-revalidate=60`,
    Vary: "Cookie",
  } as const;
}

/**
 * The event list is the same for everyone and shared for EVENT_LIST_CACHE_MS here, so a browser, a
 * CDN and this server's kept answers (server/page-cache.ts) may keep it as long, in whole seconds.
 */
export function eventListCacheControl(sharedForMs: number) {
  const seconds = Math.floor(sharedForMs / 1000);
  return seconds > 0 ? `public, max-age=${seconds}` : "no-cache";
}

/**
 * Whether a rendered page is the same for every visitor, so that it may be shared: a plain GET
 * with no cookie at all (no session, no notice carried over from a form), answered 200, with no
 * script (so no per-request nonce in its bytes), no cookie set, and no cache rule of its own
 * (every page with personal data or a token says `no-store`).
 */
export function isShareablePage(page: {
  method: string;
  requestHeaders: Headers;
  status: number;
  responseHeaders: Headers;
  scripts: boolean;
}): boolean {
  return (
    (page.method === "GET" || page.method === "HEAD") &&
    !page.requestHeaders.has("Cookie") &&
    page.status === 200 &&
    !page.scripts &&
    !page.responseHeaders.has("Set-Cookie") &&
    !page.responseHeaders.has("Cache-Control")
  );
}
