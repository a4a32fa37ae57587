import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for PayPal's REST API: the OAuth token endpoint, Orders v2 (create, get,
 * capture), Payments v2 (capture, refund) and the payer's approval page. It is written by hand
 * from PayPal's published OpenAPI descriptions (Orders v2 2.13, Payments v2 2.5): the paths,
 * status codes, link rels, error bodies (`name`, `message`, `debug_id`, `details[].issue`,
 * `details[].description`, `links`) and issue names are theirs. Where the descriptions are silent
 * (the token endpoint, the `payer-action` link, the approval page) it follows PayPal's developer
 * documentation. Every request is recorded so tests can count what reached "PayPal".
 */

/** What happens when the payer goes through the approval page, and at the capture after it. */
export type FakeOutcome =
  /** approved; the capture completes */
  | "approve"
  /** approved; the capture is refused with INSTRUMENT_DECLINED (the payer may approve again) */
  | "decline"
  /** approved; the capture answers PAYER_ACTION_REQUIRED (the payer must return to PayPal) */
  | "payer-action"
  /** approved; the capture is refused with TRANSACTION_REFUSED (non-recoverable) */
  | "refuse"
  /** approved; the capture is made but PENDING (reason PENDING_REVIEW) */
  | "pending"
  /** the payer cancels on PayPal and is sent to the order's cancel_url */
  | "cancel";

export type FakeOrderStatus =
  "CREATED" | "SAVED" | "APPROVED" | "VOIDED" | "COMPLETED" | "PAYER_ACTION_REQUIRED";

export interface FakeOrder {
  id: string;
  intent: "CAPTURE" | "AUTHORIZE";
  status: FakeOrderStatus;
  /** the status the order had when created, to which a declined approval returns */
  initialStatus: "CREATED" | "PAYER_ACTION_REQUIRED";
  purchaseUnit: {
    reference_id: string;
    description?: string;
    custom_id?: string;
    invoice_id?: string;
    amount: { currency_code: string; value: string };
  };
  returnUrl?: string;
  cancelUrl?: string;
  outcome: FakeOutcome;
  payerId?: string;
  captureIds: string[];
  createTime: string;
  updateTime: string;
}

export interface FakeCapture {
  id: string;
  orderId: string;
  /** a PENDING capture can end DECLINED or FAILED (a test sets it), which took no money */
  status: "COMPLETED" | "PENDING" | "PARTIALLY_REFUNDED" | "REFUNDED" | "DECLINED" | "FAILED";
  currency: string;
  /** in the currency's minor unit (pence for GBP) */
  minor: number;
  refundedMinor: number;
  /** PayPal refuses every refund of it with this issue (a test sets it: too old, disputed) */
  refundRefusal?: "REFUND_TIME_LIMIT_EXCEEDED" | "TRANSACTION_DISPUTED";
  createTime: string;
  updateTime: string;
}

export interface FakeRefund {
  id: string;
  captureId: string;
  /**
   * PENDING (reason ECHECK) until the payer's eCheck clears, as PayPal says for such refunds; then
   * COMPLETED, or FAILED or CANCELLED (`settleRefund`)
   */
  status: "COMPLETED" | "PENDING" | "FAILED" | "CANCELLED";
  currency: string;
  minor: number;
  requestId?: string;
  noteToPayer?: string;
  createTime: string;
  updateTime?: string;
}

export interface RecordedRequest {
  method: string;
  /** the path without the query string */
  path: string;
  query: string;
  /** lower-case header names */
  headers: Record<string, string>;
  /** the PayPal-Request-Id header, if sent */
  requestId?: string;
  /** parsed JSON, or the raw text when it is not JSON (the token form), or undefined when empty */
  body: unknown;
  /** the status answered (undefined when the response was dropped) */
  status?: number;
}

export interface FakePayPalOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of the access tokens handed out (default 32400, PayPal's nine hours) */
  tokenTtlSeconds?: number;
}

export type FakePayPal = Awaited<ReturnType<typeof startFakePayPal>>;

const AUTHENTICATION_MESSAGE =
  "Authentication failed due to missing authorization header, or invalid authentication credentials.";
const ERROR_NAMES: Record<number, [name: string, message: string]> = {
  400: [
    "INVALID_REQUEST",
    "Request is not well-formed, syntactically incorrect, or violates schema.",
  ],
  401: ["AUTHENTICATION_FAILURE", AUTHENTICATION_MESSAGE],
  404: ["RESOURCE_NOT_FOUND", "The specified resource does not exist."],
  409: ["RESOURCE_CONFLICT", "The server has detected a conflict while processing this request."],
  422: [
    "UNPROCESSABLE_ENTITY",
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
  ],
};

