import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { enquiry } from "#app/db/schema";
import type { ContactForm } from "#app/domain/contact-form";
import { organisation } from "#app/content/organisation";
import { enqueueEmail } from "./email.server";

/**
 * Stores an enquiry and queues the staff notification in the same transaction. The e-mail says
 * only that an enquiry is waiting, with a link to it in the back office: people write about their
 * health in the message, and an inbox is outside the back office's access control, audit and
 * retention, so nothing they typed goes into it (D-211).
 */
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
      subject: "New website enquiry",
      text: [
        `A new enquiry came through the ${organisation.shortName} website contact form.`,
        "",
        "Read it and answer it in the back office:",
        `${config().publicBaseUrl}/admin/enquiries#enquiry-${row!.id}`,
        "",
        "What the enquirer wrote is kept there, not in this e-mail, for their privacy.",
      ].join("\n"),
    });
    return row!;
  });
}
