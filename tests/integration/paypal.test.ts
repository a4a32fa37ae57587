import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import {
  approvalUrl,
  createPayPalClient,
  paypalBaseUrl,
  paypalSettingsFromConfig,
  PayPalError,
  PayPalNetworkError,
  penceToValue,
  valueToPence,
  type CreateOrderInput,
  type PayPalClient,
} from "#app/services/payments/paypal.server";
import type { FakePayPal } from "#tests/support/fake-paypal";
import { fakePayPalForThisFile } from "#tests/support/fixtures";

// One fake PayPal for the file, which forgets everything before each test; a client of each
// test's own, so that no test reuses another's access token.
const fakePayPal = fakePayPalForThisFile();
let fake: FakePayPal;
let paypal: PayPalClient;
beforeEach(() => {
  fake = fakePayPal();
  paypal = createPayPalClient(fake.settings);
});

const RETURN_URL = "http://localhost:3000/checkout/return?booking=hold-1";
const CANCEL_URL = "http://localhost:3000/checkout/cancel?booking=hold-1";

function order(overrides: Partial<CreateOrderInput> = {}): CreateOrderInput {
  return {
    referenceId: "hold-1",
    description: "PSA screening, 12/06/2026, event 42",
    amountPence: 2500,
    currency: "GBP",
    returnUrl: RETURN_URL,
    cancelUrl: CANCEL_URL,
    requestId: `create-${crypto.randomUUID()}`,
    ...overrides,
  };
}

