import { Link } from "#app/components/link";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";

export const meta = () =>
  pageMeta(
    "Community screening",
    "PSA screening events in community halls, clubs and centres for men aged 40 to 80.",
  );

export default function CommunityScreening() {
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/events#community">Back to Events</BackLink>
        <h1>Community screening</h1>
        <p className="lede">
          Screening events close to home, run with local clubs, community groups and NHS Health
          Check teams.
        </p>
        <h2>What happens at an event</h2>
        <p>
          You book a time slot online and answer a few consent questions. At the event a volunteer
          welcomes you, and a nurse takes a small blood sample for your PSA test. It takes about
          five minutes. In Essex and Suffolk, some events also offer an NHS Health Check, a skin
          check, or cardiovascular and diabetes screening.
        </p>
        <h2>Your result</h2>
        <p>
          Your result comes to you privately, usually within two weeks. We use a simple
          traffic-light system: Green means a retest in 1, 2 or 3 years depending on your risk;
          Amber means a repeat test in 3 months; Red means please see your GP.
        </p>
        <h2>Hosting an event</h2>
        <p>
          If your club or community group would like to host an event, e-mail{" "}
          <a href={`mailto:${organisation.emails.events}`}>{organisation.emails.events}</a>. We
          provide the nurses, the equipment and the booking system; you provide the room and spread
          the word.
        </p>
        <Link className="button" to="/book-event-main?for=community">
          BOOK AN EVENT
        </Link>
      </div>
    </article>
  );
}
