// No imports: the event cards and pages use this in the browser, without the date libraries.

/** Money is held in pence and shown as pounds with two decimals. */
export function formatPounds(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}

/** What a visitor pays for an event: the price in pence, and whether payment is asked for at all. */
export interface EventPricing {
  price: number;
  /** true: paid online; false: free to the visitor; null: not recorded, treated as free. */
  payment_required: boolean | null;
}

/**
 * A visitor pays only when the event asks for payment and its price is above zero. An event whose
 * payment is not required (false or unknown) is free to the visitor, whatever price it carries:
 * that price is what the host pays, not the visitor.
 */
export function isPaidEvent({ price, payment_required }: EventPricing): boolean {
  return payment_required === true && Number.isFinite(price) && price > 0;
}

/**
 * What booking an event costs him: its own price, else its product's, charged only when the event
 * takes payment (`isPaidEvent`). The one rule for a hold, a move and a waiting-list offer.
 */
export function bookingCharge(
  event: { pricePence: number | null; paymentRequired: boolean | null },
  productPricePence: number | null | undefined,
): { paid: boolean; pricePence: number } {
  const price = event.pricePence ?? productPricePence ?? 0;
  const paid = isPaidEvent({ price, payment_required: event.paymentRequired });
  return { paid, pricePence: paid ? price : 0 };
}

/** "£25.00" for a paid event, otherwise "Free". */
export function priceLabel(pricing: EventPricing): string {
  return isPaidEvent(pricing) ? formatPounds(pricing.price) : "Free";
}
