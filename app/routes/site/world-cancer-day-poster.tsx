import { BackLink } from "#app/components/back-link";
import { BrandMark } from "#app/components/site-header";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";

export const meta = () =>
  pageMeta(
    "World Cancer Day poster",
    "A free poster for World Cancer Day encouraging men aged 40 to 80 to know their PSA level.",
  );

export default function WorldCancerDayPoster() {
  const { booking } = organisation.phones;
  return (
    <section className="section">
      <div className="page-width">
        <BackLink to="/news">Back to News</BackLink>
        <h1>World Cancer Day poster</h1>
        <p>Print this page to put the poster up at your club, lodge or workplace.</p>
        <div className="poster">
          <div>
            <BrandMark />
            <p className="eyebrow">World Cancer Day, 4 February</p>
            <p className="hero__title">Men over 40: know your PSA.</p>
            <p>A simple blood test can find prostate cancer early, when it is most treatable.</p>
            <p>
              <strong>Book a test at a screening event near you.</strong>
              <br />
              Call {booking.display} or visit our website.
            </p>
            <p>
              {organisation.name}. Registered charity no. {organisation.charityNumber}.
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}
