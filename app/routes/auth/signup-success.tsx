import { Link } from "#app/components/link";
import type { Route } from "./+types/signup-success";
import { pageMeta } from "#app/components/meta";
import { safeRedirect } from "#app/domain/redirect";
import { getSessionUser } from "#app/services/session.server";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () => pageMeta("Signup Successful", "Your account has been created.");

export const headers = pipeHeaders;
/**
 * The spec's page moved on by itself after 3 seconds; this one waits for him (D-210): a man who
 * reads slowly, or whose large text puts the words below the first screen, never loses the page
 * before he has read it. No script is needed.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return {
    redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/"),
    // Not signed in: the address had an account already, and the e-mail says how to sign in.
    signedIn: (await getSessionUser(request)) !== null,
  };
}

export default function SignupSuccess({ loaderData }: Route.ComponentProps) {
  const { redirectTo, signedIn } = loaderData;
  return (
    <section className="section">
      <div className="page-width narrow">
        <div className="success-panel">
          <p>Signup Successful!</p>
        </div>
        {signedIn ? (
          <>
            <h1>Your account is ready</h1>
            <p>
              <Link className="button" to={redirectTo}>
                Continue
              </Link>
            </p>
            <p>
              You are signed in, and can carry on. We have also sent you a confirmation e-mail: open
              the link in it to confirm your address when it suits you. If it has not arrived, check
              your spam folder.
            </p>
          </>
        ) : (
          <>
            <h1>We have sent you an e-mail</h1>
            <p>
              If you already had an account with this e-mail address, the e-mail tells you how to
              sign in. If it has not arrived, check your spam folder.
            </p>
            <p>
              <Link className="button" to={redirectTo}>
                Continue
              </Link>
            </p>
          </>
        )}
        <p>Creating an account does not book a screening: choose an event and a time to book.</p>
      </div>
    </section>
  );
}