/** The payer follows the approval link; returns where PayPal sends the browser back to. */
async function approveInBrowser(orderId: string, link: string | undefined): Promise<URL> {
  expect(link).toBe(`${fake.url}/checkoutnow?token=${orderId}`);
  const response = await fetch(link!, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!);
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

async function approvedOrder(overrides: Partial<CreateOrderInput> = {}) {
  const created = await paypal.createOrder(order(overrides));
  await approveInBrowser(created.id, approvalUrl(created));
  return created;
}

describe("OAuth token", () => {
  it("is fetched once and reused across calls, including calls started together", async () => {
    const created = await paypal.createOrder(order());
    await Promise.all([paypal.getOrder(created.id), paypal.getOrder(created.id)]);
    await paypal.getOrder(created.id);

    const tokenRequests = fake.requestsTo("POST", "/v1/oauth2/token");
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from("fake-client-id:fake-client-secret").toString("base64")}`,
    );
    expect(tokenRequests[0]!.body).toBe("grant_type=client_credentials");
    const bearers = new Set(
      fake.requests.filter((r) => r.path.startsWith("/v2/")).map((r) => r.headers.authorization),
    );
    expect(bearers.size).toBe(1);
  });

  it("is renewed once after PayPal rejects it (401), and the repeat keeps its request id", async () => {
    const created = await approvedOrder();
    fake.expireTokens();

    const captured = await paypal.captureOrder(created.id, { requestId: "capture-renew-1" });

    expect(captured.capture?.status).toBe("COMPLETED");
    expect(fake.requestsTo("POST", "/v1/oauth2/token")).toHaveLength(2);
    const attempts = fake.requestsTo("POST", `/v2/checkout/orders/${created.id}/capture`);
    expect(attempts.map((r) => [r.status, r.requestId])).toEqual([
      [401, "capture-renew-1"],
      [201, "capture-renew-1"],
    ]);
    expect(fake.captures.size).toBe(1);
  });

  it("is renewed shortly before it expires", async () => {
    let clock = Date.parse("2026-06-01T09:00:00Z");
    const client = createPayPalClient({ ...fake.settings, now: () => clock });
    const created = await client.createOrder(order());

    clock += (32_400 - 120) * 1000; // two minutes before the nine hours are up: still good
    await client.getOrder(created.id);
    expect(fake.requestsTo("POST", "/v1/oauth2/token")).toHaveLength(1);

    clock += 90 * 1000; // thirty seconds before: renewed
    await client.getOrder(created.id);
    expect(fake.requestsTo("POST", "/v1/oauth2/token")).toHaveLength(2);
  });

  it("fails with PayPal's invalid_client when the credentials are wrong", async () => {
    const client = createPayPalClient({ ...fake.settings, clientSecret: "wrong" });
    const error = await caught(client.createOrder(order()));
    expect(error).toBeInstanceOf(PayPalError);
    expect(error).toMatchObject({
      status: 401,
      name: "invalid_client",
      description: "Client Authentication failed",
      recoverable: false,
    });
    expect(fake.requestsTo("POST", "/v2/checkout/orders")).toHaveLength(0);
  });
});

describe("create order", () => {
  it("sends the amount in pounds as a string and returns the payer-action approval link", async () => {
    const created = await paypal.createOrder(order({ requestId: "create-hold-1" }));

    expect(created.status).toBe("PAYER_ACTION_REQUIRED");
    expect(created.id).toMatch(/^[A-Z0-9]{17}$/);
    expect(approvalUrl(created)).toBe(`${fake.url}/checkoutnow?token=${created.id}`);
    expect(created.amountPence).toBe(2500);
    expect(created.referenceId).toBe("hold-1");

    const [sent] = fake.requestsTo("POST", "/v2/checkout/orders");
    expect(sent!.requestId).toBe("create-hold-1");
    expect(sent!.body).toEqual({
      intent: "CAPTURE",
      purchase_units: [
        {
          reference_id: "hold-1",
          custom_id: "hold-1",
          description: "PSA screening, 12/06/2026, event 42",
          amount: { currency_code: "GBP", value: "25.00" },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            locale: "en-GB",
            shipping_preference: "NO_SHIPPING",
            user_action: "PAY_NOW",
            payment_method_preference: "IMMEDIATE_PAYMENT_REQUIRED",
            return_url: RETURN_URL,
            cancel_url: CANCEL_URL,
          },
        },
      },
    });
  });

  it("returns the same order when repeated with the same request id", async () => {
    const first = await paypal.createOrder(order({ requestId: "create-same" }));
    const second = await paypal.createOrder(order({ requestId: "create-same" }));

    expect(second.id).toBe(first.id);
    expect(fake.orders.size).toBe(1);
    expect(fake.requestsTo("POST", "/v2/checkout/orders").map((r) => r.status)).toEqual([201, 200]);
  });

  it("cuts a description longer than PayPal's 127 characters", async () => {
    await paypal.createOrder(order({ description: "x".repeat(140) }));
    expect(fake.orders.values().next().value?.purchaseUnit.description).toBe("x".repeat(127));
  });

  it("refuses amounts PayPal would reject without calling it", async () => {
    await expect(paypal.createOrder(order({ amountPence: 0 }))).rejects.toBeInstanceOf(RangeError);
    await expect(paypal.createOrder(order({ amountPence: 12.5 }))).rejects.toBeInstanceOf(
      RangeError,
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe("approve and capture", () => {
  it("approves through the redirect and captures COMPLETED with the amount in pence", async () => {
    const created = await paypal.createOrder(order({ amountPence: 1999 }));
    const back = await approveInBrowser(created.id, approvalUrl(created));
    expect(`${back.origin}${back.pathname}`).toBe("http://localhost:3000/checkout/return");
    expect(back.searchParams.get("booking")).toBe("hold-1");
    expect(back.searchParams.get("token")).toBe(created.id);
    expect(back.searchParams.get("PayerID")).toMatch(/^[A-Z0-9]{13}$/);
    expect((await paypal.getOrder(created.id)).status).toBe("APPROVED");

    const captured = await paypal.captureOrder(created.id, { requestId: "capture-1" });

    expect(captured.status).toBe("COMPLETED");
    expect(captured.capture).toEqual({
      id: expect.stringMatching(/^[A-Z0-9]{17}$/),
      status: "COMPLETED",
      amountPence: 1999,
      currency: "GBP",
    });
    const [sent] = fake.requestsTo("POST", `/v2/checkout/orders/${created.id}/capture`);
    expect(sent!.requestId).toBe("capture-1");
    expect(sent!.headers.prefer).toBe("return=representation");
  });

  it("works for the JS buttons too (approval in PayPal's window, no redirect)", async () => {
    const created = await paypal.createOrder(order());
    fake.approve(created.id);
    const captured = await paypal.captureOrder(created.id, { requestId: "capture-js" });
    expect(captured.capture?.amountPence).toBe(2500);
  });

  it("says ORDER_NOT_APPROVED (non-recoverable) when captured before approval", async () => {
    const created = await paypal.createOrder(order());
    const error = await caught(paypal.captureOrder(created.id, { requestId: "capture-early" }));
    expect(error).toBeInstanceOf(PayPalError);
    expect(error).toMatchObject({
      status: 422,
      name: "UNPROCESSABLE_ENTITY",
      issue: "ORDER_NOT_APPROVED",
      recoverable: false,
    });
  });

  it("says ORDER_ALREADY_CAPTURED on a second capture, and getOrder shows the first capture", async () => {
    const created = await approvedOrder();
    const first = await paypal.captureOrder(created.id, { requestId: "capture-a" });

    const error = await caught(paypal.captureOrder(created.id, { requestId: "capture-b" }));
    expect(error).toMatchObject({
      status: 422,
      issue: "ORDER_ALREADY_CAPTURED",
      recoverable: false,
    });

    const looked = await paypal.getOrder(created.id);
    expect(looked.status).toBe("COMPLETED");
    expect(looked.capture).toEqual({
      id: first.capture!.id,
      status: "COMPLETED",
      amountPence: 2500,
      currency: "GBP",
    });
    expect(fake.captures.size).toBe(1);
  });

  it("replays the first capture when a lost answer is retried with the same request id", async () => {
    const created = await approvedOrder();
    fake.dropNextResponse(`/v2/checkout/orders/${created.id}/capture`);

    const lost = await caught(paypal.captureOrder(created.id, { requestId: "capture-lost" }));
    expect(lost).toBeInstanceOf(PayPalNetworkError);
    expect(fake.captures.size).toBe(1); // PayPal did it; we did not hear

    const retried = await paypal.captureOrder(created.id, { requestId: "capture-lost" });
    expect(retried.capture?.id).toBe([...fake.captures.keys()][0]);
    expect(retried.capture?.amountPence).toBe(2500);
    expect(fake.captures.size).toBe(1);
    const attempts = fake.requestsTo("POST", `/v2/checkout/orders/${created.id}/capture`);
    expect(attempts.map((r) => [r.requestId, r.status])).toEqual([
      ["capture-lost", undefined],
      ["capture-lost", 200],
    ]);
  });

  it("reports a declined instrument as recoverable; approved again, the capture succeeds", async () => {
    fake.setOutcome("next", "decline");
    const created = await approvedOrder();

    const error = await caught(paypal.captureOrder(created.id, { requestId: "capture-try-1" }));
    expect(error).toBeInstanceOf(PayPalError);
    expect(error).toMatchObject({
      status: 422,
      name: "UNPROCESSABLE_ENTITY",
      issue: "INSTRUMENT_DECLINED",
      recoverable: true,
    });

    const again = await paypal.getOrder(created.id);
    expect(again.status).toBe("PAYER_ACTION_REQUIRED");
    await approveInBrowser(created.id, approvalUrl(again));
    const captured = await paypal.captureOrder(created.id, { requestId: "capture-try-2" });
    expect(captured.capture).toMatchObject({ status: "COMPLETED", amountPence: 2500 });
  });

  it("reports PAYER_ACTION_REQUIRED at capture as recoverable", async () => {
    const created = await approvedOrder();
    fake.setOutcome(created.id, "payer-action");
    const error = await caught(paypal.captureOrder(created.id, { requestId: "capture-pa" }));
    expect(error).toMatchObject({ issue: "PAYER_ACTION_REQUIRED", recoverable: true });
  });

  it("reports a non-recoverable issue with PayPal's debug id and description", async () => {
    fake.setOutcome("next", "refuse");
    const created = await approvedOrder();

    const error = await caught(paypal.captureOrder(created.id, { requestId: "capture-refused" }));
    expect(error).toBeInstanceOf(PayPalError);
    const refused = error as PayPalError;
    expect(refused).toMatchObject({
      status: 422,
      issue: "TRANSACTION_REFUSED",
      description: "The request was refused.",
      recoverable: false,
    });
    expect(refused.debugId).toMatch(/^[0-9a-f]{13}$/);
    expect(refused.message).toBe(
      `Non-recoverable error: The request was refused. (${refused.debugId})`,
    );
  });

  it("reports a PENDING capture as PENDING, with PayPal's reason", async () => {
    fake.setOutcome("next", "pending");
    const created = await approvedOrder();
    const captured = await paypal.captureOrder(created.id, { requestId: "capture-pending" });
    expect(captured.status).toBe("COMPLETED");
    expect(captured.capture).toMatchObject({
      status: "PENDING",
      statusReason: "PENDING_REVIEW",
      amountPence: 2500,
    });
  });

  it("sends a payer who cancels to the cancel URL, with the order left unapproved", async () => {
    fake.setOutcome("next", "cancel");
    const created = await paypal.createOrder(order());
    const back = await approveInBrowser(created.id, approvalUrl(created));
    expect(`${back.origin}${back.pathname}`).toBe("http://localhost:3000/checkout/cancel");
    expect(back.searchParams.get("token")).toBe(created.id);
    expect((await paypal.getOrder(created.id)).status).toBe("PAYER_ACTION_REQUIRED");
  });

  it("turns an unknown order into RESOURCE_NOT_FOUND, and a malformed id never reaches PayPal", async () => {
    await expect(paypal.getOrder("5O190127TN364715T")).rejects.toMatchObject({
      status: 404,
      name: "RESOURCE_NOT_FOUND",
      issue: "INVALID_RESOURCE_ID",
    });
    const before = fake.requests.length;
    await expect(paypal.getOrder("../../v1/oauth2")).rejects.toMatchObject({ status: 404 });
    expect(fake.requests).toHaveLength(before);
  });
});

describe("refund", () => {
  it("refunds a capture in full once; a retry with the same request id gives the same refund", async () => {
    const created = await approvedOrder();
    const { capture } = await paypal.captureOrder(created.id, { requestId: "capture-r" });

    const refund = await paypal.refundCapture(capture!.id, {
      requestId: "refund-booking-7",
      noteToPayer: "Event cancelled",
    });
    expect(refund).toEqual({
      id: expect.stringMatching(/^[A-Z0-9]{17}$/),
      status: "COMPLETED",
      amountPence: 2500,
      currency: "GBP",
    });

    const retried = await paypal.refundCapture(capture!.id, { requestId: "refund-booking-7" });
    expect(retried.id).toBe(refund.id);
    expect(fake.refunds.size).toBe(1);
    expect(fake.captures.get(capture!.id)?.status).toBe("REFUNDED");
    const [sent] = fake.requestsTo("POST", `/v2/payments/captures/${capture!.id}/refund`);
    expect(sent!.body).toEqual({ note_to_payer: "Event cancelled" });

    await expect(
      paypal.refundCapture(capture!.id, { requestId: "refund-booking-7-again" }),
    ).rejects.toMatchObject({ status: 422, issue: "CAPTURE_FULLY_REFUNDED" });
  });

  it("refunds part of a capture, and refuses more than is left", async () => {
    const created = await approvedOrder({ amountPence: 4000 });
    const { capture } = await paypal.captureOrder(created.id, { requestId: "capture-p" });

    const part = await paypal.refundCapture(capture!.id, {
      requestId: "refund-part",
      amountPence: 1050,
    });
    expect(part.amountPence).toBe(1050);
    const [sent] = fake.requestsTo("POST", `/v2/payments/captures/${capture!.id}/refund`);
    expect(sent!.body).toEqual({ amount: { currency_code: "GBP", value: "10.50" } });

    await expect(
      paypal.refundCapture(capture!.id, { requestId: "refund-too-much", amountPence: 2951 }),
    ).rejects.toMatchObject({ status: 422, issue: "REFUND_AMOUNT_EXCEEDED", recoverable: false });
    const rest = await paypal.refundCapture(capture!.id, { requestId: "refund-rest" });
    expect(rest.amountPence).toBe(2950);
  });

  it("reads a refund by its id as PayPal has it now; an unknown or malformed id is refused", async () => {
    const created = await approvedOrder();
    const { capture } = await paypal.captureOrder(created.id, { requestId: "capture-g" });
    fake.makeRefundsPending();
    const made = await paypal.refundCapture(capture!.id, { requestId: "refund-pending" });
    fake.makeRefundsPending(false);
    expect(made.status).toBe("PENDING");
    expect(await paypal.getRefund(made.id)).toEqual({ ...made, status: "PENDING" });
    fake.settleRefund(made.id, "COMPLETED");
    expect(await paypal.getRefund(made.id)).toEqual({ ...made, status: "COMPLETED" });
    expect(fake.requestsTo("GET", `/v2/payments/refunds/${made.id}`)).toHaveLength(2);

    await expect(paypal.getRefund("1JU08902781691411")).rejects.toMatchObject({
      status: 404,
      issue: "INVALID_RESOURCE_ID",
    });
    const before = fake.requests.length;
    await expect(paypal.getRefund("../captures/x")).rejects.toThrow();
    expect(fake.requests).toHaveLength(before);
  });
});

describe("no answer", () => {
  it("turns a refused connection into PayPalNetworkError 'No response from PayPal'", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const client = createPayPalClient({ ...fake.settings, baseUrl: `http://127.0.0.1:${port}` });
    const error = await caught(client.createOrder(order()));
    expect(error).toBeInstanceOf(PayPalNetworkError);
    expect((error as Error).message).toBe("No response from PayPal");
    expect(error).not.toBeInstanceOf(PayPalError);
  });

  it("gives up after the timeout with the same error", async () => {
    const client = createPayPalClient({ ...fake.settings, timeoutMs: 200 });
    fake.delayResponses(1_000);
    const error = await caught(client.createOrder(order()));
    expect(error).toBeInstanceOf(PayPalNetworkError);
    expect(error).toMatchObject({ message: "No response from PayPal", timedOut: true });
  });
});

