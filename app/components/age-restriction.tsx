import { Link } from "#app/components/link";
import { BookingHelpline } from "#app/components/helpline";
import { organisation } from "#app/content/organisation";

/**
 * The spec's words for the age dialogs and notices: events are for people aged 40 to 80 only;
 * then, for a man past 80, where to read about PSA testing at his age (no dead end).
 */
export function AgeRestrictionText() {
  return (
    <>
      <p>
        {organisation.shortName} events are for people aged between 40 and 80 only. Please do not
        register or book if you are outside this age group. If you have any questions, e-mail{" "}
        <a href={`mailto:${organisation.emails.bookings}`}>{organisation.emails.bookings}</a>.
      </p>
      <p>
        <BookingHelpline lead="Or" />
      </p>
      <OverEightyPointer />
    </>
  );
}

/** Where a man past 80 reads about PSA testing at his age: wherever his age turns him away. */
export function OverEightyPointer() {
  return (
    <p>
      Over 80? Read <Link to="/information-hub/elderly-psa-testing">PSA testing after 80</Link> for
      what to do instead, or talk to your GP.
    </p>
  );
}
