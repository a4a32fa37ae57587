import { data } from "react-router";
import type { z } from "zod";
import { noteDatabaseError } from "#app/db/health.server";
import { hasControlCharacters } from "#app/domain/fields";
import { logError, routeOf } from "#app/services/log.server";

/**
 * The header Express fills with the one client address it trusts (the socket's, or the proxy's
 * when TRUST_PROXY is set), replacing any value the client sent. Everything that limits by
 * address reads this, better-auth included.
 */
export const CLIENT_ADDRESS_HEADER = "x-mhat-client-address";

/** The largest form body any page accepts. Express refuses a larger declared length first. */
export const FORM_BODY_LIMIT_BYTES = 100 * 1024;

export const BODY_MESSAGES = {
  tooLarge: "Request body is too large",
  formType: "Send the form as application/x-www-form-urlencoded or multipart/form-data",
  jsonType: "Send the body as application/json",
  unreadable: "The form could not be read",
  noBody: "The request has no body",
  badJson: "The body is not valid JSON",
  controlCharacters: "The body contains control characters",
} as const;

/** A refused body is read and dropped up to this size, then the connection is closed instead. */
const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads and drops the rest of a refused body in the background, so that a client still uploading
 * gets to read the 413 (closing the connection under an upload can reset it before the answer is
 * read). Past DISCARD_LIMIT_BYTES the body is cancelled, which closes the connection. Nothing is
 * kept, so memory stays flat.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>) {
  void (async () => {
    let dropped = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        dropped += value.byteLength;
        if (dropped > DISCARD_LIMIT_BYTES) {
          await reader.cancel();
          return;
        }
      }
    } catch {
      // The client went away: nothing left to drop.
    }
  })();
}

/** A JSON error answer, the same shape from every API endpoint. */
export function jsonError(
  status: number,
  error: string,
  details?: unknown,
  headers?: Record<string, string>,
) {
  return Response.json(details === undefined ? { error } : { error, details }, {
    status,
    headers,
  });
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\b|^multipart\/form-data\b.*;\s*boundary=/i;

export function isFormContentType(type: string | null): boolean {
  return FORM_TYPE.test(type ?? "");
}

export function isJsonContentType(type: string | null): boolean {
  return /^application\/json\b/i.test(type ?? "");
}

/**
 * Reads at most `maxBytes` of a body, counting as it arrives, so a body sent without a length
 * (chunked) is refused as soon as it passes the limit, without being held in memory.
 */
async function readLimited(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | "too-large"> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    if (request.body) discardRest(request.body.getReader());
    return "too-large";
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Nothing more is kept; the rest is read and dropped while the 413 is sent.
      discardRest(reader);
      return "too-large";
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A page action's form, read safely: the wrong content type is a 415, an oversized body a 413,
 * and a body that cannot be parsed a 400, each thrown as a response, never a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type");
  if (!isFormContentType(type)) throw data({ error: BODY_MESSAGES.formType }, { status: 415 });
  const body = await readLimited(request, FORM_BODY_LIMIT_BYTES);
  if (body === "too-large") throw data({ error: BODY_MESSAGES.tooLarge }, { status: 413 });
  try {
    return await new Response(body, { headers: { "content-type": type! } }).formData();
  } catch {
    throw data({ error: BODY_MESSAGES.unreadable }, { status: 400 });
  }
}

function containsControlCharacters(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return hasControlCharacters(value);
  if (depth > 10 || value === null || typeof value !== "object") return false;
  return Object.entries(value).some(
    ([key, item]) => hasControlCharacters(key) || containsControlCharacters(item, depth + 1),
  );
}

/**
 * Reads a JSON body of at most `maxBytes`. Control characters in any string are refused: nobody
 * types them, and Postgres refuses NUL.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  if (!isJsonContentType(request.headers.get("content-type")))
    return { ok: false, response: jsonError(415, BODY_MESSAGES.jsonType) };
  if (!request.body) return { ok: false, response: jsonError(400, BODY_MESSAGES.noBody) };
  const body = await readLimited(request, maxBytes);
  if (body === "too-large")
    return {
      ok: false,
      response: Response.json({ error: BODY_MESSAGES.tooLarge }, { status: 413 }),
    };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch {
    return { ok: false, response: jsonError(400, BODY_MESSAGES.badJson) };
  }
  if (containsControlCharacters(value))
    return { ok: false, response: jsonError(400, BODY_MESSAGES.controlCharacters) };
  return { ok: true, value };
}

/** Reads and validates a JSON body, answering 4xx with the first problem found. */
export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes = 16 * 1024,
): Promise<{ ok: true; data: z.output<S> } | { ok: false; response: Response }> {
  const body = await readJsonBody(request, maxBytes);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) {
    const fields = Object.fromEntries(
      parsed.error.issues.map((issue) => [issue.path.join(".") || "body", issue.message]),
    );
    return { ok: false, response: jsonError(400, parsed.error.issues[0]!.message, { fields }) };
  }
  return { ok: true, data: parsed.data };
}

export function methodNotAllowed(allowed: string) {
  return new Response(JSON.stringify({ error: "Method not allowed" }), {
    status: 405,
    headers: { Allow: allowed, "Content-Type": "application/json" },
  });
}

/**
 * Wraps an API loader or action so that whatever goes wrong is answered in JSON: 503 while the
 * database is unreachable, 500 with an error reference otherwise. Thrown responses pass through.
 */
export function jsonEndpoint<Args extends { request: Request }>(
  handler: (args: Args) => Promise<Response> | Response,
): (args: Args) => Promise<Response> {
  return async (args) => {
    try {
      return await handler(args);
    } catch (error) {
      if (error instanceof Response) return error;
      if (noteDatabaseError(error))
        return jsonError(503, "The service is temporarily unavailable. Please try again shortly.");
      const errorId = logError(error, { route: routeOf(args.request), code: "api_failed" });
      return jsonError(500, "Something went wrong on our side.", { errorId });
    }
  };
}
