import { BackLink } from "#app/components/back-link";
import { pageMeta } from "#app/components/meta";
import { organisation } from "#app/content/organisation";

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
          <li>
            If you give us <strong>more than 2 business days' notice</strong>, we refund 100% of
            what you paid, minus the payment processor's charges.
          </li>
          <li>
            If you cancel <strong>within 2 business days</strong> of your appointment, we cannot
            give a refund.
          </li>
          <li>Refunds are made within 14 business days, to the card or account you paid with.</li>
        </ul>
        <h2>Changing your appointment</h2>
        <p>
          You can change or cancel free of charge more than 48 hours ahead. To reschedule, please
          contact us at least 2 business days before your appointment. Same-day cancellations are
          charged in full.
        </p>
        <h2>Self-test kits</h2>
        <p>Self-test kits cannot be refunded once sent.</p>
        <h2>How to cancel</h2>
        <p>
          E-mail{" "}
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
