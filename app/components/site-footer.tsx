import { Link } from "#app/components/link";
import { footerLinks } from "#app/content/navigation";
import { organisation } from "#app/content/organisation";

export function SiteFooter() {
  const { address, phones, emails } = organisation;
  return (
    <footer className="site-footer">
      <div className="page-width site-footer__grid">
        <section aria-labelledby="footer-address">
          <h2 id="footer-address" className="site-footer__heading">
            {organisation.name}
          </h2>
          <address>
            {address.lines.map((line) => (
              <span key={line}>
                {line}
                <br />
              </span>
            ))}
            {address.postcode}
            <br />
            {address.country}
          </address>
        </section>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="site-footer__heading">
            Contact us
          </h2>
          <ul className="plain-list">
            {Object.values(phones).map((phone) => (
              <li key={phone.tel}>
                {phone.label}: <a href={`tel:${phone.tel}`}>{phone.display}</a>
              </li>
            ))}
            <li>
              Email: <a href={`mailto:${emails.info}`}>{emails.info}</a>
            </li>
          </ul>
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links" className="site-footer__heading">
            Quick links
          </h2>
          <ul className="plain-list">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="page-width site-footer__legal">
        <p>
          © {organisation.name}. Registered charity no. {organisation.charityNumber}.
        </p>
        <p>{organisation.supplierCredit}.</p>
      </div>
    </footer>
  );
}
