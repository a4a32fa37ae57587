import { readdirSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";
import type { ServeStaticOptions } from "serve-static";

/**
 * `express.static` for a folder that does not change while the server runs (the built site's
 * `build/client`). `express.static` asks the disk about every request that reaches it, so every
 * page cost a failed lookup before React Router saw it. Here the folder is listed once, at start,
 * and only a request for something in it reaches `express.static`, which answers it exactly as
 * before (headers, ranges, conditional requests, a folder's redirect); anything else goes straight on.
 */
export function fixedFiles(root: string, options: ServeStaticOptions): RequestHandler {
  const serve = express.static(root, options);
  const listed = new Set<string>();
  const list = (folder: string, urlPath: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const child = `${urlPath}/${entry.name}`;
      listed.add(child);
      if (entry.isDirectory()) {
        listed.add(`${child}/`);
        list(path.join(folder, entry.name), child);
      }
    }
  };
  list(root, "");
  return (req, res, next) => (listed.has(fileOf(req.path)) ? serve(req, res, next) : next());
}

/** The path as `express.static` reads it: decoded, with "." and ".." resolved. */
function fileOf(urlPath: string): string {
  try {
    return path.posix.normalize(decodeURIComponent(urlPath));
  } catch {
    return "";
  }
}
