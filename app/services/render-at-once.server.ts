import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { EntryContext } from "react-router";

/** How React marks a part it left for the browser to render: it waited, or it failed. */
const LEFT_FOR_THE_BROWSER = "<!--$!";

/**
 * A page without scripts, rendered in one go. Its loaders have finished and nothing on it waits,
 * so React's string renderer gives the same document as its stream, for less CPU: no stream, and
 * no encoding of each small chunk. Should a part wait or fail, the string renderer would leave it
 * to the browser, which on such a page runs no script; then this gives `undefined`, and the page
 * is rendered as a stream, which waits for the part, logs its error and reports a failed shell.
 */
export function renderedAtOnce(page: ReactElement): string | undefined {
  let html: string;
  try {
    html = renderToString(page);
  } catch {
    return undefined;
  }
  if (html.includes(LEFT_FOR_THE_BROWSER)) return undefined;
  // The stream starts a whole document with its doctype; the string renderer does not.
  return html.startsWith("<html") ? `<!DOCTYPE html>${html}` : html;
}

/**
 * The router's context for rendering a page without scripts: the same, but its manifest lists only
 * the routes this page matched. React Router's `ServerRouter` turns every route in the manifest
 * into route objects on each render (71 here, about a tenth of an uncached page's CPU), yet a page
 * renders only its matches, and the rest of the manifest is only ever serialised for the scripts
 * such a page does not have. `ServerRouter` takes a reader of the hydration data's stream each time
 * it renders, which this page never reads, so it gets a stream of its own: the real one stays free
 * for a stream render, should this one not give the page.
 */
export function scriptFreeContext(context: EntryContext): EntryContext {
  const routes: EntryContext["manifest"]["routes"] = {};
  for (const { route } of context.staticHandlerContext.matches)
    routes[route.id] = context.manifest.routes[route.id];
  return {
    ...context,
    manifest: { ...context.manifest, routes },
    serverHandoffStream: new ReadableStream(),
  };
}
