const SAME_SITE = "http://same.invalid";

/**
 * A path on this site to send someone back to, or the fallback. Only a plain same-site path
 * passes. A browser reads "//evil.example", "/\evil.example" and "/\t/evil.example" as another
 * host, and "/.//evil.example" becomes "//evil.example" once the dot is resolved, so the check is
 * made on the path as the browser will finally see it.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/")) return fallback;
  // Control characters (tabs, newlines) are dropped by browsers, and backslashes read as slashes.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, SAME_SITE);
  } catch {
    return fallback;
  }
  if (url.origin !== SAME_SITE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? fallback : path;
}
