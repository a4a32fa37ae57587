import { formatPounds, isPaidEvent } from "#app/domain/pricing";

/**
 * "Your Order": what is being booked and what it costs. Prices are pence; a visitor who will not
 * pay sees "Free". The booking pages show a subtotal and a total (there is no discount, so they are
 * the same); the checkout shows one "Order Total", as the spec words each panel.
 */
export function OrderSummary({
  eventName,
  productName,
  description,
  price,
  paymentRequired,
  headingLevel = 2,
  totals = "subtotal-and-total",
}: {
  eventName: string;
  productName: string;
  description?: string | null;
  price: number;
  paymentRequired: boolean | null;
  headingLevel?: 2 | 3;
  totals?: "subtotal-and-total" | "order-total";
}) {
  const Heading = `h${headingLevel}` as const;
  const paid = isPaidEvent({ price, payment_required: paymentRequired });
  const amount = paid ? formatPounds(price) : "Free";
  return (
    <section className="card order-summary" aria-labelledby="order-summary-title">
      <Heading className="card__title" id="order-summary-title">
        Your Order
      </Heading>
      <p className="order-summary__product">{productName}</p>
      <p>{eventName}</p>
      {description && <p className="hint">{description}</p>}
      <dl className="order-summary__lines">
        <div>
          <dt>{productName}</dt>
          <dd>{amount}</dd>
        </div>
        {totals === "subtotal-and-total" && (
          <div>
            <dt>Subtotal</dt>
            <dd>{amount}</dd>
          </div>
        )}
        <div className="order-summary__total">
          <dt>{totals === "order-total" ? "Order Total" : "Total"}</dt>
          <dd>{amount}</dd>
        </div>
      </dl>
    </section>
  );
}
