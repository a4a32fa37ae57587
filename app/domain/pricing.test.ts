import { describe, expect, it } from "vitest";
import { bookingCharge, isPaidEvent, priceLabel } from "./pricing";

describe("what a visitor pays", () => {
  it("shows the price when payment is required and the price is above zero", () => {
    expect(isPaidEvent({ price: 2500, payment_required: true })).toBe(true);
    expect(priceLabel({ price: 2500, payment_required: true })).toBe("£25.00");
    expect(priceLabel({ price: 4000, payment_required: true })).toBe("£40.00");
    expect(priceLabel({ price: 1999, payment_required: true })).toBe("£19.99");
    expect(priceLabel({ price: 5, payment_required: true })).toBe("£0.05");
  });

  it("says Free when payment is not required, whatever the price", () => {
    // Orwell Logistics Staff Screening: a £40.00 product, paid for by the employer.
    expect(isPaidEvent({ price: 4000, payment_required: false })).toBe(false);
    expect(priceLabel({ price: 4000, payment_required: false })).toBe("Free");
  });

  it("says Free when it is not known whether payment is required", () => {
    expect(isPaidEvent({ price: 2500, payment_required: null })).toBe(false);
    expect(priceLabel({ price: 2500, payment_required: null })).toBe("Free");
  });

  it("says Free when the price is zero, even if payment is marked as required", () => {
    expect(isPaidEvent({ price: 0, payment_required: true })).toBe(false);
    expect(priceLabel({ price: 0, payment_required: true })).toBe("Free");
    expect(priceLabel({ price: 0, payment_required: false })).toBe("Free");
    expect(priceLabel({ price: 0, payment_required: null })).toBe("Free");
  });

  it("never shows a negative or broken price", () => {
    expect(priceLabel({ price: -100, payment_required: true })).toBe("Free");
    expect(priceLabel({ price: Number.NaN, payment_required: true })).toBe("Free");
  });
});

describe("what booking an event costs", () => {
  it("is the event's price, else its product's, and nothing when it takes no payment", () => {
    expect(bookingCharge({ pricePence: 3750, paymentRequired: true }, 2500)).toEqual({
      paid: true,
      pricePence: 3750,
    });
    expect(bookingCharge({ pricePence: null, paymentRequired: true }, 2500)).toEqual({
      paid: true,
      pricePence: 2500,
    });
    for (const paymentRequired of [false, null])
      expect(bookingCharge({ pricePence: 3750, paymentRequired }, 2500)).toEqual({
        paid: false,
        pricePence: 0,
      });
    expect(bookingCharge({ pricePence: 0, paymentRequired: true }, 2500)).toEqual({
      paid: false,
      pricePence: 0,
    });
    expect(bookingCharge({ pricePence: null, paymentRequired: true }, undefined)).toEqual({
      paid: false,
      pricePence: 0,
    });
  });
});
