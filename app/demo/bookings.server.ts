import { eq, inArray } from "drizzle-orm";
import type { Db } from "#app/db/client.server";
import { event, screeningProduct } from "#app/db/schema";
import { isPaidEvent } from "#app/domain/pricing";

/** Demo events by name, each with what a place there costs and whether anyone pays. */
export async function demoEventsNamed(tx: Db, names: readonly string[]) {
  const rows = await tx
    .select({ event, productPrice: screeningProduct.pricePence })
    .from(event)
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .where(inArray(event.name, [...names]));
  return rows.map(({ event: row, productPrice }) => {
    const price = row.pricePence ?? productPrice;
    return {
      event: row,
      price,
      paid: isPaidEvent({ price, payment_required: row.paymentRequired }),
    };
  });
}

/**
 * A demo booking's payment columns: paid through the simulated provider where the event is paid
 * (so that cancelling it in the demo refunds it there), free otherwise.
 */
export function demoPayment({ paid, price }: { paid: boolean; price: number }) {
  return {
    pricePence: paid ? price : 0,
    paymentRequired: paid,
    paymentStatus: paid ? ("paid" as const) : ("not_required" as const),
    paymentProvider: paid ? "simulated" : null,
  };
}
