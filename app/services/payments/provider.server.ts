import { config } from "#app/config.server";
import {
  createPayPalClient,
  paypalSettingsFromConfig,
  type PayPalClient,
  type PayPalSettings,
} from "./paypal.server";
import { createSimulatedProvider, type SimulatedProvider } from "./simulated.server";

/**
 * Who takes the money. The booking service speaks PayPal's Orders v2 language (create, approve,
 * capture, look up) to either provider:
 * - PayPal itself, when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are set;
 * - a simulated provider for demo and development, which takes no money. Its approval page is our
 *   own `/checkout/simulated?order=…`, clearly labelled "Test payment — no money is taken". It is
 *   refused in production (the configuration requires PayPal credentials there, and this module
 *   refuses to make one).
 */

export type PaymentProviderName = "paypal" | "simulated";

export interface PaymentProvider extends PayPalClient {
  readonly name: PaymentProviderName;
}

export function createPayPalProvider(settings: PayPalSettings): PaymentProvider {
  return { name: "paypal", ...createPayPalClient(settings) };
}

let current: PaymentProvider | undefined;

/**
 * The provider the site uses: PayPal with credentials, otherwise the simulated one (which the
 * configuration and `createSimulatedProvider` both refuse in production).
 */
export function paymentProvider(): PaymentProvider {
  if (!current) {
    const settings = paypalSettingsFromConfig(config());
    current = settings ? createPayPalProvider(settings) : createSimulatedProvider();
  }
  return current;
}

/** Replaces the provider (tests point it at the fake PayPal); undefined goes back to the configured one. */
export function setPaymentProvider(provider: PaymentProvider | undefined) {
  current = provider;
}

/** "paypal", or "simulated": pages then say "Test payment — no money is taken". */
export function paymentProviderName(): PaymentProviderName {
  return paymentProvider().name;
}

/** The simulated provider in use, or null when payments go to PayPal (the simulated page then answers 404). */
export function simulatedProvider(): SimulatedProvider | null {
  const provider = paymentProvider();
  return provider.name === "simulated" ? (provider as SimulatedProvider) : null;
}
