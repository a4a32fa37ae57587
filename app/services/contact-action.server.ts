import { data } from "react-router";
import type { ContactActionData } from "#app/components/contact-form";
import { config } from "#app/config.server";
import { db } from "#app/db/client.server";
import { CONTACT_THANK_YOU, contactFormSchema } from "#app/domain/contact-form";
import { formValues, isHoneypotFilled, parseForm } from "#app/domain/forms";
import { readForm } from "#app/utils/http.server";
import { createEnquiry } from "./enquiries.server";

/** Handles a contact-form submission from any page that shows the form. */
export async function handleContactSubmission(request: Request) {
  const formData = await readForm(request);
  const sent: ContactActionData = { form: "contact", status: "sent", message: CONTACT_THANK_YOU };
  if (isHoneypotFilled(formData)) return data(sent);
  const parsed = parseForm(contactFormSchema, formValues(formData, ["intent"]));
  if (!parsed.ok) {
    return data<ContactActionData>(
      {
        form: "contact",
        status: "invalid",
        fieldErrors: parsed.fieldErrors,
        values: parsed.values,
      },
      { status: 400 },
    );
  }
  await createEnquiry(db(), parsed.data, config().STAFF_NOTIFY_EMAIL);
  return data(sent);
}
