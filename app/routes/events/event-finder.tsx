import { useNavigation } from "react-router";
import { BookingHelpline } from "#app/components/helpline";
import { Link } from "#app/components/link";
import type { Route } from "./+types/event-finder";
import { EventCard } from "#app/components/event-card";
import { EventFilters } from "#app/components/event-filters";
import { EventMap } from "#app/components/event-map";
import { pageMeta } from "#app/components/meta";
import { config } from "#app/config.server";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import { readEventQueryLeniently } from "#app/domain/event-query";
import { postcodeArea } from "#app/domain/postcode-area";
import { notStartedBy, sharedUpcomingEvents } from "#app/services/events.server";
import { pipeHeaders } from "#app/utils/headers";
import { NEEDS_SCRIPTS } from "#app/utils/page-scripts";

export const meta = () =>
  pageMeta(
    "Book a screening event",
    "Find a PSA screening event near you by date, place or type, and book a time.",
  );

export const headers = pipeHeaders;
// The map needs scripts; the list and filters work without them.
export const handle = NEEDS_SCRIPTS;

export async function loader({ request }: Route.LoaderArgs) {
  const query = readEventQueryLeniently(new URL(request.url).searchParams);
  const now = new Date();
  const events = await sharedUpcomingEvents(db(), {
    categories: query.for,
    location: query.location,
    date: query.date,
  });
  // The map shows events that have not started yet and have a place on the map.
  const markers = events
    .filter((view) => view.latitude !== null && view.longitude !== null)
    .filter(notStartedBy(now))
    .map((view) => ({
      id: view.id,
      name: view.event_name,
      latitude: view.latitude!,
      longitude: view.longitude!,
    }));
  return { query, events, markers, tileUrl: config().MAP_TILE_URL };
}

export default function BookEventMain({ loaderData }: Route.ComponentProps) {
  const { query, events, markers, tileUrl } = loaderData;
  const navigation = useNavigation();
  const searching =
    navigation.state === "loading" && navigation.location?.pathname === "/book-event-main";
  const searched = Boolean(query.location || query.date || query.for.length > 0);
  const typedPostcode = postcodeArea(query.location);

  return (
    <section className="section">
      <div className="page-width">
        <h1>Book a screening event</h1>
        <div className="book-layout">
          <EventFilters query={query} found={searched ? events.length : null} />
          <ImportantNotice />
        </div>

        {/* Keyboard and screen-reader users can pass the map: every event on it is in the list. */}
        <a className="skip-map-link js-only" href="#results-title">
          Skip the map
        </a>
        <EventMap
          markers={markers}
          tileUrl={tileUrl}
          label="Map of upcoming events"
          size="finder"
        />
        <h2 id="results-title">Upcoming events</h2>
        {typedPostcode && (
          <p>
            Events in the {typedPostcode.area} postcode area, around {typedPostcode.postcode}.
          </p>
        )}
        <div aria-live="polite">
          {searching ? (
            <p className="loading" role="status">
              <span className="spinner" aria-hidden="true" /> Finding events…
            </p>
          ) : (
            <p className="visually-hidden" role="status">
              {foundMessage(events.length)}
            </p>
          )}
        </div>
        {events.length === 0 ? (
          <div className="inset">
            <p>No upcoming events found</p>
            {searched && (
              <p>
                <Link to="/book-event-main">See every upcoming event</Link>, or try another town or
                date.
              </p>
            )}
          </div>
        ) : (
          <section className="card-grid card-grid--two" aria-labelledby="results-title">
            {events.map((event) => (
              <EventCard key={event.id} event={event} />
            ))}
          </section>
        )}
      </div>
    </section>
  );
}

/** What the search found, said after each search (the status region announces it). */
function foundMessage(count: number): string {
  if (count === 0) return "No upcoming events found";
  return count === 1 ? "1 upcoming event found" : `${count} upcoming events found`;
}

function ImportantNotice() {
  return (
    <aside className="important" aria-labelledby="important-title">
      <h2 id="important-title">IMPORTANT - Please Read</h2>
      <ul>
        <li>Register with your e-mail address and a password first.</li>
        <li>
          Registering alone does not book you a place: choose an event and a time, answer the
          consent form, then click Complete booking. For a paid event, click Continue to payment and
          pay.
        </li>
        <li>
          If you do not receive a confirmation e-mail, you are not booked. Check your spam folder,
          then contact us.
        </li>
        <li>Use your full first names as on your birth certificate or passport.</li>
        <li>Check that your name and date of birth are correct.</li>
        <li>Your NHS number must be 10 digits, or the laboratory will reject your sample.</li>
        <li>
          Questions? E-mail{" "}
          <a href={`mailto:${organisation.emails.bookings}`}>{organisation.emails.bookings}</a>.{" "}
          <BookingHelpline lead="Or" />
        </li>
      </ul>
    </aside>
  );
}