/** Issue descriptions, word for word from the OpenAPI descriptions. */
const ISSUES = {
  MALFORMED_REQUEST_JSON: "The request JSON is not well formed.",
  MISSING_REQUIRED_PARAMETER: "A required parameter is missing.",
  INVALID_PARAMETER_VALUE: "A parameter value is not valid.",
  INVALID_PARAMETER_SYNTAX: "The value of a field does not conform to the expected format.",
  INVALID_STRING_LENGTH: "The value of a field is either too short or too long",
  INVALID_ARRAY_MIN_ITEMS: "The number of items in an array parameter is too small.",
  INVALID_ARRAY_MAX_ITEMS: "The number of items in an array parameter is too large.",
  INVALID_RESOURCE_ID:
    "Specified resource ID does not exist. Please check the resource ID and try again.",
  INVALID_CURRENCY_CODE:
    "Currency code is invalid or is not currently supported. Please refer https://developer.paypal.com/api/rest/reference/currency-codes/ for list of supported currency codes.",
  CANNOT_BE_ZERO_OR_NEGATIVE:
    "Must be greater than zero. If the currency supports decimals, only two decimal place precision is supported.",
  DECIMAL_PRECISION:
    "If the currency supports decimals, only two decimal place precision is supported.",
  ORDER_NOT_APPROVED:
    "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid `payment_source` in the request.",
  ORDER_ALREADY_CAPTURED:
    "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
  INSTRUMENT_DECLINED:
    "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
  PAYER_ACTION_REQUIRED:
    "Transaction cannot complete successfully, instruct the buyer to return to PayPal.",
  TRANSACTION_REFUSED: "The request was refused.",
  PREVIOUS_REQUEST_IN_PROGRESS:
    "A previous request on this resource is currently in progress. Please wait for sometime and try again. It is best to space out the initial and the subsequent request(s) to avoid receiving this error.",
  ACTION_DOES_NOT_MATCH_INTENT:
    "Order was created with an intent to 'AUTHORIZE'. Please use v2/checkout/orders/order_id/authorize to complete the transaction or alternately Create an order with an intent of 'CAPTURE'.",
  CAPTURE_FULLY_REFUNDED: "The capture has already been fully refunded",
  REFUND_CAPTURE_CURRENCY_MISMATCH: "Refund must be in the same currency as the capture",
  REFUND_AMOUNT_EXCEEDED:
    "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
  PENDING_CAPTURE:
    "Cannot initiate a refund as the capture is pending. Capture is typically pending when the payer has funded the transaction using e-check/bank funded.",
  REFUND_NOT_ALLOWED: "Capture cannot be refunded.",
  REFUND_TIME_LIMIT_EXCEEDED: "You are over the time limit to perform a refund on this capture",
  TRANSACTION_DISPUTED:
    "Partial refunds cannot be offered at this time because there is an open case on this transaction. Visit the PayPal Resolution Center to review this case.",
} as const;
type Issue = keyof typeof ISSUES;

/** Currencies PayPal accepts, and those of them without a minor unit. */
const CURRENCIES = new Set(
  "AUD BRL CAD CNY CZK DKK EUR HKD HUF ILS JPY MYR MXN TWD NZD NOK PHP PLN GBP SGD SEK CHF THB USD".split(
    " ",
  ),
);
const ZERO_DECIMAL = new Set(["HUF", "JPY", "TWD"]);
/** The `money.value` pattern from the descriptions. */
const MONEY_VALUE = /^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/;
const ORDER_ID = /^[A-Z0-9]{1,36}$/;

interface Reply {
  status: number;
  body?: unknown;
  html?: string;
  location?: string;
  /** an OAuth error or token: sent as is, not wrapped */
  raw?: boolean;
}

