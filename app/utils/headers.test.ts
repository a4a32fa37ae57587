import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventListCacheControl, isShareablePage, pipeHeaders } from "./headers";

const call = (parts: {
  parent?: HeadersInit;
  loader?: HeadersInit;
  action?: HeadersInit;
  error?: HeadersInit;
}) =>
  new Headers(
    pipeHeaders({
      parentHeaders: new Headers(parts.parent),
      loaderHeaders: new Headers(parts.loader),
      actionHeaders: new Headers(parts.action),
      errorHeaders: parts.error ? new Headers(parts.error) : undefined,
    }),
  );

describe("pipeHeaders", () => {
  it("passes a loader's Cache-Control and Referrer-Policy to the document", () => {
    const headers = call({
      loader: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
    });
    expect(headers.get("Cache-Control")).toBe("private, no-store");
    expect(headers.get("Referrer-Policy")).toBe("no-referrer");
  });

  it("keeps a parent's no-store even when the page asks for caching", () => {
    const headers = call({
      parent: { "Cache-Control": "private, no-store" },
      loader: { "Cache-Control": "public, max-age=300" },
    });
    expect(headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("lets the deepest route decide otherwise", () => {
    const headers = call({
      parent: { "Cache-Control": "public, max-age=60" },
      loader: { "Cache-Control": "public, max-age=300" },
    });
    expect(headers.get("Cache-Control")).toBe("public, max-age=300");
  });

  it("uses an error's headers, such as Retry-After", () => {
    expect(call({ error: { "Retry-After": "120" } }).get("Retry-After")).toBe("120");
  });

  it("forwards nothing else", () => {
    expect([...call({ loader: { "X-Other": "1" } }).keys()]).toEqual([]);
  });
});

/** Every route module with a loader exports `headers`, or its loader's headers never reach the page. */
describe("route modules", () => {
  const routesFolder = path.resolve(__dirname, "../routes");
  const files = (folder: string): string[] =>
    readdirSync(folder).flatMap((name) => {
      const full = path.join(folder, name);
      return statSync(full).isDirectory() ? files(full) : [full];
    });
  const withLoader = files(routesFolder).filter(
    (file) =>
      file.endsWith(".tsx") &&
      !file.includes(`${path.sep}api${path.sep}`) &&
      /export (async )?function loader\b/.test(readFileSync(file, "utf8")),
  );

  it("are found: the pages with a loader", () => {
    expect(withLoader.length).toBeGreaterThan(20);
  });

  it.each(withLoader.map((file) => [path.relative(routesFolder, file), file]))(
    "%s has a loader, so it exports headers",
    (_name, file) => {
      expect(readFileSync(file, "utf8")).toMatch(/export const headers = pipeHeaders;/);
    },
  );
});

describe("isShareablePage", () => {
  const page = (overrides: Partial<Parameters<typeof isShareablePage>[0]> = {}) => ({
    method: "GET",
    requestHeaders: new Headers(),
    status: 200,
    responseHeaders: new Headers({ "Content-Type": "text/html" }),
    scripts: false,
    ...overrides,
  });

  it("shares a script-free page that an anonymous GET got with 200", () => {
    expect(isShareablePage(page())).toBe(true);
    expect(isShareablePage(page({ method: "HEAD" }))).toBe(true);
  });

  it("never shares a page asked for with any cookie, a session's or another", () => {
    expect(isShareablePage(page({ requestHeaders: new Headers({ Cookie: "a=b" }) }))).toBe(false);
  });

  it("never shares a page with scripts, whose bytes carry this request's nonce", () => {
    expect(isShareablePage(page({ scripts: true }))).toBe(false);
  });

  it("never shares an answer to a form, an error, or a page that sets a cookie", () => {
    expect(isShareablePage(page({ method: "POST" }))).toBe(false);
    expect(isShareablePage(page({ status: 404 }))).toBe(false);
    expect(isShareablePage(page({ status: 500 }))).toBe(false);
    expect(
      isShareablePage(page({ responseHeaders: new Headers({ "Set-Cookie": "flash=1" }) })),
    ).toBe(false);
  });

  it("keeps a page's own cache rule (personal data and token links say no-store)", () => {
    expect(
      isShareablePage(page({ responseHeaders: new Headers({ "Cache-Control": "no-store" }) })),
    ).toBe(false);
  });
});

describe("eventListCacheControl", () => {
  it("lets the list be kept for the whole seconds it is shared here, and no longer", () => {
    expect(eventListCacheControl(2000)).toBe("public, max-age=2");
    expect(eventListCacheControl(2999)).toBe("public, max-age=2");
    expect(eventListCacheControl(999)).toBe("no-cache");
    expect(eventListCacheControl(0)).toBe("no-cache");
  });
});
