import { Writable } from "node:stream";
import { Suspense, use } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { EntryContext } from "react-router";
import { renderedAtOnce, scriptFreeContext } from "./render-at-once.server";

/** The document React's stream gives once everything is ready, as pages with scripts are sent. */
function streamed(tree: React.ReactElement) {
  return new Promise<string>((resolve, reject) => {
    let html = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, next) {
        html += chunk.toString();
        next();
      },
      final(next) {
        resolve(html);
        next();
      },
    });
    const { pipe } = renderToPipeableStream(tree, {
      onAllReady: () => pipe(sink),
      onShellError: reject,
    });
  });
}

function Broken(): never {
  throw new Error("broken part");
}

const never = new Promise<string>(() => {});
function Waiting() {
  return <p>{use(never)}</p>;
}

const page = (main: React.ReactNode) => (
  <html lang="en-GB">
    <head>
      <title>About us</title>
    </head>
    <body>
      <main>{main}</main>
      <Suspense>{null}</Suspense>
    </body>
  </html>
);

describe("a page rendered in one go", () => {
  it("is byte for byte the document React's stream sends, doctype included", async () => {
    const tree = page(
      <>
        <h1>Men&apos;s health &amp; you</h1>
        <p>
          {"Checks for men aged "}
          {40}–{80}
        </p>
      </>,
    );
    const expected = await streamed(tree);
    expect(expected.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(renderedAtOnce(tree)).toBe(expected);
  });

  it("leaves a part that fails inside a boundary to the stream, which logs it", () => {
    expect(
      renderedAtOnce(
        page(
          <Suspense fallback={<p>Loading</p>}>
            <Broken />
          </Suspense>,
        ),
      ),
    ).toBeUndefined();
  });

  it("leaves a part that waits to the stream, which waits for it", () => {
    expect(
      renderedAtOnce(
        page(
          <Suspense fallback={<p>Loading</p>}>
            <Waiting />
          </Suspense>,
        ),
      ),
    ).toBeUndefined();
  });

  it("leaves a failed shell to the stream, which reports it to React Router", () => {
    expect(renderedAtOnce(page(<Broken />))).toBeUndefined();
  });
});

describe("the router's context for a page without scripts", () => {
  const manifestRoute = (id: string, parentId?: string) => ({ id, parentId, module: `/${id}.js` });
  const routes = {
    root: manifestRoute("root"),
    account: manifestRoute("account", "root"),
    "my-data": manifestRoute("my-data", "account"),
    "my-bookings": manifestRoute("my-bookings", "account"),
    news: manifestRoute("news", "root"),
  };
  const handoff = new ReadableStream();
  const context = {
    manifest: { version: "1", url: "/manifest.js", routes },
    routeModules: { root: {}, account: {}, "my-data": {}, "my-bookings": {}, news: {} },
    staticHandlerContext: {
      matches: ["root", "account", "my-data"].map((id) => ({ route: { id } })),
    },
    serverHandoffStream: handoff,
  } as unknown as EntryContext;

  it("lists only the routes the page matched, outermost first", () => {
    const trimmed = scriptFreeContext(context);
    expect(trimmed.manifest.routes).toEqual({
      root: routes.root,
      account: routes.account,
      "my-data": routes["my-data"],
    });
    expect(trimmed.manifest.version).toBe("1");
    expect(trimmed.routeModules).toBe(context.routeModules);
  });

  it("leaves the router's own context and its hydration stream as they were", () => {
    const trimmed = scriptFreeContext(context);
    expect(Object.keys(context.manifest.routes)).toHaveLength(5);
    expect(trimmed.serverHandoffStream).not.toBe(handoff);
    expect(handoff.locked).toBe(false);
  });
});
