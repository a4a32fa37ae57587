import { Form, useNavigation } from "react-router";
import type { FieldErrors } from "#app/domain/form-basics";
import { ErrorSummary, Honeypot, SubmitButton, TextArea, TextField } from "./form";

export type ContactActionData =
  | { form: "contact"; status: "sent"; message: string }
  | {
      form: "contact";
      status: "invalid";
      fieldErrors: FieldErrors;
      values: Record<string, string>;
    };

/**
 * The enquiry form. It posts to the page it sits on, so it works with JavaScript off. Its rules
 * (and Zod) stay on the server; the messages come back in `result`.
 */
export function ContactForm({ result, action }: { result?: ContactActionData; action: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "contact";
  const invalid = result?.status === "invalid" ? result : undefined;
  const values = invalid?.values ?? {};
  const errors = invalid?.fieldErrors ?? {};

  return (
    <div>
      {result?.status === "sent" && (
        // Focused, so that the thanks is read out and in view after the page comes back.
        <div className="success-panel" role="status" tabIndex={-1} autoFocus>
          <p>{result.message}</p>
        </div>
      )}
      <ErrorSummary errors={errors} />
      {/* A new key after sending clears the fields; a failed send keeps what was typed. */}
      <Form
        method="post"
        action={action}
        noValidate
        className="form"
        key={result?.status === "sent" ? "sent" : "form"}
      >
        <input type="hidden" name="intent" value="contact" />
        <Honeypot />
        <TextField
          name="first-name"
          label="First name"
          autoComplete="given-name"
          defaultValue={values["first-name"]}
          error={errors["first-name"]}
        />
        <TextField
          name="last-name"
          label="Last name"
          autoComplete="family-name"
          defaultValue={values["last-name"]}
          error={errors["last-name"]}
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
        <TextField
          name="phone-number"
          type="tel"
          label="Phone number"
          hint="For example, 01632 960 001"
          autoComplete="tel"
          className="input--width-20"
          defaultValue={values["phone-number"]}
          error={errors["phone-number"]}
        />
        <TextArea
          name="message"
          label="Your message"
          defaultValue={values.message}
          error={errors.message}
        />
        <SubmitButton busy={busy}>Send enquiry</SubmitButton>
      </Form>
    </div>
  );
}
