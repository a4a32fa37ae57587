import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";

export const meta = () =>
  pageMeta(
    "Support us",
    "Pledge £100 to fund PSA screening for men in your community, volunteer, or fundraise for us.",
  );

export default function SupportUs() {
  const { emails, phones } = organisation;
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/about-us#our-supporters">Back to About Us</BackLink>
        <h1>Support us</h1>
        <p className="lede">
          Help us take PSA screening to every community, until there is a national programme.
        </p>
        <h2>Pledge £100</h2>
        <p>
          Our screening project is planned initially for 3 years. A pledge of 100 pounds pays for
          screening for several men at a community event, including laboratory analysis and a nurse
          to explain each result.
        </p>
        <section id="become-a-supporter" className="inset" aria-labelledby="become-title">
          <h2 id="become-title">BECOME A SUPPORTER</h2>
          <p>
            To make a pledge or become a supporter, e-mail{" "}
            <a
              href={`mailto:${emails.info}?subject=${encodeURIComponent("I would like to become a supporter")}`}
            >
              {emails.info}
            </a>{" "}
            or call <a href={`tel:${phones.general.tel}`}>{phones.general.display}</a>. We will send
            you a supporter pack and set up your gift in the way that suits you.
          </p>
          <p>
            <a
              className="button"
              href={`mailto:${emails.info}?subject=${encodeURIComponent("I would like to become a supporter")}`}
            >
              BECOME A SUPPORTER
            </a>
          </p>
        </section>
        <section id="donate" aria-labelledby="donate-title">
          <h2 id="donate-title">Donate</h2>
          <p>
            Every gift helps. £25 pays for one man's PSA test and its analysis. If you are a UK
            taxpayer, Gift Aid adds 25p to every pound you give. To give by phone, call{" "}
            <a href={`tel:${phones.general.tel}`}>{phones.general.display}</a>.
          </p>
        </section>
        <h2>Other ways to help</h2>
        <ul>
          <li>Host a screening event at your club, lodge or workplace.</li>
          <li>Volunteer at events near you.</li>
          <li>Share our posters and this website with the men in your life.</li>
        </ul>
      </div>
    </article>
  );
}
