import { describe, expect, it } from "vitest";
import { bookingJourneyPath, bookingPageFor } from "./booking-paths";

const booking = (status: string, holdActive = true, paymentStatus = "unpaid") => ({
  status,
  holdActive,
  paymentStatus,
});

describe("bookingPageFor", () => {
  it("sends a confirmed booking to its success page from anywhere", () => {
    expect(bookingPageFor(booking("confirmed", false), "consent")).toBe("success");
    expect(bookingPageFor(booking("confirmed", false), "checkout")).toBe("success");
  });

  it("sends a consented booking still held from consent on to checkout", () => {
    expect(bookingPageFor(booking("awaiting_payment"), "consent")).toBe("checkout");
    // Its hold ended: the consent page says so, and consenting again may bring it back.
    expect(bookingPageFor(booking("awaiting_payment", false), "consent")).toBe("consent");
  });

  it("sends a booking not yet consented to from checkout back to consent", () => {
    expect(bookingPageFor(booking("held"), "checkout")).toBe("consent");
    expect(bookingPageFor(booking("awaiting_payment", false), "checkout")).toBe("checkout");
  });

  it("sends a payment PayPal is still checking to the success page, which says so", () => {
    expect(bookingPageFor(booking("awaiting_payment", true, "pending"), "checkout")).toBe(
      "success",
    );
    expect(bookingPageFor(booking("awaiting_payment", true, "pending"), "consent")).toBe("success");
  });

  it("sends a cancelled booking to the consent page, which says it has been cancelled", () => {
    expect(bookingPageFor(booking("cancelled", false, "not_required"), "checkout")).toBe("consent");
    expect(bookingPageFor(booking("cancelled", false, "refunded"), "consent")).toBe("consent");
  });

  it("builds the page's address from the reference", () => {
    expect(bookingJourneyPath("checkout", "MHAT-7KQ3-9XZ2")).toBe(
      "/checkout?booking=MHAT-7KQ3-9XZ2",
    );
  });
});
