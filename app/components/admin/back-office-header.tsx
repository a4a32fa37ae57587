import { Link } from "#app/components/link";
import { organisation } from "#app/content/organisation";

/** The back office's own top bar: whose back office it is, and the way back to the public site. */
export function BackOfficeHeader() {
  return (
    <header className="back-office-header">
      <div className="back-office-header__inner">
        <Link to="/admin" className="back-office-header__title">
          {organisation.shortName} back office
        </Link>
        <Link to="/" className="back-office-header__site">
          Public website
        </Link>
      </div>
    </header>
  );
}
