import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import {
  PayPalButtons,
  PayPalScriptProvider,
  usePayPalScriptReducer,
} from "@paypal/react-paypal-js";
import { useNonce } from "./nonce";

/**
 * PayPal's own buttons (GBP, capture, en_GB), in the browser only. The order is created and
 * captured by our server, priced from the booking; the browser sends only the booking reference.
 */
export default function CheckoutPayPalButtons({
  clientId,
  reference,
  onUnavailable,
}: {
  clientId: string;
  reference: string;
  onUnavailable: () => void;
}) {
  const nonce = useNonce();
  return (
    <PayPalScriptProvider
      options={{
        clientId,
        currency: "GBP",
        intent: "capture",
        locale: "en_GB",
        dataCspNonce: nonce,
      }}
    >
      <Buttons reference={reference} onUnavailable={onUnavailable} />
    </PayPalScriptProvider>
  );
}

/** How long PayPal's script may take before the page offers its own button instead. */
const SDK_WAIT_MS = 10_000;

function Buttons({ reference, onUnavailable }: { reference: string; onUnavailable: () => void }) {
  const [{ isRejected, isPending }] = usePayPalScriptReducer();
  const navigate = useNavigate();
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (isRejected) onUnavailable();
  }, [isRejected, onUnavailable]);
  // A script that neither loads nor fails (a slow or stalled connection) must not leave him
  // looking at "Loading PayPal…" for ever.
  useEffect(() => {
    if (!isPending) return;
    const timer = setTimeout(onUnavailable, SDK_WAIT_MS);
    return () => clearTimeout(timer);
  }, [isPending, onUnavailable]);
  if (isRejected) return null;

  return (
    <div className="paypal-buttons">
      {isPending && <p className="loading">Loading PayPal…</p>}
      {message && (
        <p className="warning" role="alert">
          {message}
        </p>
      )}
      <PayPalButtons
        style={{ layout: "vertical", shape: "rect", height: 48 }}
        createOrder={async () => {
          setMessage(null);
          const response = await fetch("/api/payments/orders", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ reference }),
          });
          const body = (await response.json()) as { id?: string; error?: string };
          if (!response.ok || !body.id) {
            const reason = body.error ?? "Unexpected error occurred, please try again.";
            setMessage(`Could not initiate PayPal Checkout...${reason}`);
            throw new Error(reason);
          }
          return body.id;
        }}
        onApprove={async (approval) => {
          const response = await fetch(
            `/api/payments/orders/${encodeURIComponent(approval.orderID)}/capture`,
            { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" },
          );
          const body = (await response.json()) as {
            outcome?: string;
            message?: string;
            next?: string;
            error?: string;
          };
          if (body.next) {
            void navigate(body.next);
            return;
          }
          setMessage(body.message ?? body.error ?? "Unexpected error occurred, please try again.");
        }}
        onError={() =>
          setMessage(
            "Sorry, your transaction could not be processed. Please try again later or with a different payment card.",
          )
        }
      />
    </div>
  );
}
