import { organisation } from "#app/content/organisation";

/** The spec's words for the age dialogs and notices: events are for people aged 40 to 80 only. */
export function AgeRestrictionText() {
  return (
    <p>
      {organisation.shortName} events are for people aged between 40 and 80 only. Please do not
      register or book if you are outside this age group. If you have any questions, e-mail{" "}
      <a href={`mailto:${organisation.emails.bookings}`}>{organisation.emails.bookings}</a>.
    </p>
  );
}
