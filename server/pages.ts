import { createRequestHandler, type GetLoadContextFunction } from "@react-router/express";
import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";

/**
 * React Router's handler for pages and the API.
 *
 * React Router derives its route table (a static handler, and a RegExp for each route) from the
 * build it is given: once when it is given the build itself, but again on every request when it is
 * given a function, which it calls each time. Only Vite's dev server needs that, because route
 * modules change under it. In production the build is loaded on the first request, as before, and
 * React Router is given the module itself, once.
 */
export function pageHandler(
  loadBuild: () => Promise<ServerBuild>,
  options: { development: boolean; getLoadContext: GetLoadContextFunction },
): RequestHandler {
  const { getLoadContext } = options;
  if (options.development) return createRequestHandler({ build: loadBuild, getLoadContext });

  let handler: Promise<RequestHandler> | undefined;
  return (req, res, next) => {
    handler ??= loadBuild().then((build) => createRequestHandler({ build, getLoadContext }));
    handler.then((handle) => handle(req, res, next), next);
  };
}
