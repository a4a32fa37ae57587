import { Link } from "#app/components/link";
import type { Route } from "./+types/about-us";
import { ContactForm } from "#app/components/contact-form";
import { ExpandableText } from "#app/components/expandable-text";
import { pageMeta } from "#app/components/meta";
import { InitialsAvatar, LogoTile } from "#app/components/pictures";
import { aboutCards, getInvolvedCards } from "#app/content/about";
import { organisation } from "#app/content/organisation";
import { supporters } from "#app/content/supporters";
import { team } from "#app/content/team";
import { TRUNCATE } from "#app/domain/truncate";
import { handleContactSubmission } from "#app/services/contact-action.server";

export const meta = () =>
  pageMeta(
    `About ${organisation.shortName}`,
    `Who we are, what we do and why: the ${organisation.name}, its team, its supporters, and how to contact us.`,
  );

export async function action({ request }: Route.ActionArgs) {
  return handleContactSubmission(request);
}

export default function AboutUs({ actionData }: Route.ComponentProps) {
  const executives = team.filter((member) => member.group === "Executive Team");
  const trustees = team.filter((member) => member.group !== "Executive Team");
  const { phones, address } = organisation;

  return (
    <>
      <section className="section" id="about-the-charity" aria-labelledby="about-title">
        <div className="page-width">
          <h1 id="about-title">ABOUT {organisation.shortName}</h1>
          <p className="lede">
            The {organisation.name} has helped men find out about their prostate health since{" "}
            {organisation.founded}.
          </p>
          <div className="card-grid">
            {aboutCards.map((card) => (
              <article key={card.title} className="card card--feature">
                <h2 className="card__title">{card.title}</h2>
                <ExpandableText text={card.body} limit={TRUNCATE.aboutCard} subject={card.title} />
              </article>
            ))}
          </div>
          <Link className="button" to="/book-event-main">
            BOOK AN EVENT
          </Link>
        </div>
      </section>

      <section className="section section--alt" id="our-team" aria-labelledby="team-title">
        <div className="page-width">
          <h2 id="team-title">Meet the Team</h2>
          <h3>Executive Team</h3>
          <ul className="card-grid">
            {executives.map((member) => (
              <li key={member.name} className="card person">
                <InitialsAvatar name={member.name} />
                <span>
                  <span className="person__name">{member.name}</span>
                  <span className="person__role">{member.title}</span>
                </span>
              </li>
            ))}
          </ul>
          <h3>Trustees and Clinical Advisory Board</h3>
          <ul className="plain-list">
            {trustees.map((member) => (
              <li key={member.name}>
                <strong>{member.name}</strong>, {member.title}
              </li>
            ))}
          </ul>
          {/* Initials stand in for photographs of the team until the charity supplies them. */}
        </div>
      </section>

      <section className="section" id="our-supporters" aria-labelledby="supporters-title">
        <div className="page-width">
          <h2 id="supporters-title">Our Supporters</h2>
          <p>
            We could not do our work without the clubs, lodges, employers and community groups who
            support us.
          </p>
          <ul className="logo-grid">
            {supporters.map((name) => (
              <li key={name}>
                <LogoTile name={name} />
              </li>
            ))}
          </ul>
          <Link className="button button--teal" to="/support-us#become-a-supporter">
            Become a Supporter
          </Link>
        </div>
      </section>

      <section className="section section--sand" id="get-involved" aria-labelledby="involved-title">
        <div className="page-width">
          <h2 id="involved-title">Get Involved</h2>
          <div className="card-grid">
            {getInvolvedCards.map((card) => (
              <article key={card.title} className="card">
                <h3 className="card__title">{card.title}</h3>
                <ExpandableText
                  text={card.body}
                  limit={TRUNCATE.getInvolved}
                  subject={card.title}
                />
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="section" id="contact" aria-labelledby="contact-title">
        <div className="page-width split">
          <div>
            <h2 id="contact-title">Contact us</h2>
            <p>
              Send us a message and we will reply by e-mail or phone, usually within two working
              days.
            </p>
            {/* No #contact in the address: a browser skips autofocus on a page opened at a fragment,
                and the answer's summary or thanks takes focus (and comes into view) by it. */}
            <ContactForm result={actionData} action="/about-us" />
          </div>
          <div>
            <h3>Other ways to reach us</h3>
            <ul className="plain-list">
              <li>
                {phones.medical.label}:{" "}
                <a href={`tel:${phones.medical.tel}`}>{phones.medical.display}</a>
              </li>
              <li>
                {phones.events.label}:{" "}
                <a href={`tel:${phones.events.tel}`}>{phones.events.display}</a>
              </li>
            </ul>
            <h3>Write to us</h3>
            <address>
              {organisation.name}
              <br />
              {address.lines.join(", ")}
              <br />
              {address.postcode}, {address.country}
            </address>
          </div>
        </div>
      </section>
    </>
  );
}