export async function startFakePayPal(options: FakePayPalOptions = {}) {
  const clientId = options.clientId ?? "fake-client-id";
  const clientSecret = options.clientSecret ?? "fake-client-secret";
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 32_400;

  const requests: RecordedRequest[] = [];
  const orders = new Map<string, FakeOrder>();
  const captures = new Map<string, FakeCapture>();
  const refunds = new Map<string, FakeRefund>();
  let refundsPending = false;
  /** access token -> expiry (ms since epoch) */
  const tokens = new Map<string, number>();
  /** `${path} ${PayPal-Request-Id}` -> the first successful answer */
  const idempotent = new Map<string, { status: number; body: unknown; orderId?: string }>();
  let nextOutcome: FakeOutcome | undefined;
  let dropNext: string | undefined;
  /** requests with a PayPal-Request-Id still being answered */
  const inFlight = new Set<string>();
  let delayMs = 0;
  let url = "";

  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");

  function paypalError(
    status: number,
    issue: Issue | undefined,
    extra: { field?: string; value?: string; location?: string; links?: object[] } = {},
  ): Reply {
    const [name, message] = ERROR_NAMES[status] ?? ["INTERNAL_SERVER_ERROR", "Error"];
    const api = /^(CAPTURE_|REFUND_|PENDING_CAPTURE|TRANSACTION_DISPUTED)/.test(issue ?? "")
      ? "payments"
      : "orders";
    const details = issue
      ? [
          {
            ...(extra.field ? { field: extra.field } : {}),
            ...(extra.value !== undefined ? { value: extra.value } : {}),
            ...(extra.field ? { location: extra.location ?? "body" } : {}),
            issue,
            description: ISSUES[issue],
          },
        ]
      : [];
    return {
      status,
      body: {
        name,
        message,
        ...(details.length > 0 ? { details } : {}),
        debug_id: randomBytes(7).toString("hex").slice(0, 13),
        links: [
          {
            href: `https://developer.paypal.com/docs/api/${api}/v2/#error-${issue ?? name}`,
            rel: "information_link",
            method: "GET",
          },
          ...(extra.links ?? []),
        ],
      },
    };
  }

  // ---- money, in minor units so nothing drifts -------------------------------------------------

  function toMinor(value: string, currency: string): number | "precision" | "syntax" {
    if (!MONEY_VALUE.test(value)) return "syntax";
    const [whole = "", fraction = ""] = value.replace(/^-/, "").split(".");
    const places = ZERO_DECIMAL.has(currency) ? 0 : 2;
    if (fraction.replace(/0+$/, "").length > places) return "precision";
    const minor = Number(whole || "0") * 10 ** places + Number(fraction.padEnd(places, "0") || "0");
    return value.startsWith("-") ? -minor : minor;
  }
  function fromMinor(minor: number, currency: string): string {
    if (ZERO_DECIMAL.has(currency)) return String(minor);
    const digits = String(minor).padStart(3, "0");
    return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
  }
  const money = (minor: number, currency: string) => ({
    currency_code: currency,
    value: fromMinor(minor, currency),
  });

  // ---- representations --------------------------------------------------------------------------

  const approvalHref = (id: string) => `${url}/checkoutnow?token=${id}`;

  function orderLinks(order: FakeOrder) {
    const self = { href: `${url}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" };
    const update = { href: self.href, rel: "update", method: "PATCH" };
    const action =
      order.intent === "CAPTURE"
        ? { href: `${self.href}/capture`, rel: "capture", method: "POST" }
        : { href: `${self.href}/authorize`, rel: "authorize", method: "POST" };
    switch (order.status) {
      case "PAYER_ACTION_REQUIRED":
        return [self, { href: approvalHref(order.id), rel: "payer-action", method: "GET" }];
      case "CREATED":
        return [
          self,
          { href: approvalHref(order.id), rel: "approve", method: "GET" },
          update,
          action,
        ];
      case "APPROVED":
        return [self, update, action];
      default:
        return [self];
    }
  }

  function captureJson(capture: FakeCapture) {
    const amount = money(capture.minor, capture.currency);
    return {
      id: capture.id,
      status: capture.status,
      ...(capture.status === "PENDING" ? { status_details: { reason: "PENDING_REVIEW" } } : {}),
      amount,
      final_capture: true,
      seller_protection: {
        status: "ELIGIBLE",
        dispute_categories: ["ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"],
      },
      seller_receivable_breakdown: {
        gross_amount: amount,
        paypal_fee: money(0, capture.currency),
        net_amount: amount,
      },
      links: [
        { href: `${url}/v2/payments/captures/${capture.id}`, rel: "self", method: "GET" },
        {
          href: `${url}/v2/payments/captures/${capture.id}/refund`,
          rel: "refund",
          method: "POST",
        },
        { href: `${url}/v2/checkout/orders/${capture.orderId}`, rel: "up", method: "GET" },
      ],
      create_time: capture.createTime,
      update_time: capture.updateTime,
    };
  }

  function refundJson(refund: FakeRefund) {
    const capture = captures.get(refund.captureId);
    const amount = money(refund.minor, refund.currency);
    return {
      id: refund.id,
      status: refund.status,
      ...(refund.status === "PENDING" ? { status_details: { reason: "ECHECK" } } : {}),
      amount,
      ...(refund.noteToPayer ? { note_to_payer: refund.noteToPayer } : {}),
      seller_payable_breakdown: {
        gross_amount: amount,
        paypal_fee: money(0, refund.currency),
        net_amount: amount,
        total_refunded_amount: money(capture?.refundedMinor ?? refund.minor, refund.currency),
      },
      links: [
        { href: `${url}/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" },
        { href: `${url}/v2/payments/captures/${refund.captureId}`, rel: "up", method: "GET" },
      ],
      create_time: refund.createTime,
      update_time: refund.updateTime ?? refund.createTime,
    };
  }

  function orderJson(order: FakeOrder) {
    const orderCaptures = order.captureIds.flatMap((id) => captures.get(id) ?? []);
    const orderRefunds = [...refunds.values()].filter((refund) =>
      order.captureIds.includes(refund.captureId),
    );
    const payer = order.payerId
      ? {
          email_address: "payer@example.com",
          account_id: order.payerId,
          name: { given_name: "Test", surname: "Payer" },
        }
      : undefined;
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      ...(payer ? { payment_source: { paypal: { ...payer, account_status: "VERIFIED" } } } : {}),
      purchase_units: [
        {
          ...order.purchaseUnit,
          payee: { email_address: "merchant@example.org", merchant_id: "FAKEMERCHANT01" },
          ...(orderCaptures.length > 0
            ? {
                payments: {
                  captures: orderCaptures.map(captureJson),
                  ...(orderRefunds.length > 0 ? { refunds: orderRefunds.map(refundJson) } : {}),
                },
              }
            : {}),
        },
      ],
      ...(payer
        ? {
            payer: {
              name: payer.name,
              email_address: payer.email_address,
              payer_id: payer.account_id,
            },
          }
        : {}),
      create_time: order.createTime,
      update_time: order.updateTime,
      links: orderLinks(order),
    };
  }

  /** The `Prefer` header: minimal (the default) is id, status and links only. */
  function shaped(body: Record<string, unknown>, request: RecordedRequest) {
    if (/return=representation/i.test(request.headers.prefer ?? "")) return body;
    return { id: body.id, status: body.status, links: body.links };
  }

  // ---- the payer on PayPal ----------------------------------------------------------------------

  function approveAsPayer(order: FakeOrder): Reply {
    if (!["CREATED", "PAYER_ACTION_REQUIRED", "APPROVED"].includes(order.status)) {
      return {
        status: 200,
        html: `<p>Order ${order.id} is ${order.status}: nothing to approve.</p>`,
      };
    }
    if (order.outcome === "cancel") {
      // Cancelling is one visit: the payer may come back and approve.
      order.outcome = "approve";
      if (!order.cancelUrl) return { status: 200, html: `<p>You cancelled.</p>` };
      const target = new URL(order.cancelUrl);
      target.searchParams.set("token", order.id);
      return { status: 302, location: target.href };
    }
    order.status = "APPROVED";
    order.payerId ??= randomId(13);
    order.updateTime = now();
    if (!order.returnUrl)
      return { status: 200, html: `<p>Approved. You may close this window.</p>` };
    const target = new URL(order.returnUrl);
    target.searchParams.set("token", order.id);
    target.searchParams.set("PayerID", order.payerId);
    return { status: 302, location: target.href };
  }

  // ---- handlers -------------------------------------------------------------------------------

  function issueToken(request: RecordedRequest): Reply {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    if (request.headers.authorization !== expected) {
      return {
        status: 401,
        raw: true,
        body: { error: "invalid_client", error_description: "Client Authentication failed" },
      };
    }
    const form = new URLSearchParams(typeof request.body === "string" ? request.body : "");
    if (form.get("grant_type") !== "client_credentials") {
      return {
        status: 400,
        raw: true,
        body: { error: "unsupported_grant_type", error_description: "unsupported grant_type" },
      };
    }
    const accessToken = `A21AA${randomBytes(24).toString("base64url")}`;
    tokens.set(accessToken, Date.now() + tokenTtlSeconds * 1000);
    return {
      status: 200,
      raw: true,
      body: {
        scope:
          "https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund",
        access_token: accessToken,
        token_type: "Bearer",
        app_id: "APP-80W284485P519543T",
        expires_in: tokenTtlSeconds,
        nonce: `${now()}${randomBytes(8).toString("hex")}`,
      },
    };
  }

  function authorised(request: RecordedRequest): boolean {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? "");
    const expiry = match?.[1] ? tokens.get(match[1]) : undefined;
    return expiry !== undefined && expiry > Date.now();
  }

  function createOrder(request: RecordedRequest): Reply {
    const key = request.requestId ? `${request.path} ${request.requestId}` : undefined;
    if (request.requestId && request.requestId.length > 108) {
      return paypalError(400, "INVALID_STRING_LENGTH", {
        field: "PayPal-Request-Id",
        location: "header",
      });
    }
    const seen = key ? idempotent.get(key) : undefined;
    const seenOrder = seen?.orderId ? orders.get(seen.orderId) : undefined;
    if (seenOrder) return { status: 200, body: shaped(orderJson(seenOrder), request) };

    const body = request.body;
    if (body === undefined || typeof body !== "object" || body === null || Array.isArray(body)) {
      return paypalError(400, "MALFORMED_REQUEST_JSON");
    }
    const input = body as Record<string, unknown>;
    if (input.intent === undefined)
      return paypalError(400, "MISSING_REQUIRED_PARAMETER", { field: "/intent" });
    if (input.intent !== "CAPTURE" && input.intent !== "AUTHORIZE") {
      return paypalError(400, "INVALID_PARAMETER_VALUE", {
        field: "/intent",
        value: String(input.intent),
      });
    }
    const units = input.purchase_units;
    if (units === undefined) {
      return paypalError(400, "MISSING_REQUIRED_PARAMETER", { field: "/purchase_units" });
    }
    if (!Array.isArray(units)) {
      return paypalError(400, "INVALID_PARAMETER_SYNTAX", { field: "/purchase_units" });
    }
    if (units.length < 1)
      return paypalError(400, "INVALID_ARRAY_MIN_ITEMS", { field: "/purchase_units" });
    if (units.length > 10)
      return paypalError(400, "INVALID_ARRAY_MAX_ITEMS", { field: "/purchase_units" });
    // One purchase unit is all the site sends, so the fake keeps only the first.
    const unit = (units[0] ?? {}) as Record<string, unknown>;
    const amount = unit.amount as Record<string, unknown> | undefined;
    const at = "/purchase_units/@reference_id=='default'";
    if (!amount || typeof amount !== "object") {
      return paypalError(400, "MISSING_REQUIRED_PARAMETER", { field: `${at}/amount` });
    }
    for (const field of ["currency_code", "value"] as const) {
      if (amount[field] === undefined) {
        return paypalError(400, "MISSING_REQUIRED_PARAMETER", { field: `${at}/amount/${field}` });
      }
      if (typeof amount[field] !== "string") {
        return paypalError(400, "INVALID_PARAMETER_SYNTAX", { field: `${at}/amount/${field}` });
      }
    }
    const currency = amount.currency_code as string;
    const value = amount.value as string;
    if (currency.length !== 3) {
      return paypalError(400, "INVALID_STRING_LENGTH", {
        field: `${at}/amount/currency_code`,
        value: currency,
      });
    }
    if (!CURRENCIES.has(currency)) {
      return paypalError(422, "INVALID_CURRENCY_CODE", {
        field: `${at}/amount/currency_code`,
        value: currency,
      });
    }
    const minor = toMinor(value, currency);
    if (minor === "syntax") {
      return paypalError(400, "INVALID_PARAMETER_SYNTAX", { field: `${at}/amount/value`, value });
    }
    if (minor === "precision") {
      return paypalError(422, "DECIMAL_PRECISION", { field: `${at}/amount/value`, value });
    }
    if (minor <= 0) {
      return paypalError(422, "CANNOT_BE_ZERO_OR_NEGATIVE", { field: `${at}/amount/value`, value });
    }
    for (const [field, max] of [
      ["reference_id", 256],
      ["description", 127],
      ["custom_id", 127],
      ["invoice_id", 127],
    ] as const) {
      const text = unit[field];
      if (
        text !== undefined &&
        (typeof text !== "string" || text.length < 1 || [...text].length > max)
      ) {
        return paypalError(400, "INVALID_STRING_LENGTH", { field: `${at}/${field}` });
      }
    }

    const paymentSource = input.payment_source as
      { paypal?: { experience_context?: Record<string, unknown> } } | undefined;
    const experience = paymentSource?.paypal?.experience_context;
    const legacy = input.application_context as Record<string, unknown> | undefined;
    const context = experience ?? legacy ?? {};
    for (const field of ["return_url", "cancel_url"] as const) {
      const target = context[field];
      if (target !== undefined && (typeof target !== "string" || !URL.canParse(target))) {
        const path = experience
          ? "/payment_source/paypal/experience_context"
          : "/application_context";
        return paypalError(400, "INVALID_PARAMETER_SYNTAX", { field: `${path}/${field}` });
      }
    }

    // With payment_source.paypal.experience_context PayPal answers PAYER_ACTION_REQUIRED and a
    // `payer-action` link; without it the order is CREATED with an `approve` link.
    const initialStatus = experience ? "PAYER_ACTION_REQUIRED" : "CREATED";
    const time = now();
    const order: FakeOrder = {
      id: randomId(17),
      intent: input.intent,
      status: initialStatus,
      initialStatus,
      purchaseUnit: {
        reference_id: typeof unit.reference_id === "string" ? unit.reference_id : "default",
        ...(typeof unit.description === "string" ? { description: unit.description } : {}),
        ...(typeof unit.custom_id === "string" ? { custom_id: unit.custom_id } : {}),
        ...(typeof unit.invoice_id === "string" ? { invoice_id: unit.invoice_id } : {}),
        amount: { currency_code: currency, value },
      },
      ...(typeof context.return_url === "string" ? { returnUrl: context.return_url } : {}),
      ...(typeof context.cancel_url === "string" ? { cancelUrl: context.cancel_url } : {}),
      outcome: nextOutcome ?? "approve",
      captureIds: [],
      createTime: time,
      updateTime: time,
    };
    nextOutcome = undefined;
    orders.set(order.id, order);
    if (key) idempotent.set(key, { status: 201, body: undefined, orderId: order.id });
    return { status: 201, body: shaped(orderJson(order), request) };
  }

  function captureOrder(request: RecordedRequest, id: string): Reply {
    const key = request.requestId ? `${request.path} ${request.requestId}` : undefined;
    const seen = key ? idempotent.get(key) : undefined;
    // A retried request with the same PayPal-Request-Id gets the first answer again, as 200.
    if (seen) return { status: 200, body: shaped(seen.body as Record<string, unknown>, request) };

    const order = orders.get(id);
    if (!order)
      return paypalError(404, "INVALID_RESOURCE_ID", {
        field: "order_id",
        value: id,
        location: "path",
      });
    if (request.body !== undefined && (typeof request.body !== "object" || request.body === null)) {
      return paypalError(400, "MALFORMED_REQUEST_JSON");
    }
    if (order.intent !== "CAPTURE") return paypalError(422, "ACTION_DOES_NOT_MATCH_INTENT");
    if (order.status === "COMPLETED") return paypalError(422, "ORDER_ALREADY_CAPTURED");
    if (order.status !== "APPROVED") return paypalError(422, "ORDER_NOT_APPROVED");

    const restart = (issue: "INSTRUMENT_DECLINED" | "PAYER_ACTION_REQUIRED") => {
      // PayPal lets the payer go back and approve again with another instrument.
      order.status = order.initialStatus;
      order.outcome = "approve";
      order.updateTime = now();
      return paypalError(422, issue, {
        links: [{ href: approvalHref(order.id), rel: "redirect", method: "GET" }],
      });
    };
    switch (order.outcome) {
      case "decline":
        return restart("INSTRUMENT_DECLINED");
      case "payer-action":
        return restart("PAYER_ACTION_REQUIRED");
      case "refuse":
        return paypalError(422, "TRANSACTION_REFUSED");
    }

    const time = now();
    const currency = order.purchaseUnit.amount.currency_code;
    const minor = toMinor(order.purchaseUnit.amount.value, currency) as number;
    const capture: FakeCapture = {
      id: randomId(17),
      orderId: order.id,
      status: order.outcome === "pending" ? "PENDING" : "COMPLETED",
      currency,
      minor,
      refundedMinor: 0,
      createTime: time,
      updateTime: time,
    };
    captures.set(capture.id, capture);
    order.captureIds.push(capture.id);
    order.status = "COMPLETED";
    order.updateTime = time;
    const body = orderJson(order);
    if (key) idempotent.set(key, { status: 201, body });
    return { status: 201, body: shaped(body, request) };
  }

  function refundCapture(request: RecordedRequest, captureId: string): Reply {
    const key = request.requestId ? `${request.path} ${request.requestId}` : undefined;
    const seen = key ? idempotent.get(key) : undefined;
    // Payments v2 documents only 201 for this call, so a replay answers as the first did.
    if (seen)
      return { status: seen.status, body: shaped(seen.body as Record<string, unknown>, request) };

    const capture = captures.get(captureId);
    if (!capture) {
      return paypalError(404, "INVALID_RESOURCE_ID", {
        field: "capture_id",
        value: captureId,
        location: "path",
      });
    }
    if (request.body !== undefined && (typeof request.body !== "object" || request.body === null)) {
      return paypalError(400, "MALFORMED_REQUEST_JSON");
    }
    const input = (request.body ?? {}) as {
      amount?: { currency_code?: unknown; value?: unknown };
      note_to_payer?: unknown;
    };
    if (capture.status === "PENDING") return paypalError(422, "PENDING_CAPTURE");
    // Nothing was taken, so there is nothing to give back.
    if (capture.status === "DECLINED" || capture.status === "FAILED")
      return paypalError(422, "REFUND_NOT_ALLOWED");
    if (capture.refundRefusal) return paypalError(422, capture.refundRefusal);
    const remaining = capture.minor - capture.refundedMinor;
    if (remaining <= 0) return paypalError(422, "CAPTURE_FULLY_REFUNDED");
    let minor = remaining;
    if (input.amount !== undefined) {
      const { currency_code: currency, value } = input.amount;
      if (typeof currency !== "string" || typeof value !== "string") {
        return paypalError(400, "MISSING_REQUIRED_PARAMETER", { field: "/amount" });
      }
      if (currency !== capture.currency) {
        return paypalError(422, "REFUND_CAPTURE_CURRENCY_MISMATCH", {
          field: "/amount/currency_code",
          value: currency,
        });
      }
      const asked = toMinor(value, currency);
      if (asked === "syntax")
        return paypalError(400, "INVALID_PARAMETER_SYNTAX", { field: "/amount/value", value });
      if (asked === "precision")
        return paypalError(422, "DECIMAL_PRECISION", { field: "/amount/value", value });
      if (asked <= 0)
        return paypalError(422, "CANNOT_BE_ZERO_OR_NEGATIVE", { field: "/amount/value", value });
      if (asked > remaining)
        return paypalError(422, "REFUND_AMOUNT_EXCEEDED", { field: "/amount/value", value });
      minor = asked;
    }
    const refund: FakeRefund = {
      id: randomId(17),
      captureId,
      status: refundsPending ? "PENDING" : "COMPLETED",
      currency: capture.currency,
      minor,
      ...(request.requestId ? { requestId: request.requestId } : {}),
      ...(typeof input.note_to_payer === "string" ? { noteToPayer: input.note_to_payer } : {}),
      createTime: now(),
    };
    refunds.set(refund.id, refund);
    capture.refundedMinor += minor;
    capture.status = capture.refundedMinor >= capture.minor ? "REFUNDED" : "PARTIALLY_REFUNDED";
    capture.updateTime = refund.createTime;
    const body = refundJson(refund);
    if (key) idempotent.set(key, { status: 201, body });
    return { status: 201, body: shaped(body, request) };
  }

  function route(request: RecordedRequest): Reply {
    const { method, path } = request;
    if (path === "/v1/oauth2/token" && method === "POST") return issueToken(request);
    // Test control, for tests in another process than the fake (the e2e suite's browser tests).
    if (path === "/__fake/outcome" && method === "POST") {
      const query = new URLSearchParams(request.query);
      const outcome = query.get("outcome") as FakeOutcome | null;
      const target = query.get("order") ?? "next";
      if (!outcome) return { status: 400, body: { error: "outcome is required" } };
      if (target === "next") nextOutcome = outcome;
      else if (orders.has(target)) orders.get(target)!.outcome = outcome;
      else return { status: 404, body: { error: "no such order" } };
      return { status: 200, body: { ok: true } };
    }
    if (path === "/__fake/state" && method === "GET") {
      return {
        status: 200,
        body: {
          orders: orders.size,
          captures: [...captures.values()].map((capture) => ({
            id: capture.id,
            status: capture.status,
          })),
          refunds: [...refunds.values()].map((refund) => ({
            id: refund.id,
            captureId: refund.captureId,
          })),
          // Every refund call that reached "PayPal", repeats with the same request id included.
          refundCalls: requests
            .filter((seen) => seen.method === "POST" && /\/refund$/.test(seen.path))
            .map((seen) => ({ path: seen.path, requestId: seen.requestId ?? null })),
        },
      };
    }
    // Slow answers (ms), so that callers in another process overlap; 0 to stop.
    if (path === "/__fake/delay" && method === "POST") {
      delayMs = Number(new URLSearchParams(request.query).get("ms") ?? 0) || 0;
      return { status: 200, body: { ok: true } };
    }
    // The next request whose path starts with `path` is carried out, but its answer is lost.
    if (path === "/__fake/drop-next" && method === "POST") {
      dropNext = new URLSearchParams(request.query).get("path") ?? undefined;
      return { status: 200, body: { ok: true } };
    }
    if (path === "/checkoutnow" && method === "GET") {
      const order = orders.get(new URLSearchParams(request.query).get("token") ?? "");
      return order
        ? approveAsPayer(order)
        : { status: 404, html: "<p>This order does not exist.</p>" };
    }
    if (!path.startsWith("/v2/")) return { status: 404, html: "<p>Not found.</p>" };
    if (!authorised(request)) return paypalError(401, undefined);

    if (path === "/v2/checkout/orders" && method === "POST") return createOrder(request);
    let match = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
    if (match) {
      const id = decodeURIComponent(match[1] ?? "");
      if (match[2] && method === "POST") return captureOrder(request, id);
      if (!match[2] && method === "GET") {
        const order = ORDER_ID.test(id) ? orders.get(id) : undefined;
        if (!order)
          return paypalError(404, "INVALID_RESOURCE_ID", {
            field: "order_id",
            value: id,
            location: "path",
          });
        return { status: 200, body: orderJson(order) };
      }
    }
    match = /^\/v2\/payments\/captures\/([^/]+)(\/refund)?$/.exec(path);
    if (match) {
      const id = decodeURIComponent(match[1] ?? "");
      if (match[2] && method === "POST") return refundCapture(request, id);
      const capture = captures.get(id);
      if (!match[2] && method === "GET") {
        if (!capture)
          return paypalError(404, "INVALID_RESOURCE_ID", {
            field: "capture_id",
            value: id,
            location: "path",
          });
        return { status: 200, body: captureJson(capture) };
      }
    }
    match = /^\/v2\/payments\/refunds\/([^/]+)$/.exec(path);
    if (match && method === "GET") {
      const refund = refunds.get(decodeURIComponent(match[1] ?? ""));
      if (!refund)
        return paypalError(404, "INVALID_RESOURCE_ID", { field: "refund_id", location: "path" });
      return { status: 200, body: refundJson(refund) };
    }
    return paypalError(404, undefined);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const target = new URL(req.url ?? "/", "http://fake");
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : (value ?? ""),
      ]),
    );
    let body: unknown = text === "" ? undefined : text;
    let malformed = false;
    if (text !== "" && /json/i.test(headers["content-type"] ?? "")) {
      try {
        body = JSON.parse(text);
      } catch {
        malformed = true;
      }
    }
    const request: RecordedRequest = {
      method: req.method ?? "GET",
      path: target.pathname,
      query: target.search.replace(/^\?/, ""),
      headers,
      ...(headers["paypal-request-id"] ? { requestId: headers["paypal-request-id"] } : {}),
      body,
    };
    requests.push(request);

    // PayPal processes the first of two simultaneous requests with one PayPal-Request-Id "and
    // might fail the second": here it always does, as the refund API documents (409).
    const flight = request.requestId
      ? `${request.method} ${request.path} ${request.requestId}`
      : "";
    const duplicate = flight !== "" && inFlight.has(flight);
    if (flight && !duplicate) inFlight.add(flight);
    let reply: Reply;
    try {
      reply = malformed
        ? paypalError(400, "MALFORMED_REQUEST_JSON")
        : duplicate
          ? paypalError(409, "PREVIOUS_REQUEST_IN_PROGRESS")
          : route(request);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    } finally {
      if (flight && !duplicate) inFlight.delete(flight);
    }
    if (dropNext !== undefined && request.path.startsWith(dropNext)) {
      // The work is done but the answer is lost on the way back, as after a network timeout.
      dropNext = undefined;
      req.socket.destroy();
      return;
    }
    request.status = reply.status;
    if (res.destroyed) return;
    const debugId = (reply.body as { debug_id?: string } | undefined)?.debug_id;
    res.setHeader("paypal-debug-id", debugId ?? randomBytes(7).toString("hex").slice(0, 13));
    if (reply.location) {
      res.writeHead(reply.status, { location: reply.location }).end();
    } else if (reply.html !== undefined) {
      res.writeHead(reply.status, { "content-type": "text/html; charset=utf-8" }).end(reply.html);
    } else if (reply.body !== undefined) {
      res
        .writeHead(reply.status, { "content-type": "application/json" })
        .end(JSON.stringify(reply.body));
    } else {
      res.writeHead(reply.status).end();
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function order(id: string): FakeOrder {
    const found = orders.get(id);
    if (!found) throw new Error(`fake PayPal has no order ${id}`);
    return found;
  }

  return {
    /** base address, to use as PAYPAL_API_BASE */
    url,
    clientId,
    clientSecret,
    /** ready-made client settings for this fake */
    settings: { baseUrl: url, clientId, clientSecret },
    requests,
    orders,
    captures,
    refunds,
    /** recorded requests with this method whose path matches */
    requestsTo(method: string, path: RegExp | string): RecordedRequest[] {
      return requests.filter(
        (request) =>
          request.method === method &&
          (typeof path === "string" ? request.path === path : path.test(request.path)),
      );
    },
    /** Chooses what the payer does for an order, or for the next order created. */
    setOutcome(orderId: string | "next", outcome: FakeOutcome) {
      if (orderId === "next") nextOutcome = outcome;
      else order(orderId).outcome = outcome;
    },
    /**
     * The payer approves (or cancels, per the outcome) as with the JS buttons. Returns where the
     * approval page would send the browser, if anywhere.
     */
    approve(orderId: string): string | undefined {
      return approveAsPayer(order(orderId)).location;
    },
    /** Refunds from now on are PENDING (an eCheck not yet cleared) instead of COMPLETED. */
    makeRefundsPending(pending = true) {
      refundsPending = pending;
    },
    /**
     * PayPal finishes a PENDING refund: COMPLETED, or FAILED or CANCELLED, which gives the amount
     * back to the capture to refund again.
     */
    settleRefund(refundId: string, status: "COMPLETED" | "FAILED" | "CANCELLED") {
      const refund = refunds.get(refundId);
      if (!refund || refund.status !== "PENDING") throw new Error(`No pending refund ${refundId}`);
      refund.status = status;
      refund.updateTime = now();
      const capture = captures.get(refund.captureId);
      if (capture && status !== "COMPLETED") {
        capture.refundedMinor -= refund.minor;
        capture.status = capture.refundedMinor > 0 ? "PARTIALLY_REFUNDED" : "COMPLETED";
        capture.updateTime = refund.updateTime;
      }
    },
    /**
     * PayPal refuses from now on every refund of this capture, as it does one past its time limit
     * (REFUND_TIME_LIMIT_EXCEEDED) or one with an open case (TRANSACTION_DISPUTED); null lifts it
     * (the case is closed).
     */
    refuseRefunds(captureId: string, issue: NonNullable<FakeCapture["refundRefusal"]> | null) {
      const capture = captures.get(captureId);
      if (!capture) throw new Error(`fake PayPal has no capture ${captureId}`);
      if (issue) capture.refundRefusal = issue;
      else delete capture.refundRefusal;
    },
    /** Every access token handed out so far is rejected from now on (401). */
    expireTokens() {
      tokens.clear();
    },
    /** The next request whose path starts with this is carried out, but its answer is lost. */
    dropNextResponse(pathPrefix: string) {
      dropNext = pathPrefix;
    },
    /** Every answer waits this long (to make the client time out). */
    delayResponses(ms: number) {
      delayMs = ms;
    },
    /** Forgets every order, capture, refund, token, request and setting. */
    reset() {
      requests.length = 0;
      for (const map of [orders, captures, refunds, tokens, idempotent]) map.clear();
      nextOutcome = undefined;
      dropNext = undefined;
      delayMs = 0;
      refundsPending = false;
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** An id like PayPal's: upper-case letters and digits. */
function randomId(length: number): string {
  return [...randomBytes(length)].map((byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}
