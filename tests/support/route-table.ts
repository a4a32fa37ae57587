import { readFileSync } from "node:fs";

export interface RouteEntry {
  /** The URL pattern, such as "/event/:eventId". */
  path: string;
  module: string;
  hasLoader: boolean;
  hasAction: boolean;
}

/** Folders whose routes sit under a prefix in app/routes.ts. */
const PREFIXED_FOLDERS = ["api", "admin"] as const;

/**
 * The route table, read from app/routes.ts as text (the file imports React Router's build-time
 * helpers). Routes in routes/api/ and routes/admin/ sit under those prefixes.
 */
export function routeTable(): RouteEntry[] {
  const source = readFileSync("app/routes.ts", "utf8");
  const entries: RouteEntry[] = [];
  for (const match of source.matchAll(
    /\b(route|index)\(\s*(?:"([^"]*)"\s*,\s*)?"(routes\/[^"]+)"/g,
  )) {
    const [, kind, relative, module] = match;
    if (kind === "route" && relative === undefined) continue; // a computed path
    const folder = PREFIXED_FOLDERS.find((name) => module!.startsWith(`routes/${name}/`));
    const written = relative ?? "";
    const path =
      folder && written !== folder && !written.startsWith(`${folder}/`)
        ? `${folder}/${written}`
        : written;
    let code = "";
    try {
      code = readFileSync(`app/${module}`, "utf8");
    } catch {
      // a module being moved
    }
    entries.push({
      path: `/${path}`.replace(/\/$/, "") || "/",
      module: module!,
      hasLoader: /export\s+(?:async\s+)?function\s+loader\b|export\s+const\s+loader\b/.test(code),
      hasAction: /export\s+(?:async\s+)?function\s+action\b|export\s+const\s+action\b/.test(code),
    });
  }
  return entries;
}
