import { PassThrough } from "node:stream";
import { Suspense } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { streamingErrorLog } from "./render-errors.server";

function Broken(): never {
  throw new Error("broken part");
}

/** Streams a tree as entry.server.tsx does, and says what was logged and how the shell ended. */
function stream(tree: React.ReactNode) {
  const logged: { code: string; route: string; message: string }[] = [];
  const errors = streamingErrorLog("/somewhere", (error, context) => {
    logged.push({ ...context, message: (error as Error).message });
    return "id";
  });
  return new Promise<{ shell: "ready" | "failed"; logged: typeof logged }>((resolve) => {
    const { pipe } = renderToPipeableStream(tree, {
      onShellReady() {
        errors.shellReady();
        pipe(new PassThrough().resume());
      },
      onAllReady() {
        resolve({ shell: "ready", logged });
      },
      onShellError() {
        errors.shellFailed();
        resolve({ shell: "failed", logged });
      },
      onError: errors.onError,
    });
  });
}

describe("errors while streaming a page", () => {
  it("logs an error inside a Suspense boundary with the route and a code, although the shell is already under way (issue 14: /checkout was a silent 500)", async () => {
    const result = await stream(
      <main>
        <Suspense fallback={<p>Loading</p>}>
          <Broken />
        </Suspense>
      </main>,
    );
    expect(result).toEqual({
      shell: "ready",
      logged: [{ route: "/somewhere", code: "render_failed", message: "broken part" }],
    });
  });

  it("leaves an error in the shell to React Router, which logs it once itself", async () => {
    const result = await stream(
      <main>
        <Broken />
      </main>,
    );
    expect(result).toEqual({ shell: "failed", logged: [] });
  });
});
