import { z } from "zod";
import type { Config } from "#app/config.server";
import { PAYER_DECLINE_ISSUES } from "#app/domain/capture-errors";

/**
 * A thin, typed client for the four PayPal calls the site makes: create an order, capture it,
 * look it up, refund a capture (Orders v2 and Payments v2). PayPal's server SDK fixes its base
 * address per environment, so it cannot be pointed at the local fake the tests use; this file is
 * small enough to own. It holds no database access: the booking service decides what a result
 * means for a booking.
 */

export const PAYPAL_BASE_URLS = {
  sandbox: "https://api-m.sandbox.paypal.com",
  production: "https://api-m.paypal.com",
} as const;

export interface PayPalSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** how long to wait for PayPal before giving up (default 20 s) */
  timeoutMs?: number;
  /** the clock, for tests of token expiry */
  now?: () => number;
}

/** PAYPAL_API_BASE wins, so tests can point the site at a local fake; otherwise PayPal's own. */
export function paypalBaseUrl(env: keyof typeof PAYPAL_BASE_URLS, override?: string): string {
  return (override || PAYPAL_BASE_URLS[env]).replace(/\/+$/, "");
}

/**
 * Settings from the validated configuration, or undefined when no credentials are set (the site
 * then uses its simulated provider, never in production).
 */
export function paypalSettingsFromConfig(
  config: Pick<
    Config,
    "PAYPAL_CLIENT_ID" | "PAYPAL_CLIENT_SECRET" | "PAYPAL_ENV" | "PAYPAL_API_BASE"
  >,
): PayPalSettings | undefined {
  if (!config.PAYPAL_CLIENT_ID || !config.PAYPAL_CLIENT_SECRET) return undefined;
  return {
    baseUrl: paypalBaseUrl(config.PAYPAL_ENV ?? "sandbox", config.PAYPAL_API_BASE),
    clientId: config.PAYPAL_CLIENT_ID,
    clientSecret: config.PAYPAL_CLIENT_SECRET,
  };
}

// ---- money ---------------------------------------------------------------------------------------

/** PayPal wants "12.50"; we hold pence. String arithmetic, so no floating point ever touches it. */
export function penceToValue(pence: number): string {
  if (!Number.isSafeInteger(pence) || pence < 0) {
    throw new RangeError(`An amount in pence must be a whole number of 0 or more: ${pence}`);
  }
  const digits = String(pence).padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** The reverse of penceToValue, exactly ("19.99" is 1999, where 19.99 * 100 is not). */
export function valueToPence(value: string): number {
  const match = /^(\d*)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match || (match[1] === "" && match[2] === undefined)) {
    throw new RangeError(`Not an amount with at most two decimals: "${value}"`);
  }
  const pence = Number(match[1] || "0") * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(pence)) throw new RangeError(`Amount too large: "${value}"`);
  return pence;
}

// ---- what PayPal answers (only the fields we read; anything else passes through) ---------------

const linkSchema = z.looseObject({
  href: z.string(),
  rel: z.string(),
  method: z.string().optional(),
});
const moneySchema = z.looseObject({ currency_code: z.string(), value: z.string() });

const orderStatuses = [
  "CREATED",
  "SAVED",
  "APPROVED",
  "VOIDED",
  "COMPLETED",
  "PAYER_ACTION_REQUIRED",
] as const;
const captureStatuses = [
  "COMPLETED",
  "DECLINED",
  "PARTIALLY_REFUNDED",
  "PENDING",
  "REFUNDED",
  "FAILED",
] as const;
const refundStatuses = ["CANCELLED", "FAILED", "PENDING", "COMPLETED"] as const;

const captureSchema = z.looseObject({
  id: z.string(),
  status: z.enum(captureStatuses),
  status_details: z.looseObject({ reason: z.string().optional() }).optional(),
  amount: moneySchema,
});
const orderSchema = z.looseObject({
  id: z.string(),
  status: z.enum(orderStatuses),
  links: z.array(linkSchema).default([]),
  purchase_units: z
    .array(
      z.looseObject({
        reference_id: z.string().optional(),
        amount: moneySchema.optional(),
        payments: z.looseObject({ captures: z.array(captureSchema).optional() }).optional(),
      }),
    )
    .optional(),
});
const refundSchema = z.looseObject({
  id: z.string(),
  status: z.enum(refundStatuses),
  amount: moneySchema,
});
const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
});
const errorSchema = z.looseObject({
  name: z.string().optional(),
  message: z.string().optional(),
  debug_id: z.string().optional(),
  details: z
    .array(z.looseObject({ issue: z.string(), description: z.string().optional() }))
    .optional(),
  links: z.array(linkSchema).optional(),
  /** OAuth errors from the token endpoint use these two instead */
  error: z.string().optional(),
  error_description: z.string().optional(),
});

