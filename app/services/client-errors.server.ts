import type { Db } from "#app/db/client.server";
import { clientError } from "#app/db/schema";

export interface ClientErrorReport {
  errorMessage: string;
  description?: string;
  page?: string;
  userAgent?: string;
}

export async function recordClientError(db: Db, report: ClientErrorReport) {
  await db.insert(clientError).values(report);
}
