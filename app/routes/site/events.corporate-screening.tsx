import { Link } from "#app/components/link";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";

export const meta = () =>
  pageMeta(
    "Corporate screening",
    "PSA screening at your workplace for men aged 40 to 80, from a minimum of 40 employees per session.",
  );

export default function CorporateScreening() {
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/events#corporate">Back to Events</BackLink>
        <h1>Corporate screening</h1>
        <p className="lede">
          Bring PSA screening to your workplace, so that your staff can look after their health
          without taking a day off.
        </p>
        <h2>How it works</h2>
        <ol>
          <li>You choose a date and a room. We agree the number of sessions with you.</li>
          <li>Your staff book their own time slot online and complete a short consent form.</li>
          <li>
            On the day, our nurses take a small blood sample from each man. Each appointment takes
            about five minutes.
          </li>
          <li>
            Each man receives his result privately. We never share individual results with
            employers.
          </li>
        </ol>
        <h2>Who it is for</h2>
        <p>
          Men aged 40 to 80. We need a minimum of 40 employees per session; smaller groups are
          possible in London. Some sessions can include cardiovascular and diabetes checks.
        </p>
        <h2>Booking for corporate-only events</h2>
        <p>
          Events booked by an employer for its own staff stay open for booking until they end, so
          your team can book late, even on the day. Public events close 24 hours before they end.
        </p>
        <div className="inset">
          <p>
            To talk about a date, e-mail{" "}
            <a href={`mailto:${organisation.emails.events}`}>{organisation.emails.events}</a> or
            call{" "}
            <a href={`tel:${organisation.phones.events.tel}`}>
              {organisation.phones.events.display}
            </a>
            .
          </p>
        </div>
        <Link className="button" to="/book-event-main?for=corporate">
          BOOK AN EVENT
        </Link>
      </div>
    </article>
  );
}
