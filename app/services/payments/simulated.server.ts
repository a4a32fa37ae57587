import crypto from "node:crypto";
import { config } from "#app/config.server";
import {
  PayPalError,
  type PayPalCapture,
  type PayPalOrder,
  type PayPalOrderStatus,
  type PayPalRefund,
} from "./paypal.server";
import type { PaymentProvider } from "./provider.server";

/**
 * The simulated provider for demo and development, which takes no money. Its approval page is our
 * own `/checkout/simulated?order=…`, clearly labelled "Test payment — no money is taken". It is
 * refused in production.
 */

/** The page that stands in for PayPal's approval page when payments are simulated. */
export const SIMULATED_CHECKOUT_PATH = "/checkout/simulated";

/** What the test payer does on the simulated approval page (the same choices as the tests' fake PayPal). */
export type SimulatedDecision =
  /** approve; the capture completes */
  | "approve"
  /** approve; the capture is declined with INSTRUMENT_DECLINED (recoverable: try again) */
  | "decline"
  /** approve; the capture is refused with TRANSACTION_REFUSED (non-recoverable) */
  | "refuse"
  /** approve; the capture is held for review (PENDING) */
  | "pending"
  /** cancel: back to the shop's cancel address, nothing approved */
  | "cancel";

interface SimulatedOrder {
  id: string;
  status: PayPalOrderStatus;
  referenceId: string;
  description: string;
  amountPence: number;
  returnUrl: string;
  cancelUrl: string;
  decision?: SimulatedDecision;
  capture?: PayPalCapture;
}

export interface SimulatedProvider extends PaymentProvider {
  readonly name: "simulated";
  /**
   * The test payer's choice on the simulated page. Returns where the browser goes next, as PayPal
   * would send it: the order's return address (`?token={order}&PayerID=…`) or, for "cancel", its
   * cancel address (`?token={order}`). Null when there is no such order (or it is already paid).
   */
  decide(orderId: string, decision: SimulatedDecision): string | null;
  /** What the simulated page shows: amount, description, status. Null for an unknown order. */
  describe(
    orderId: string,
  ): { id: string; amountPence: number; description: string; status: PayPalOrderStatus } | null;
}

const ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
function simulatedId(prefix: string): string {
  return `${prefix}${[...crypto.randomBytes(14)].map((byte) => ID_ALPHABET[byte % 32]).join("")}`;
}

function simulatedError(status: number, name: string, issue: string, description: string) {
  return new PayPalError({
    status,
    name,
    issue,
    description,
    debugId: simulatedId("SIMDEBUG"),
  });
}

/**
 * A payment provider that behaves like PayPal's Orders v2 (approval, idempotent create and
 * capture by request id, declines, pending captures, ORDER_ALREADY_CAPTURED) and takes no money.
 * Orders live in this process's memory: after a restart an unpaid simulated order is unknown, and
 * its hold simply runs out.
 */
