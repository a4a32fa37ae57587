import { Link } from "#app/components/link";
import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";
import { REFUND_WITHIN_BUSINESS_DAYS } from "#app/domain/policy-notice";
import { CHANGE_TERMS, REFUND_TERMS, WORKING_DAYS_EXPLAINED } from "#app/domain/terms-general";

export const meta = () =>
  pageMeta(
    "Refund Policy",
    "How to cancel or change a paid screening booking, and when you get your money back.",
  );

export default function RefundPolicy() {
  return (
    <article className="section">
      <div className="page-width prose">
        <BackLink to="/">Back to the home page</BackLink>
        <h1>Refund Policy</h1>
        <p className="lede">You can cancel your appointment at any time before it takes place.</p>
        <h2>Cancelling</h2>
        <ul>
          <li>{REFUND_TERMS}</li>
          <li>
            Refunds are made within {REFUND_WITHIN_BUSINESS_DAYS} working days, to the card or
            PayPal account you paid with.
          </li>
        </ul>
        <h2>Changing your appointment</h2>
        <p>
          {CHANGE_TERMS} After that, please contact us. Your booking under{" "}
          <Link to="/my-bookings">My bookings</Link> shows the dates for your appointment.
        </p>
        <p>{WORKING_DAYS_EXPLAINED}</p>
        <h2>Self-test kits</h2>
        <p>Self-test kits cannot be refunded once sent.</p>
        <h2>How to cancel</h2>
        <p>
          Sign in and open <Link to="/my-bookings">My bookings</Link>: choose the booking, then
          &ldquo;Cancel booking&rdquo;. It tells you what you get back before you confirm.
        </p>
        <p>
          Or e-mail{" "}
          <a href={`mailto:${organisation.emails.bookings}`}>{organisation.emails.bookings}</a> or
          call our booking helpline on{" "}
          <a href={`tel:${organisation.phones.booking.tel}`}>
            {organisation.phones.booking.display}
          </a>
          .
        </p>
      </div>
    </article>
  );
}
