import { Link } from "#app/components/link";

/**
 * "Go Back": a real link to the page above this one, so it works on a shared link, after a
 * reload and without JavaScript (the old site's history-back did none of these).
 */
export function BackLink({ to, children = "Go Back" }: { to: string; children?: React.ReactNode }) {
  return (
    <Link className="back-link" to={to}>
      {children}
    </Link>
  );
}
