import { isRouteErrorResponse } from "react-router";

/** What a 500 carries when the error behind it was logged with an id (D-191). */
export interface ErrorReference {
  errorId: string;
}

/** The logged error's id a 500 carries, for the error page to show; null for any other error. */
export function errorReferenceOf(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || error.status !== 500) return null;
  const found: unknown = (error.data as Partial<ErrorReference> | null)?.errorId;
  return typeof found === "string" && /^[0-9a-f]{10}$/.test(found) ? found : null;
}
