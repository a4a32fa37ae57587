import { Link } from "#app/components/link";
import { pageMeta } from "#app/components/meta";

export const meta = () =>
  pageMeta("Your account has been deleted", "Your account has been deleted.");

/** Where deleting an account ends: signed out, and told plainly what happened. */
export default function AccountDeleted() {
  return (
    <section className="section">
      <div className="page-width prose">
        <h1>Your account has been deleted</h1>
        <div className="success-panel" role="status">
          <p>Your account and your personal details have been deleted, and you are signed out.</p>
        </div>
        <p>
          If we sent you test results, we keep them apart, with only what identifies them, for as
          long as the law asks a clinic to, and then delete them too.
        </p>
        <p>
          You are always welcome back. To book a test in the future, you can{" "}
          <Link to="/signup">make a new account</Link>.
        </p>
        <p>
          <Link to="/">Go to the home page</Link>
        </p>
      </div>
    </section>
  );
}