export function createSimulatedProvider(
  options: { isProduction?: boolean } = {},
): SimulatedProvider {
  if (options.isProduction ?? config().isProduction) {
    throw new Error(
      "The simulated payment provider is refused in production: set PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET.",
    );
  }
  const orders = new Map<string, SimulatedOrder>();
  const createdByRequest = new Map<string, string>();
  const capturedByRequest = new Map<string, string>();
  const refundedByRequest = new Map<string, PayPalRefund>();

  const toOrder = (order: SimulatedOrder): PayPalOrder => ({
    id: order.id,
    status: order.status,
    links:
      order.status === "PAYER_ACTION_REQUIRED"
        ? [
            {
              href: `${SIMULATED_CHECKOUT_PATH}?order=${encodeURIComponent(order.id)}`,
              rel: "payer-action",
              method: "GET",
            },
          ]
        : [],
    referenceId: order.referenceId,
    amountPence: order.amountPence,
    ...(order.capture ? { capture: { ...order.capture } } : {}),
  });

  function find(orderId: string): SimulatedOrder {
    const order = orders.get(orderId);
    if (!order) {
      throw simulatedError(
        404,
        "RESOURCE_NOT_FOUND",
        "INVALID_RESOURCE_ID",
        "Specified resource ID does not exist. Please check the resource ID and try again.",
      );
    }
    return order;
  }

  function withQuery(address: string, query: Record<string, string>): string {
    const base = new URL(address, "http://simulated.invalid");
    for (const [key, value] of Object.entries(query)) base.searchParams.set(key, value);
    return base.origin === "http://simulated.invalid"
      ? `${base.pathname}${base.search}`
      : base.toString();
  }

  return {
    name: "simulated",

    async createOrder(input) {
      if (!Number.isSafeInteger(input.amountPence) || input.amountPence <= 0) {
        throw new RangeError("An order needs a positive amount in pence");
      }
      const earlier = createdByRequest.get(input.requestId);
      if (earlier) return toOrder(find(earlier));
      const order: SimulatedOrder = {
        id: simulatedId("SIM"),
        status: "PAYER_ACTION_REQUIRED",
        referenceId: input.referenceId,
        description: [...input.description].slice(0, 127).join(""),
        amountPence: input.amountPence,
        returnUrl: input.returnUrl,
        cancelUrl: input.cancelUrl,
      };
      orders.set(order.id, order);
      createdByRequest.set(input.requestId, order.id);
      return toOrder(order);
    },

    async captureOrder(orderId, { requestId }) {
      const replay = capturedByRequest.get(requestId);
      if (replay === orderId) return toOrder(find(orderId));
      const order = find(orderId);
      if (order.status === "COMPLETED") {
        throw simulatedError(
          422,
          "UNPROCESSABLE_ENTITY",
          "ORDER_ALREADY_CAPTURED",
          "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
        );
      }
      if (order.status !== "APPROVED") {
        throw simulatedError(
          422,
          "UNPROCESSABLE_ENTITY",
          "ORDER_NOT_APPROVED",
          "Payer has not yet approved the Order for payment.",
        );
      }
      if (order.decision === "decline") {
        order.status = "PAYER_ACTION_REQUIRED";
        order.decision = undefined;
        throw simulatedError(
          422,
          "UNPROCESSABLE_ENTITY",
          "INSTRUMENT_DECLINED",
          "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
        );
      }
      if (order.decision === "refuse") {
        throw simulatedError(
          422,
          "UNPROCESSABLE_ENTITY",
          "TRANSACTION_REFUSED",
          "The request was refused.",
        );
      }
      const pending = order.decision === "pending";
      order.capture = {
        id: simulatedId("SIMCAP"),
        status: pending ? "PENDING" : "COMPLETED",
        ...(pending ? { statusReason: "PENDING_REVIEW" } : {}),
        amountPence: order.amountPence,
        currency: "GBP",
      };
      order.status = "COMPLETED";
      capturedByRequest.set(requestId, orderId);
      return toOrder(order);
    },

    async getOrder(orderId) {
      return toOrder(find(orderId));
    },

    /**
     * Like PayPal's: the same request id answers the first refund again, and a capture refunded
     * in full cannot be refunded twice. A capture it does not hold (made before a restart, or a
     * seeded demo booking, since orders live in memory) is refunded as asked: no money was taken.
     */
    async refundCapture(captureId, { requestId, amountPence }): Promise<PayPalRefund> {
      const replay = refundedByRequest.get(requestId);
      if (replay) return { ...replay };
      const order = [...orders.values()].find((candidate) => candidate.capture?.id === captureId);
      const capture = order?.capture;
      if (capture?.status === "REFUNDED") {
        throw simulatedError(
          422,
          "UNPROCESSABLE_ENTITY",
          "CAPTURE_FULLY_REFUNDED",
          "The capture has already been fully refunded",
        );
      }
      if (capture?.status === "PENDING") {
        throw simulatedError(
          422,
          "UNPROCESSABLE_ENTITY",
          "PENDING_CAPTURE",
          "Cannot initiate a refund as the capture is pending.",
        );
      }
      const amount = amountPence ?? capture?.amountPence ?? 0;
      if (capture) {
        capture.status = amount >= capture.amountPence ? "REFUNDED" : "PARTIALLY_REFUNDED";
      }
      const refund: PayPalRefund = {
        id: simulatedId("SIMREF"),
        status: "COMPLETED",
        amountPence: amount,
        currency: "GBP",
      };
      refundedByRequest.set(requestId, refund);
      return { ...refund };
    },

    /** Its refunds are made at once (COMPLETED); one it does not hold is not found, as at PayPal. */
    async getRefund(refundId) {
      const refund = [...refundedByRequest.values()].find((candidate) => candidate.id === refundId);
      if (!refund)
        throw simulatedError(
          404,
          "RESOURCE_NOT_FOUND",
          "INVALID_RESOURCE_ID",
          "Specified resource ID does not exist.",
        );
      return { ...refund };
    },

    decide(orderId, decision) {
      const order = orders.get(orderId);
      if (!order) return null;
      const backToSite = withQuery(order.returnUrl, { token: order.id, PayerID: "SIMULATEDPAYER" });
      // A second tap after the first was paid: back to the site, which says he is booked.
      if (order.status === "COMPLETED") return backToSite;
      if (decision === "cancel") return withQuery(order.cancelUrl, { token: order.id });
      order.status = "APPROVED";
      order.decision = decision;
      return backToSite;
    },

    describe(orderId) {
      const order = orders.get(orderId);
      return order
        ? {
            id: order.id,
            amountPence: order.amountPence,
            description: order.description,
            status: order.status,
          }
        : null;
    },
  };
}
