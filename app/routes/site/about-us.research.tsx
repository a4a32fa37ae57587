import { Link } from "#app/components/link";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { statistics2023 } from "#app/content/statistics";

export const meta = () =>
  pageMeta(
    "Research summary 2023",
    "What a year of community PSA screening taught us, and what it means for a national screening programme.",
  );

export default function Research() {
  const s = statistics2023;
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/about-us">Back to About Us</BackLink>
        <h1>Research summary 2023</h1>
        <p className="lede">
          Our screening events are also a source of evidence for a national screening programme.
        </p>
        <h2>What we did</h2>
        <p>
          In 2023 we tested {s.tests.toLocaleString("en-GB")} men aged 40 to 80 at community, lodge
          and workplace events. Results were judged against age-related thresholds: at or above 1.00
          ng/ml for men in their forties and at or above 2.00 ng/ml for men in their fifties.
        </p>
        <h2>What we found</h2>
        <ul>
          <li>
            {s.abnormal} men ({s.abnormalPercent}%) had an abnormal result, close to the 8% we
            expect.
          </li>
          <li>
            {s.cancers} cancers were diagnosed. {s.radicalTreatment} men had radical treatment and{" "}
            {s.activeSurveillance} were placed on active surveillance.
          </li>
          <li>About 1 in 4 abnormal results led to a diagnosis of cancer.</li>
        </ul>
        <h2>What it means</h2>
        <p>
          Most of the cancers we found were in men with no symptoms, who would not otherwise have
          been tested. This supports our case for a national programme that invites men from 50, and
          men at higher risk from 45 at the latest.
        </p>
        <p>
          <Link to="/information-hub/statistics">See the statistics as charts</Link>
        </p>
      </div>
    </article>
  );
}
