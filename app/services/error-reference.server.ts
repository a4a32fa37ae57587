import { data } from "react-router";
import { isDatabaseUnavailableError } from "#app/db/health.server";
import type { ErrorReference } from "#app/utils/error-reference";
import { NO_STORE } from "#app/utils/headers";
import { logError, routeOf } from "./log.server";

/**
 * What a loader or action throws in place of an unexpected error: a 500 that carries the id the
 * error was logged with, so that the error page can show it and a report can be matched to the
 * log (D-191). What is thrown on purpose (a response, `data()`, a redirect), an error of a request
 * the browser has left, and a database outage (which the server answers 503) pass as they were.
 */
export function withErrorReference(error: unknown, request: Request): unknown {
  if (!(error instanceof Error) || request.signal.aborted || isDatabaseUnavailableError(error))
    return error;
  const errorId = logError(error, {
    route: routeOf(request),
    method: request.method,
    code: "request_failed",
  });
  return data<ErrorReference>({ errorId }, { status: 500, headers: NO_STORE });
}
