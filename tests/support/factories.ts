import type { Db } from "#app/db/client.server";
import { event, screeningProduct } from "#app/db/schema";

type EventInsert = typeof event.$inferInsert;

export async function insertProduct(db: Db, pricePence = 2500) {
  const [product] = await db
    .insert(screeningProduct)
    .values({ name: "PSA Blood Test", pricePence })
    .returning();
  return product!;
}

/** An event with sensible defaults; tests override what they are about. */
export async function insertEvent(db: Db, productId: string, overrides: Partial<EventInsert> = {}) {
  const [row] = await db
    .insert(event)
    .values({
      name: "Test Screening",
      productId,
      eventDate: "2026-06-10",
      startTime: "10:00",
      endTime: "12:00",
      sessionDuration: 30,
      totalSpaces: 40,
      placesPerSlot: 2,
      category: "community",
      addressLine1: "1 Test Street",
      city: "Chelmsford",
      postcode: "CM1 1AA",
      latitude: 51.7356,
      longitude: 0.4685,
      ...overrides,
    })
    .returning();
  return row!;
}
