import { organisation } from "#app/content/organisation";

/**
 * "Questions? Call our booking helpline on 01632 960 001." with the number as a link a phone can
 * ring: where a refusal or a failure leaves a man who would rather talk to someone.
 */
export function BookingHelpline({
  lead = "Questions?",
}: {
  lead?: "Questions?" | "Need help?" | "Or";
}) {
  const { booking } = organisation.phones;
  // "Questions? Call our …", but "Or call our …": the lead is a sentence of its own, or not.
  const call = lead.endsWith("?") ? "Call" : "call";
  return (
    <>
      {lead} {call} our {booking.label.toLowerCase()} on{" "}
      <a href={`tel:${booking.tel}`}>{booking.display}</a>.
    </>
  );
}
