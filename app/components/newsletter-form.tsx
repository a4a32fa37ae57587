import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { NewsletterActionData } from "#app/services/newsletter-action.server";
import { Honeypot, SubmitButton, TextField } from "./form";

/**
 * The newsletter sign-up. With JavaScript it sends in the background and keeps the page as it
 * is; without, it posts to the page and the answer comes back in `fallbackResult`.
 */
export function NewsletterForm({
  action,
  fallbackResult,
}: {
  action: string;
  fallbackResult?: NewsletterActionData;
}) {
  const fetcher = useFetcher<NewsletterActionData>({ key: "newsletter" });
  const result = fetcher.data ?? fallbackResult;
  const busy = fetcher.state !== "idle";
  const requested = result?.status === "requested";
  const values = requested ? {} : (result?.values ?? {});
  const errors = result?.fieldErrors ?? {};
  const formRef = useRef<HTMLFormElement>(null);

  // The spec clears name and e-mail after every successful subscription.
  useEffect(() => {
    if (fetcher.data?.status !== "requested" || !formRef.current) return;
    for (const name of ["name", "email"]) {
      const input = formRef.current.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
  }, [fetcher.data]);

  return (
    <fetcher.Form ref={formRef} method="post" action={action} noValidate className="form">
      <input type="hidden" name="intent" value="newsletter" />
      <input type="hidden" name="hear_about_event" value="true" />
      <Honeypot />
      <TextField
        name="name"
        label="Your name"
        autoComplete="name"
        defaultValue={values.name}
        error={errors.name}
      />
      <TextField
        name="email"
        type="email"
        label="Email address"
        autoComplete="email"
        spellCheck={false}
        defaultValue={values.email}
        error={errors.email}
      />
      <div aria-live="polite">
        {result && (
          <p
            className={`form-message form-message--${requested ? "success" : "error"}`}
            id="newsletter-message"
          >
            {result.message}
          </p>
        )}
      </div>
      <SubmitButton busy={busy} busyLabel="Submitting...">
        Subscribe
      </SubmitButton>
    </fetcher.Form>
  );
}