describe("the fake follows PayPal's error shapes", () => {
  async function bearer() {
    const response = await fetch(`${fake.url}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("fake-client-id:fake-client-secret").toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    const token = (await response.json()) as { access_token: string; expires_in: number };
    expect(token.expires_in).toBe(32_400);
    return `Bearer ${token.access_token}`;
  }

  it("answers 401 AUTHENTICATION_FAILURE without a token", async () => {
    const response = await fetch(`${fake.url}/v2/checkout/orders/ABC`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ name: "AUTHENTICATION_FAILURE" });
  });

  it("answers 400 INVALID_REQUEST for a missing intent and 422 for a zero amount", async () => {
    const authorization = await bearer();
    const post = (body: unknown) =>
      fetch(`${fake.url}/v2/checkout/orders`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    const missing = await post({ purchase_units: [] });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      name: "INVALID_REQUEST",
      message: "Request is not well-formed, syntactically incorrect, or violates schema.",
      debug_id: expect.any(String),
      details: [{ field: "/intent", issue: "MISSING_REQUIRED_PARAMETER" }],
    });

    const zero = await post({
      intent: "CAPTURE",
      purchase_units: [{ amount: { currency_code: "GBP", value: "0.00" } }],
    });
    expect(zero.status).toBe(422);
    expect(await zero.json()).toMatchObject({
      name: "UNPROCESSABLE_ENTITY",
      details: [{ issue: "CANNOT_BE_ZERO_OR_NEGATIVE" }],
    });

    const plain = await post({
      intent: "CAPTURE",
      purchase_units: [{ amount: { currency_code: "GBP", value: "5.00" } }],
    });
    expect(plain.status).toBe(201);
    const created = (await plain.json()) as { status: string; links: { rel: string }[] };
    expect(created.status).toBe("CREATED");
    expect(created.links.map((link) => link.rel)).toEqual(["self", "approve", "update", "capture"]);
  });
});

describe("helpers", () => {
  it("converts pence to PayPal's value and back exactly", () => {
    expect(penceToValue(0)).toBe("0.00");
    expect(penceToValue(1)).toBe("0.01");
    expect(penceToValue(2500)).toBe("25.00");
    expect(penceToValue(1999)).toBe("19.99");
    expect(penceToValue(123456789)).toBe("1234567.89");
    expect(valueToPence("19.99")).toBe(1999);
    expect(valueToPence("0.29")).toBe(29);
    expect(valueToPence("12.5")).toBe(1250);
    expect(valueToPence("25")).toBe(2500);
    expect(() => valueToPence("1.005")).toThrow(RangeError);
    expect(() => valueToPence("-1.00")).toThrow(RangeError);
    expect(() => penceToValue(-1)).toThrow(RangeError);
  });

  it("picks payer-action, else approve", () => {
    const link = (rel: string) => ({ href: `https://paypal.test/${rel}`, rel });
    expect(approvalUrl({ links: [link("self"), link("payer-action")] })).toBe(
      "https://paypal.test/payer-action",
    );
    expect(approvalUrl({ links: [link("self"), link("approve"), link("capture")] })).toBe(
      "https://paypal.test/approve",
    );
    expect(approvalUrl({ links: [link("self")] })).toBeUndefined();
  });

  it("maps PAYPAL_ENV to PayPal's address unless PAYPAL_API_BASE is set", () => {
    expect(paypalBaseUrl("sandbox")).toBe("https://api-m.sandbox.paypal.com");
    expect(paypalBaseUrl("production")).toBe("https://api-m.paypal.com");
    expect(paypalBaseUrl("production", "http://127.0.0.1:9999/")).toBe("http://127.0.0.1:9999");
    expect(
      paypalSettingsFromConfig({
        PAYPAL_CLIENT_ID: "id",
        PAYPAL_CLIENT_SECRET: "secret",
        PAYPAL_ENV: "sandbox",
        PAYPAL_API_BASE: undefined,
      }),
    ).toEqual({
      baseUrl: "https://api-m.sandbox.paypal.com",
      clientId: "id",
      clientSecret: "secret",
    });
    expect(
      paypalSettingsFromConfig({
        PAYPAL_CLIENT_ID: undefined,
        PAYPAL_CLIENT_SECRET: "secret",
        PAYPAL_ENV: "production",
        PAYPAL_API_BASE: undefined,
      }),
    ).toBeUndefined();
  });
});