export type PayPalLink = z.infer<typeof linkSchema>;
export type PayPalOrderStatus = (typeof orderStatuses)[number];
export type PayPalCaptureStatus = (typeof captureStatuses)[number];
export type PayPalRefundStatus = (typeof refundStatuses)[number];

export interface PayPalCapture {
  id: string;
  /** COMPLETED confirms a booking; PENDING keeps the place until PayPal settles it */
  status: PayPalCaptureStatus;
  /** why a capture is PENDING or DECLINED, e.g. PENDING_REVIEW */
  statusReason?: string;
  amountPence: number;
  currency: string;
}

export interface PayPalOrder {
  id: string;
  status: PayPalOrderStatus;
  links: PayPalLink[];
  referenceId?: string;
  amountPence?: number;
  /** the capture of the (only) purchase unit, once there is one */
  capture?: PayPalCapture;
}

export interface PayPalRefund {
  id: string;
  status: PayPalRefundStatus;
  amountPence: number;
  currency: string;
}

// ---- errors ----------------------------------------------------------------------------------

/**
 * PayPal said no. `name` is PayPal's (e.g. UNPROCESSABLE_ENTITY), `issue` the first detail's
 * (e.g. INSTRUMENT_DECLINED). Quote `debugId` to PayPal support.
 */
export class PayPalError extends Error {
  readonly status: number;
  readonly issue: string | undefined;
  readonly description: string;
  readonly debugId: string | undefined;
  /** a decline the payer can put right (INSTRUMENT_DECLINED, say): send him back to approve again */
  readonly recoverable: boolean;
  readonly links: PayPalLink[];

  constructor(init: {
    status: number;
    name: string;
    issue?: string | undefined;
    description: string;
    debugId?: string | undefined;
    links?: PayPalLink[];
  }) {
    const recoverable = init.issue !== undefined && PAYER_DECLINE_ISSUES.has(init.issue);
    const debug = init.debugId ? ` (${init.debugId})` : "";
    super(
      recoverable
        ? `Recoverable payment error ${init.issue}: ${init.description}${debug}`
        : `Non-recoverable error: ${init.description}${debug}`,
    );
    this.name = init.name;
    this.status = init.status;
    this.issue = init.issue;
    this.description = init.description;
    this.debugId = init.debugId;
    this.recoverable = recoverable;
    this.links = init.links ?? [];
  }
}

/**
 * No answer from PayPal (refused connection, reset, timeout). The call may or may not have
 * happened there: repeat it with the same request id, and PayPal will not do it twice.
 */
export class PayPalNetworkError extends Error {
  readonly timedOut: boolean;
  constructor(cause: unknown) {
    super("No response from PayPal", { cause });
    this.name = "PayPalNetworkError";
    this.timedOut = cause instanceof Error && cause.name === "TimeoutError";
  }
}

// ---- the client ------------------------------------------------------------------------------

export interface CreateOrderInput {
  /** our id for the booking hold; PayPal shows it in reports and echoes it back */
  referenceId: string;
  /** shown to the payer; PayPal allows 127 characters, so longer text is cut */
  description: string;
  amountPence: number;
  currency: "GBP";
  /** where PayPal sends the payer after approving (no-JavaScript flow) */
  returnUrl: string;
  /** where PayPal sends the payer who cancels */
  cancelUrl: string;
  /** idempotency key: the same id returns the same order instead of a second one */
  requestId: string;
  /** the name the payer sees on PayPal instead of the account's business name */
  brandName?: string;
}

export interface PayPalClient {
  createOrder(input: CreateOrderInput): Promise<PayPalOrder>;
  captureOrder(orderId: string, options: { requestId: string }): Promise<PayPalOrder>;
  getOrder(orderId: string): Promise<PayPalOrder>;
  refundCapture(
    captureId: string,
    options: { requestId: string; amountPence?: number; noteToPayer?: string },
  ): Promise<PayPalRefund>;
  /** A refund as PayPal has it now: a PENDING one becomes COMPLETED, FAILED or CANCELLED later. */
  getRefund(refundId: string): Promise<PayPalRefund>;
}

