import { Link } from "#app/components/link";
import type { Route } from "./+types/home";
import { EventCard } from "#app/components/event-card";
import { db } from "#app/db/client.server";
import { sharedEventsStartingFromNow } from "#app/services/events.server";
import { pageMeta } from "#app/components/meta";
import { PlaceholderImage } from "#app/components/pictures";
import { TestimonialCard } from "#app/components/testimonial-card";
import { organisation } from "#app/content/organisation";
import { testimonials } from "#app/content/testimonials";
import { HeroIllustration } from "#app/components/illustrations";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta(
    "Advocacy for Men's Health",
    "Free and low-cost PSA screening events for men aged 40 to 80 across Essex, Suffolk and London. Find an event and book a time.",
  );

/** The home page shows the first three testimonials and the next six events. */
const HOME_TESTIMONIALS = 3;
const HOME_EVENTS = 6;

export const headers = pipeHeaders;

export async function loader() {
  return { events: await sharedEventsStartingFromNow(db(), HOME_EVENTS) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="page-width hero__grid">
          <div>
            <h1 id="hero-title" className="hero__title">
              Advocacy for Men's Health
            </h1>
            <p className="hero__subtitle">Campaigning for Accessible PSA Screening</p>
            <p>
              A simple blood test can find prostate cancer early, when it is most treatable. We
              bring PSA screening to community halls, lodges and workplaces for men aged 40 to 80.
            </p>
            <Link className="button" to="/book-event-main">
              BOOK AN EVENT
            </Link>
          </div>
          <HeroIllustration />
        </div>
      </section>

      <section className="section" aria-labelledby="screening-title">
        <div className="page-width split">
          <div>
            <p className="eyebrow">Screening events</p>
            <h2 id="screening-title">PSA screening near you</h2>
            <p>
              At our events a nurse takes a small blood sample for a PSA test. It takes about five
              minutes. Your result comes to you privately, with a clear explanation of what it means
              and what to do next.
            </p>
            <div className="button-group">
              <Link className="button" to="/book-event-main">
                BOOK AN EVENT
              </Link>
              <Link className="button button--secondary" to={organisation.screeningEventPath}>
                READ MORE<span className="visually-hidden"> about PSA screening</span>
              </Link>
            </div>
          </div>
          <PlaceholderImage
            seed="screening-event"
            alt="Illustration: a screening event in a community hall"
          />
        </div>
      </section>

      <section
        className="section section--alt"
        aria-labelledby="upcoming-title"
        id="upcoming-events"
      >
        <div className="page-width">
          <h2 id="upcoming-title">UPCOMING EVENTS</h2>
          {loaderData.events.length === 0 ? (
            <p>New events are being arranged. Please check back soon.</p>
          ) : (
            <div className="card-grid">
              {loaderData.events.map((event) => (
                <EventCard key={event.id} event={event} />
              ))}
            </div>
          )}
          <Link className="button button--teal" to="/events">
            SEE MORE<span className="visually-hidden"> upcoming events</span>
          </Link>
        </div>
      </section>

      <section className="section" aria-labelledby="about-title">
        <div className="page-width split">
          <PlaceholderImage
            seed="about-mhat"
            alt="Illustration: volunteers welcoming men to an event"
          />
          <div>
            <p className="eyebrow">About {organisation.shortName}</p>
            <h2 id="about-title">A charity for men's health since {organisation.founded}</h2>
            <p>
              We were founded in {organisation.founded} by a retired urological surgeon. We campaign
              for a national prostate cancer screening programme and, until there is one, we run
              screening events across the UK.
            </p>
            <Link className="button button--secondary" to="/about-us#about-the-charity">
              READ MORE<span className="visually-hidden"> about {organisation.shortName}</span>
            </Link>
          </div>
        </div>
      </section>

      <section className="section section--sand" aria-labelledby="testimonials-title">
        <div className="page-width">
          <h2 id="testimonials-title">TESTIMONIALS</h2>
          <div className="card-grid">
            {testimonials.slice(0, HOME_TESTIMONIALS).map((testimonial) => (
              <TestimonialCard key={testimonial.content} testimonial={testimonial} />
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
