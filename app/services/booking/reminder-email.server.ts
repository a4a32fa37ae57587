import { organisation } from "#app/content/organisation";
import { changeTerms } from "#app/domain/cancellation-policy";
import { formatLongDate } from "#app/domain/date-labels";
import { bookingTermsSentences } from "#app/domain/terms-wording";
import { NHS_NUMBER_LAB } from "#app/domain/eligibility";
import { enqueueEmail, type OutgoingEmail } from "../email.server";
import type { Reminder, ReminderChannel } from "./reminder-channel.server";

/**
 * The reminder e-mail: when, where, what to bring and how to change or cancel. Like the
 * confirmation it carries no health data (no answers, no results, no NHS number).
 */
export function reminderEmail({
  booking: view,
  person,
  manageUrl,
  policy,
}: Reminder): OutgoingEmail {
  const helpline = organisation.phones.booking;
  const date = formatLongDate(view.eventDate);
  const lines = [
    `Hello ${person.firstName},`,
    "",
    "This is a reminder of your screening appointment.",
    "",
    `Booking reference: ${view.reference}`,
    `Event: ${view.eventName}`,
    `Date: ${date}`,
    `Time: ${view.slotStart} to ${view.slotEnd} (UK time). Please arrive a few minutes early.`,
    `Address: ${view.address}`,
    "",
    "Before you come",
    ...view.whatToBring.map((item) => `- ${item}`),
    "",
  ];
  if (view.needsNhsNumber)
    lines.push(
      `Your NHS number: the laboratory for this event (${NHS_NUMBER_LAB}) rejects a sample without your correct 10-digit NHS number. Please check that your profile has it.`,
      "",
    );
  lines.push(
    "Changing or cancelling",
    // Worked out now: once changing is closed, it says so and never invites a change.
    ...bookingTermsSentences(policy),
    changeTerms(policy).allowed
      ? `To see, change or cancel your booking, open this link: ${manageUrl}`
      : `To see or cancel your booking, open this link: ${manageUrl}`,
    `Or call our ${helpline.label.toLowerCase()} on ${helpline.display}, quoting your booking reference.`,
    "",
    organisation.name,
  );
  return {
    to: person.email,
    subject: `Reminder: your ${organisation.shortName} screening appointment on ${date}`,
    text: lines.join("\n"),
  };
}

/** Reminders by e-mail, queued in the outbox in the job's transaction. */
export const emailReminderChannel: ReminderChannel = {
  name: "email",
  async send(tx, reminder) {
    await enqueueEmail(tx, reminderEmail(reminder));
  },
};
