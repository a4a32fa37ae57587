import type { Db } from "#app/db/client.server";
import { enquiry } from "#app/db/schema";
import type { ContactForm } from "#app/domain/contact-form";
import { organisation } from "#app/content/organisation";
import { enqueueEmail } from "./email.server";

/** Stores an enquiry and queues the staff notification in the same transaction. */
export async function createEnquiry(db: Db, form: ContactForm, staffEmail: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(enquiry)
      .values({
        firstName: form["first-name"],
        lastName: form["last-name"],
        email: form.email,
        phoneNumber: form["phone-number"],
        message: form.message,
      })
      .returning();
    await enqueueEmail(tx, {
      to: staffEmail,
      replyTo: form.email,
      subject: `Website enquiry from ${form["first-name"]} ${form["last-name"]}`,
      text: [
        `A new enquiry came through the ${organisation.shortName} website contact form.`,
        "",
        `Name: ${form["first-name"]} ${form["last-name"]}`,
        `Email: ${form.email}`,
        `Phone: ${form["phone-number"]}`,
        "",
        "Message:",
        form.message,
        "",
        "Reply to this e-mail to answer the enquirer directly.",
      ].join("\n"),
    });
    return row!;
  });
}
