import { jsonError } from "#app/utils/http.server";

/** Any /api address no endpoint claims: 404 in JSON, whatever the method, as docs/API.md promises. */
const notFound = () => jsonError(404, "Not found");

export const loader = notFound;
export const action = notFound;
