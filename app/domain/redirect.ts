/**
 * A path on this site to send someone back to, or the fallback. Only same-site paths pass:
 * "//evil.example", "/\\evil.example" and absolute URLs would send people elsewhere.
 */
export function safeRedirect(to: unknown, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\"))
    return fallback;
  // Control characters (tabs, newlines) can turn "/\t/evil.example" into "//evil.example" in a browser.
  if ([...to].some((char) => char.charCodeAt(0) < 0x20)) return fallback;
  try {
    const url = new URL(to, "http://same.invalid");
    return url.origin === "http://same.invalid"
      ? `${url.pathname}${url.search}${url.hash}`
      : fallback;
  } catch {
    return fallback;
  }
}