/** The payer's way to PayPal: `payer-action` for orders made with an experience context, else `approve`. */
export function approvalUrl(order: { links: readonly PayPalLink[] }): string | undefined {
  return (
    order.links.find((link) => link.rel === "payer-action")?.href ??
    order.links.find((link) => link.rel === "approve")?.href
  );
}

const ORDER_ID = /^[A-Z0-9]{1,36}$/;
const PAYMENT_ID = /^[A-Za-z0-9]{1,64}$/;

export function createPayPalClient(settings: PayPalSettings): PayPalClient {
  const baseUrl = settings.baseUrl.replace(/\/+$/, "");
  const timeoutMs = settings.timeoutMs ?? 20_000;
  const now = settings.now ?? Date.now;
  let cached: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function send(path: string, init: RequestInit) {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        ...init,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new PayPalNetworkError(error);
    }
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, ok: response.ok, headers: response.headers, json };
  }

  function errorFrom(answer: Awaited<ReturnType<typeof send>>): PayPalError {
    const parsed = errorSchema.safeParse(answer.json);
    const body = parsed.success ? parsed.data : {};
    const detail = body.details?.[0];
    return new PayPalError({
      status: answer.status,
      name: body.name ?? body.error ?? `HTTP_${answer.status}`,
      issue: detail?.issue,
      description:
        detail?.description ??
        body.error_description ??
        body.message ??
        `PayPal answered HTTP ${answer.status}`,
      debugId: body.debug_id ?? answer.headers.get("paypal-debug-id") ?? undefined,
      links: body.links ?? [],
    });
  }

  function parse<T>(schema: z.ZodType<T>, answer: Awaited<ReturnType<typeof send>>): T {
    const parsed = schema.safeParse(answer.json);
    if (parsed.success) return parsed.data;
    throw new PayPalError({
      status: answer.status,
      name: "UNEXPECTED_RESPONSE",
      description: `PayPal's answer was not in the expected shape: ${parsed.error.issues
        .map((issue) => `${issue.path.join(".")} ${issue.message}`)
        .join("; ")}`,
      debugId: answer.headers.get("paypal-debug-id") ?? undefined,
    });
  }

  /**
   * One token for every call until shortly before it expires (PayPal's last nine hours), and one
   * request for it however many calls start at once.
   */
  function accessToken(): Promise<string> {
    if (cached && now() < cached.renewAt) return Promise.resolve(cached.token);
    pending ??= (async () => {
      try {
        const answer = await send("/v1/oauth2/token", {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
          },
          body: "grant_type=client_credentials",
        });
        if (!answer.ok) throw errorFrom(answer);
        const token = parse(tokenSchema, answer);
        const lifetime = token.expires_in * 1000;
        cached = {
          token: token.access_token,
          renewAt: now() + lifetime - Math.min(60_000, lifetime / 2),
        };
        return token.access_token;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  }

  /**
   * A call with the cached token. PayPal can revoke a token early, so a 401 gets one new token
   * and one repeat, with the same request id so the repeat cannot act twice.
   */
  async function call<T>(
    method: "GET" | "POST",
    path: string,
    schema: z.ZodType<T>,
    options: { body?: unknown; requestId?: string } = {},
  ): Promise<T> {
    const attempt = async (token: string) =>
      send(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(method === "POST"
            ? { "content-type": "application/json", prefer: "return=representation" }
            : {}),
          ...(options.requestId ? { "paypal-request-id": options.requestId } : {}),
        },
        ...(method === "POST" ? { body: JSON.stringify(options.body ?? {}) } : {}),
      });
    const token = await accessToken();
    let answer = await attempt(token);
    if (answer.status === 401) {
      if (cached?.token === token) cached = undefined;
      answer = await attempt(await accessToken());
    }
    if (!answer.ok) throw errorFrom(answer);
    return parse(schema, answer);
  }

  function toCapture(capture: z.infer<typeof captureSchema>): PayPalCapture {
    return {
      id: capture.id,
      status: capture.status,
      ...(capture.status_details?.reason ? { statusReason: capture.status_details.reason } : {}),
      amountPence: valueToPence(capture.amount.value),
      currency: capture.amount.currency_code,
    };
  }

  function toOrder(order: z.infer<typeof orderSchema>): PayPalOrder {
    const unit = order.purchase_units?.[0];
    const capture = unit?.payments?.captures?.[0];
    return {
      id: order.id,
      status: order.status,
      links: order.links,
      ...(unit?.reference_id ? { referenceId: unit.reference_id } : {}),
      ...(unit?.amount ? { amountPence: valueToPence(unit.amount.value) } : {}),
      ...(capture ? { capture: toCapture(capture) } : {}),
    };
  }

  function checkId(id: string, pattern: RegExp, what: string) {
    // An id comes back from the browser (?token=...); never let it reshape the path.
    if (!pattern.test(id)) {
      throw new PayPalError({
        status: 404,
        name: "RESOURCE_NOT_FOUND",
        issue: "INVALID_RESOURCE_ID",
        description: `Not a PayPal ${what} id`,
      });
    }
  }

  function checkRequestId(requestId: string) {
    // PayPal keeps request ids of up to 108 characters.
    if (requestId.length < 1 || requestId.length > 108) {
      throw new RangeError("A PayPal-Request-Id must be 1 to 108 characters");
    }
  }

  /** The truth after a lost answer, a return from PayPal, or ORDER_ALREADY_CAPTURED. */
  async function getOrder(orderId: string): Promise<PayPalOrder> {
    checkId(orderId, ORDER_ID, "order");
    return toOrder(await call("GET", `/v2/checkout/orders/${orderId}`, orderSchema));
  }

  return {
    /**
     * Prices come from our booking hold, never the browser. The experience context carries the
     * return and cancel addresses, so the same order works with the JS buttons and, without
     * JavaScript, by redirecting to approvalUrl(order).
     */
    async createOrder(input) {
      if (!Number.isSafeInteger(input.amountPence) || input.amountPence <= 0) {
        throw new RangeError("An order needs a positive amount in pence");
      }
      checkRequestId(input.requestId);
      const order = await call("POST", "/v2/checkout/orders", orderSchema, {
        requestId: input.requestId,
        body: {
          intent: "CAPTURE",
          purchase_units: [
            {
              reference_id: input.referenceId,
              ...(input.referenceId.length <= 127 ? { custom_id: input.referenceId } : {}),
              description: [...input.description].slice(0, 127).join(""),
              amount: { currency_code: input.currency, value: penceToValue(input.amountPence) },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                ...(input.brandName ? { brand_name: input.brandName.slice(0, 127) } : {}),
                locale: "en-GB",
                shipping_preference: "NO_SHIPPING",
                user_action: "PAY_NOW",
                payment_method_preference: "IMMEDIATE_PAYMENT_REQUIRED",
                return_url: input.returnUrl,
                cancel_url: input.cancelUrl,
              },
            },
          },
        },
      });
      return toOrder(order);
    },

    /**
     * Takes the money once the payer has approved. Retrying after a network error must reuse the
     * request id (PayPal then replays the first answer); a new attempt after a recoverable
     * decline needs a new one. ORDER_ALREADY_CAPTURED is thrown as is: look the order up with
     * getOrder and use its capture.
     */
    async captureOrder(orderId, { requestId }) {
      checkId(orderId, ORDER_ID, "order");
      checkRequestId(requestId);
      const order = toOrder(
        await call("POST", `/v2/checkout/orders/${orderId}/capture`, orderSchema, {
          requestId,
        }),
      );
      // A minimal answer (if PayPal ignored Prefer) has no captures: read them from the order.
      if (order.status === "COMPLETED" && !order.capture) return getOrder(orderId);
      return order;
    },

    getOrder,

    /**
     * Gives money back (cancelled events). Without an amount PayPal refunds what is left of the
     * capture. The request id makes a retried refund refund once.
     */
    async refundCapture(captureId, { requestId, amountPence, noteToPayer }) {
      checkId(captureId, PAYMENT_ID, "capture");
      checkRequestId(requestId);
      if (amountPence !== undefined && (!Number.isSafeInteger(amountPence) || amountPence <= 0)) {
        throw new RangeError("A refund needs a positive amount in pence");
      }
      const refund = await call("POST", `/v2/payments/captures/${captureId}/refund`, refundSchema, {
        requestId,
        body: {
          ...(amountPence !== undefined
            ? { amount: { currency_code: "GBP", value: penceToValue(amountPence) } }
            : {}),
          ...(noteToPayer ? { note_to_payer: noteToPayer.slice(0, 255) } : {}),
        },
      });
      return toRefund(refund);
    },

    async getRefund(refundId) {
      checkId(refundId, PAYMENT_ID, "refund");
      return toRefund(await call("GET", `/v2/payments/refunds/${refundId}`, refundSchema));
    },
  };
}

function toRefund(refund: z.infer<typeof refundSchema>): PayPalRefund {
  return {
    id: refund.id,
    status: refund.status,
    amountPence: valueToPence(refund.amount.value),
    currency: refund.amount.currency_code,
  };
}
