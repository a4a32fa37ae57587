/**
 * Pages are HTML first: a page ships no JavaScript unless one of its routes says it needs some,
 * in its `handle` (the map, PayPal's buttons). Everything else works as plain HTML and forms.
 */
export interface PageHandle {
  /** This route cannot do its job without scripts. */
  scripts?: true;
}

/** For a route module: `export const handle = NEEDS_SCRIPTS;` */
export const NEEDS_SCRIPTS: PageHandle = { scripts: true };

/** Whether the page made of these routes (their `handle`s, outermost first) loads scripts. */
export function pageNeedsScripts(handles: readonly unknown[]): boolean {
  return handles.some(
    (handle) =>
      typeof handle === "object" && handle !== null && (handle as PageHandle).scripts === true,
  );
}
