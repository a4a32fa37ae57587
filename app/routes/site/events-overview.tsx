import { Link } from "#app/components/link";
import type { Route } from "./+types/events-overview";
import { EventCard } from "#app/components/event-card";
import { db } from "#app/db/client.server";
import { sharedUpcomingEvents } from "#app/services/events.server";
import { pageMeta } from "#app/components/meta";
import { LogoTile, PlaceholderImage } from "#app/components/pictures";
import { organisation } from "#app/content/organisation";
import { patientJourneys } from "#app/content/patient-journeys";
import { grandLodges } from "#app/content/supporters";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta(
    "Events",
    "PSA screening events for community groups, freemason lodges and employers, and speakers for your club or workplace.",
  );

/** How many upcoming events the overview lists before pointing to the full search. */
const LISTED_EVENTS = 8;

export const headers = pipeHeaders;

export async function loader() {
  const events = await sharedUpcomingEvents(db(), {});
  return { events: events.slice(0, LISTED_EVENTS), total: events.length };
}

export default function Events({ loaderData }: Route.ComponentProps) {
  const freemasonStory = patientJourneys[0]!;
  return (
    <>
      <section className="section" aria-labelledby="events-title">
        <div className="page-width">
          <h1 id="events-title">Events</h1>
          <p className="lede">
            We bring PSA screening to the places men already go. Find an event to book, or ask us to
            come to your club, lodge or workplace.
          </p>
          <Link className="button" to="/book-event-main">
            BOOK AN EVENT
          </Link>
        </div>
      </section>

      <section className="section" aria-labelledby="upcoming-title">
        <div className="page-width">
          <h2 id="upcoming-title">Upcoming events</h2>
          {loaderData.events.length === 0 ? (
            <p>No upcoming events found</p>
          ) : (
            <div className="card-grid card-grid--two">
              {loaderData.events.map((event) => (
                <EventCard key={event.id} event={event} />
              ))}
            </div>
          )}
          <Link className="button button--secondary" to="/book-event-main">
            See all {loaderData.total} events and search by date or place
          </Link>
        </div>
      </section>

      <section className="section section--alt" id="community" aria-labelledby="community-title">
        <div className="page-width split">
          <div>
            <h2 id="community-title">COMMUNITY</h2>
            <p>
              Community screening events in village halls, sports clubs and community centres, open
              to men aged 40 to 80 who live nearby. Many are free, paid for by local fundraising.
            </p>
            <div className="button-group">
              <Link className="button button--secondary" to="/events/community-screening">
                LEARN MORE<span className="visually-hidden"> about community screening</span>
              </Link>
              <Link className="button" to="/book-event-main?for=community">
                BOOK AN EVENT<span className="visually-hidden">: community</span>
              </Link>
            </div>
          </div>
          <PlaceholderImage seed="community" alt="Illustration: a community hall" />
        </div>
      </section>

      <section className="section" id="freemason" aria-labelledby="freemason-title">
        <div className="page-width">
          <h2 id="freemason-title">FREEMASONS</h2>
          <p>
            Lodges have hosted our screening events since our earliest days, for their members,
            families and neighbours. Read how one lodge member's result led to early treatment.
          </p>
          <div className="button-group">
            <Link
              className="button button--secondary"
              to={`/news/patient-journey/${freemasonStory.id}`}
            >
              LEARN MORE<span className="visually-hidden">: {freemasonStory.title}</span>
            </Link>
            <Link className="button" to="/book-event-main?for=freemasons">
              BOOK AN EVENT<span className="visually-hidden">: freemasons</span>
            </Link>
          </div>
          <h3>Grand lodges who support us</h3>
          <ul className="logo-grid">
            {grandLodges.map((lodge) => (
              <li key={lodge}>
                <LogoTile name={lodge} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section--alt" id="corporate" aria-labelledby="corporate-title">
        <div className="page-width split">
          <PlaceholderImage seed="corporate" alt="Illustration: screening at a workplace" />
          <div>
            <h2 id="corporate-title">CORPORATE</h2>
            <p>
              Screening at your workplace for men aged 40 to 80. Each man has a private appointment
              with a nurse, and his result goes to him alone.
            </p>
            <div className="button-group">
              <Link className="button button--secondary" to="/events/corporate-screening">
                LEARN MORE<span className="visually-hidden"> about corporate screening</span>
              </Link>
              <Link className="button" to="/book-event-main?for=corporate">
                BOOK AN EVENT<span className="visually-hidden">: corporate</span>
              </Link>
            </div>
          </div>
        </div>
      </section>

      <section className="section" id="speaker" aria-labelledby="speaker-title">
        <div className="page-width">
          <h2 id="speaker-title">SPEAKER REQUESTS</h2>
          <p>
            Our speakers talk to clubs, lodges and workplaces about prostate cancer, the PSA test
            and men's health. E-mail{" "}
            <a href={`mailto:${organisation.emails.speakers}`}>{organisation.emails.speakers}</a> to
            book a talk.
          </p>
          <Link className="button button--secondary" to="/events/seminar-talks">
            Learn More<span className="visually-hidden"> about seminar talks</span>
          </Link>
        </div>
      </section>
    </>
  );
}
