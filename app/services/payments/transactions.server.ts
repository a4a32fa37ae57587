import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { paymentTransaction } from "#app/db/schema";
import type { PayPalError } from "./paypal.server";

/**
 * The payment record: every PayPal answer the site acts on (an order made, a capture, a refund,
 * a refusal) is kept in `payment_transaction`, so what happened to money can always be read back.
 */

export async function recordTransaction(
  db: Db,
  values: Omit<typeof paymentTransaction.$inferInsert, "id" | "createdAt"> & { createdAt: Date },
) {
  await db
    .insert(paymentTransaction)
    .values(values)
    .onConflictDoNothing({
      target: paymentTransaction.captureId,
      where: sql`${paymentTransaction.kind} = 'capture'`,
    });
}

export function errorRecord(error: PayPalError) {
  return {
    status: error.name,
    issue: error.issue ?? null,
    debugId: error.debugId ?? null,
    raw: {
      name: error.name,
      status: error.status,
      issue: error.issue,
      description: error.description,
      debug_id: error.debugId,
    },
  };
}
