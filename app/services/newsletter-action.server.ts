import { data } from "react-router";
import { db } from "#app/db/client.server";
import { formValues, isHoneypotFilled, parseForm } from "#app/domain/forms";
import {
  NEWSLETTER_MESSAGES,
  newsletterFormMessage,
  newsletterSchema,
} from "#app/domain/newsletter";
import { readForm } from "#app/utils/http.server";
import { logError, routeOf } from "./log.server";
import { requestNewsletterSubscription } from "./subscriptions.server";

export type NewsletterActionData = {
  form: "newsletter";
  status: "requested" | "invalid" | "error";
  message: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
};

/** The newsletter form on /news; the JSON twin is POST /api/subscriptions. */
export async function handleNewsletterSubmission(request: Request) {
  const formData = await readForm(request);
  const requested: NewsletterActionData = {
    form: "newsletter",
    status: "requested",
    message: NEWSLETTER_MESSAGES.success,
  };
  if (isHoneypotFilled(formData)) return data(requested);
  const parsed = parseForm(newsletterSchema, formValues(formData, ["intent"]));
  if (!parsed.ok) {
    const message = newsletterFormMessage(parsed.fieldErrors);
    return data<NewsletterActionData>(
      {
        form: "newsletter",
        status: "invalid",
        message,
        fieldErrors: parsed.fieldErrors,
        values: parsed.values,
      },
      { status: 400 },
    );
  }
  const values = { name: parsed.data.name, email: parsed.data.email };
  try {
    await requestNewsletterSubscription(db(), parsed.data);
    return data(requested);
  } catch (error) {
    logError(error, { route: routeOf(request), code: "newsletter_subscription_failed" });
    return data<NewsletterActionData>(
      { form: "newsletter", status: "error", message: NEWSLETTER_MESSAGES.unexpected, values },
      { status: 500 },
    );
  }
}
