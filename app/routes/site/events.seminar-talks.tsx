import { BackLink } from "#app/components/back-link";
import { ExpandableText } from "#app/components/expandable-text";
import { pageMeta } from "#app/components/meta";
import { PlaceholderImage } from "#app/components/pictures";
import { organisation } from "#app/content/organisation";
import { TRUNCATE } from "#app/domain/truncate";

export const meta = () =>
  pageMeta(
    "Seminar talks",
    "Book a speaker to talk to your club, lodge or workplace about prostate cancer and men's health.",
  );

const talkDescription =
  "Our speakers include nurses, doctors and men who have been through prostate cancer themselves. A typical talk lasts 30 to 45 " +
  "minutes, with time for questions. We cover what the prostate does, the signs that mean you should see your GP, what the PSA " +
  "test can and cannot tell you, and why men at higher risk, including Black men and men with a family history, should think " +
  "about testing from 45 at the latest. Talks can be given in person across Essex, Suffolk and London, or online anywhere in the " +
  "UK. There is no charge, though many hosts choose to hold a collection for the charity.";

export default function SeminarTalks() {
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/events#speaker">Back to Events</BackLink>
        <h1>Seminar talks</h1>
        <p className="lede">
          A friendly, plain-spoken talk about prostate health for your members or staff.
        </p>
        <ExpandableText
          text={talkDescription}
          limit={TRUNCATE.aboutCard}
          subject="our seminar talks"
        />
        {/* A recording of a talk goes here once the charity has one we can host ourselves. */}
        <PlaceholderImage
          seed="seminar-video"
          alt="Illustration: a speaker in front of an audience"
        />
        <h2>Book a speaker</h2>
        <p>
          E-mail{" "}
          <a href={`mailto:${organisation.emails.speakers}`}>{organisation.emails.speakers}</a> with
          your organisation's name, a few possible dates and roughly how many people will attend. If
          you would like to see what a talk covers first, ask us for a copy of the slides.
        </p>
      </div>
    </article>
  );
}
