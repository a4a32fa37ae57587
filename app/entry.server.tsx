import { Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type {
  ActionFunctionArgs,
  AppLoadContext,
  EntryContext,
  LoaderFunctionArgs,
} from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { NonceProvider } from "./components/nonce";
import { noteDatabaseError } from "./db/health.server";
import { logError, routeOf } from "./services/log.server";
import { renderedAtOnce, scriptFreeContext } from "./services/render-at-once.server";
import { streamingErrorLog } from "./services/render-errors.server";
import { config } from "./config.server";
import { isShareablePage, sharedPageHeaders } from "./utils/headers";
import { pageNeedsScripts } from "./utils/page-scripts";
import { lowPriorityScriptPreloads } from "./utils/script-priority.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { matches } = routerContext.staticHandlerContext;
  const scripts = pageNeedsScripts(
    matches.map((match) => routerContext.routeModules[match.route.id]?.handle),
  );
  // A page without scripts carries no nonce, so its bytes are the same for every visitor. Vite's dev
  // server allows inline scripts instead (server/security.ts), and a nonce there stays in the page
  // where the client, which cannot know it, renders "": a hydration warning on every page.
  const nonce = import.meta.env.DEV || !scripts ? "" : loadContext.cspNonce;
  const { PAGE_CACHE_SECONDS } = config();
  const shareable =
    PAGE_CACHE_SECONDS > 0 &&
    isShareablePage({
      method: request.method,
      requestHeaders: request.headers,
      status: responseStatusCode,
      responseHeaders,
      scripts,
    });
  if (shareable)
    for (const [name, value] of Object.entries(sharedPageHeaders(PAGE_CACHE_SECONDS)))
      responseHeaders.set(name, value);
  const page = (context: EntryContext) => (
    <NonceProvider value={nonce}>
      <ServerRouter context={context} url={request.url} nonce={nonce} />
    </NonceProvider>
  );
  const answer = (body: BodyInit) => {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    // A page answers 405 to a post when it has no form (other methods stop earlier, in
    // server/security.ts); it still serves GET and HEAD.
    if (responseStatusCode === 405) responseHeaders.set("Allow", "GET, HEAD");
    return new Response(body, { headers: responseHeaders, status: responseStatusCode });
  };
  const whole = scripts ? undefined : renderedAtOnce(page(scriptFreeContext(routerContext)));
  if (whole !== undefined) return answer(whole);

  return new Promise<Response>((resolve, reject) => {
    const renderErrors = streamingErrorLog(routeOf(request));
    const userAgent = request.headers.get("user-agent");
    // Crawlers, SPA-mode builds and pages without scripts get the whole document at once: streaming
    // the rest of a page after its shell needs inline scripts to put it in place.
    const readyOption =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode || !scripts
        ? "onAllReady"
        : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(page(routerContext), {
      nonce: nonce || undefined,
      [readyOption]() {
        renderErrors.shellReady();
        if (readyOption === "onAllReady") {
          // All of it is ready: sent as one piece, not as a stream of React's small chunks.
          pipe(wholeDocument((document) => (stopAbortTimer(), resolve(answer(document)))));
          return;
        }
        const body = lowPriorityScriptPreloads();
        // Rendered to the end ("finish"), or the visitor went away ("close"): nothing to abort.
        body.once("finish", stopAbortTimer).once("close", stopAbortTimer);
        resolve(answer(createReadableStreamFromReadable(body)));
        pipe(body);
      },
      onShellError(error: unknown) {
        stopAbortTimer();
        renderErrors.shellFailed();
        reject(error);
      },
      onError: renderErrors.onError,
    });
    // Stops a render that is still streaming after the loaders' own timeout. The timer is cleared
    // as soon as the stream ends or fails: left to run, it would keep each request's render (its
    // React tree, loader data and route matches) in memory for six seconds after the answer.
    const abortTimer = setTimeout(abort, streamTimeout + 1000);
    function stopAbortTimer() {
      clearTimeout(abortTimer);
    }
  });
}

/** Collects what React writes and hands it over whole when React ends it. */
function wholeDocument(done: (document: Uint8Array<ArrayBuffer>) => void) {
  const chunks: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, next) {
      chunks.push(chunk);
      next();
    },
    final(next) {
      done(Buffer.concat(chunks));
      next();
    },
  });
}

/**
 * Every error a loader, action or render throws comes here. It is logged with an id, the route
 * and a code, never with the request's values; an outage of the database is logged once by the
 * health watch instead, and turns the answer into a 503 (server/security.ts).
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  // No such page, or a post to a page without a form (404, 405): the client's mistake, not ours.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (noteDatabaseError(error)) return;
  logError(error, { route: routeOf(request), method: request.method, code: "request_failed" });
}
