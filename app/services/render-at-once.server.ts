import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";

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
