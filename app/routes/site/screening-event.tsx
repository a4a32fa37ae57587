import { Link } from "#app/components/link";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";

export const meta = () =>
  pageMeta(
    `${organisation.shortName} screening events`,
    "What happens at a PSA screening event, who it is for, and how your result reaches you.",
  );

export default function ScreeningEvent() {
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/">Back to the home page</BackLink>
        <h1>{organisation.shortName} screening events</h1>
        <p className="lede">
          A PSA blood test for men aged 40 to 80, close to home and with time to ask questions.
        </p>
        <h2>Who can come</h2>
        <p>
          Men aged 40 to 80. The NHS starts screening conversations at 50; men at higher risk,
          including Black men and men whose father or brother had prostate cancer, should be tested
          from 45 at the latest. If you are over 80, read our{" "}
          <Link to="/information-hub/elderly-psa-testing">guidance for older men</Link>.
        </p>
        <h2>Before the event</h2>
        <ol>
          <li>Create an account with your e-mail address and a password.</li>
          <li>Choose an event and a time slot, and complete the consent questions.</li>
          <li>Pay, if the event is a paid one. Many events are free.</li>
          <li>
            Look out for our confirmation e-mail. If it does not arrive, you are not booked: check
            your spam folder, then call us.
          </li>
        </ol>
        <div className="inset">
          <p>
            Use your full first names as on your birth certificate or passport, and check your date
            of birth. If you know your NHS number, enter all 10 digits: the laboratory rejects
            samples with a wrong number.
          </p>
        </div>
        <h2>At the event</h2>
        <p>
          A nurse takes a small blood sample from your arm. It takes about five minutes. Avoid
          vigorous exercise, especially cycling, and ejaculation for 48 hours before the test, as
          they can raise your PSA for a while.
        </p>
        <h2>Your result</h2>
        <ul>
          <li>
            <strong>Green</strong>: normal for your age. We suggest a retest in 1, 2 or 3 years
            depending on your risk.
          </li>
          <li>
            <strong>Amber</strong>: slightly raised. Please repeat the test in 3 months.
          </li>
          <li>
            <strong>Red</strong>: raised. Please see your GP, who can arrange further tests.
          </li>
        </ul>
        <Link className="button" to="/book-event-main">
          BOOK AN EVENT
        </Link>
      </div>
    </article>
  );
}
