import { z } from "zod";
import type { Route } from "./+types/logs.error";
import { db } from "#app/db/client.server";
import { singleLine } from "#app/domain/fields";
import { recordClientError } from "#app/services/client-errors.server";
import { methodNotAllowed, parseJsonBody, jsonEndpoint } from "#app/utils/http.server";

/** Bodies larger than this are refused with 413 before they are read in full. */
const MAX_REPORT_BYTES = 8 * 1024;

const reportSchema = z.object({
  errorMessage: z
    .string({ error: "errorMessage is required" })
    .trim()
    .min(1, { error: "errorMessage is required" })
    .max(1000),
  description: z.string().max(4000).optional(),
  // A browser's error message and description may run over several lines; a page address is one.
  page: singleLine().max(300).optional(),
});

/** POST /api/logs/error: browsers report errors here; stored for staff, never echoed back. */
export const action = jsonEndpoint(async ({ request }: Route.ActionArgs) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const parsed = await parseJsonBody(request, reportSchema, MAX_REPORT_BYTES);
  if (!parsed.ok) return parsed.response;
  await recordClientError(db(), {
    ...parsed.data,
    userAgent: request.headers.get("user-agent")?.slice(0, 300),
  });
  return new Response(null, { status: 204 });
});

export function loader() {
  return methodNotAllowed("POST");
}
