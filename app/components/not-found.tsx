import { Link } from "#app/components/link";
import { organisation } from "#app/content/organisation";

export function NotFound() {
  return (
    <div className="page-width section not-found">
      <title>{`Error: Page not found | ${organisation.name}`}</title>
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>
        <span className="visually-hidden">404: </span>Page not found
      </h1>
      <p>Sorry, we couldn't find the page you're looking for.</p>
      <p>
        <Link className="button" to="/">
          Go back home
        </Link>
      </p>
    </div>
  );
}
