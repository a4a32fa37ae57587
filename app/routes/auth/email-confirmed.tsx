import { Link } from "#app/components/link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";
import { pipeHeaders } from "#app/utils/headers";
import type { Route } from "./+types/email-confirmed";

export const headers = pipeHeaders;

export const meta = () =>
  pageMeta("Confirming your email address", "Confirming your email address.");

/**
 * Where the link in the sign-up e-mail leads, often opened in the phone's mail app rather than
 * the browser he signed up in: it says whether the address is confirmed, and what to do next.
 * The sign-in service adds `?error=` (an out-of-date or damaged link); no one is signed in by it.
 */
export function loader({ request }: Route.LoaderArgs) {
  return { failed: new URL(request.url).searchParams.has("error") };
}

export default function EmailConfirmed({ loaderData }: Route.ComponentProps) {
  const { booking } = organisation.phones;
  return (
    <section className="section">
      <div className="page-width prose">
        {loaderData.failed ? (
          <>
            <h1>This link did not work</h1>
            <div className="warning" role="status">
              <p>
                It may be out of date, or only part of it was opened. Your account still works: you
                can sign in and book as before.
              </p>
            </div>
            <p>
              Your email address is not confirmed yet. For a new link, sign in and open{" "}
              <Link to="/login?redirectTo=%2Fmy-data">My data</Link>, then choose “Send me a new
              link”. If you need help, call our {booking.label.toLowerCase()} on{" "}
              <a href={`tel:${booking.tel}`}>{booking.display}</a>.
            </p>
          </>
        ) : (
          <>
            <h1>Your email address is confirmed</h1>
            <div className="success-panel" role="status">
              <p>Thank you. You do not need to do anything else.</p>
            </div>
          </>
        )}
        <p>
          <Link className="button" to="/login?redirectTo=%2Fportal">
            Sign in to your account
          </Link>
        </p>
        <p>
          <Link to="/book-event-main">Find a screening event</Link>
        </p>
      </div>
    </section>
  );
}
