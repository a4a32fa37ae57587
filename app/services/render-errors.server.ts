import { logError } from "./log.server";

type Report = (error: unknown, context: { route: string; code: string }) => string;

/**
 * Where the errors React reports while streaming a page go. An error in the shell rejects the
 * render, and React Router then logs it (`handleError`) and answers 500 with the error boundary.
 * Any other error is inside a Suspense boundary: React sends the boundary's fallback and the
 * browser renders that part again, so the page keeps its status, and the error is logged here with
 * an id and a code. React reports both kinds through `onError` before it knows which it was, so
 * errors seen before the shell settles wait until then.
 */
export function streamingErrorLog(route: string, report: Report = logError) {
  let pending: unknown[] = [];
  let shellSettled = false;
  const log = (error: unknown) => report(error, { route, code: "render_failed" });
  return {
    onError(error: unknown) {
      if (shellSettled) log(error);
      else pending.push(error);
    },
    /** The shell is out: what came before it was inside a boundary. */
    shellReady() {
      shellSettled = true;
      pending.forEach(log);
      pending = [];
    },
    /** The shell failed: React Router logs that error itself. */
    shellFailed() {
      shellSettled = true;
      pending = [];
    },
  };
}
