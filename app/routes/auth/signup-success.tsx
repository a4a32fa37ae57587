import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/signup-success";
import { pageMeta } from "#app/components/meta";
import { safeRedirect } from "#app/domain/redirect";
import { getSessionUser } from "#app/services/session.server";
import { pipeHeaders } from "#app/utils/headers";
import { NEEDS_SCRIPTS } from "#app/utils/page-scripts";

export const meta = () => pageMeta("Signup Successful", "Your account has been created.");

/** The spec's pause before returning people to where they came from. */
const REDIRECT_SECONDS = 3;

export const headers = pipeHeaders;
// The spec's return after 3 seconds, with a way to stay (WCAG 2.2.1), needs scripts.
export const handle = NEEDS_SCRIPTS;
export async function loader({ request }: Route.LoaderArgs) {
  return {
    redirectTo: safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/"),
    // Not signed in: the address had an account already, and the e-mail says how to sign in.
    signedIn: (await getSessionUser(request)) !== null,
  };
}

export default function SignupSuccess({ loaderData }: Route.ComponentProps) {
  const navigate = useNavigate();
  const [secondsLeft, setSecondsLeft] = useState<number | null>(REDIRECT_SECONDS);
  useEffect(() => {
    if (secondsLeft === null) return;
    if (secondsLeft <= 0) {
      void navigate(loaderData.redirectTo, { replace: true });
      return;
    }
    const timer = setTimeout(() => setSecondsLeft(secondsLeft - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft, navigate, loaderData.redirectTo]);

  return (
    <section className="section">
      <div className="page-width narrow">
        <div className="success-panel" tabIndex={-1}>
          <p>Signup Successful!</p>
        </div>
        {loaderData.signedIn ? (
          <>
            <h1>Your account is ready</h1>
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
          </>
        )}
        <p>Creating an account does not book a screening: choose an event and a time to book.</p>
        {secondsLeft !== null && (
          <p className="js-only">
            You will go back in {secondsLeft} seconds.{" "}
            <button
              type="button"
              className="button button--link"
              onClick={() => setSecondsLeft(null)}
            >
              Stay on this page
            </button>
          </p>
        )}
        <p>
          If you are not taken there, <Link to={loaderData.redirectTo}>click here</Link>.
        </p>
      </div>
    </section>
  );
}
