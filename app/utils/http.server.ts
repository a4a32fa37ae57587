import type { z } from "zod";

/** A JSON error answer, the same shape from every API endpoint. */
export function jsonError(status: number, error: string, details?: unknown) {
  return Response.json(details === undefined ? { error } : { error, details }, { status });
}

/**
 * Reads a JSON body of at most `maxBytes`, counting the bytes as they arrive so that an
 * over-long body is refused without being held in memory.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes)
    return { ok: false, response: jsonError(413, "Request body is too large") };
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) {
    return { ok: false, response: jsonError(415, "Send the body as application/json") };
  }
  if (!request.body) return { ok: false, response: jsonError(400, "The request has no body") };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { ok: false, response: jsonError(413, "Request body is too large") };
    }
    chunks.push(value);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { ok: false, response: jsonError(400, "The body is not valid JSON") };
  }
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
