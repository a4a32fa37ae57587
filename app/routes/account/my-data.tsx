import { Form, data, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/my-data";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import type { ConsentAnswers } from "#app/domain/consent";
import {
  CONSENT_ANSWER_FIELDS,
  CONSENT_LABELS,
  PSA_TEST_NUMBER_LABELS,
} from "#app/domain/consent-options";
import { formatLondonDateTime, formatLongDate } from "#app/domain/date-labels";
import { formatNhsNumber } from "#app/domain/nhs-number";
import { formatPounds } from "#app/domain/pricing";
import type { WaitlistStatus } from "#app/domain/waitlist";
import { SubmitButton } from "#app/components/form";
import { requireUser } from "#app/services/guards.server";
import {
  sendNewConfirmationLink,
  type NewConfirmationLinkOutcome,
} from "#app/services/sign-up.server";
import { readForm } from "#app/utils/http.server";
import { collectMyData, type MyData } from "#app/services/my-data.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { paymentRecordWords } from "#app/domain/payment-record-words";
import { FLAG_MEANINGS } from "#app/content/results";
import { psaInWords } from "#app/domain/psa-flag";

export const meta = () =>
  pageMeta("My data", "Everything we hold about you, to read here or download as a file.");

export const headers = pipeHeaders;

/** "Send me a new link": a new e-mail to confirm his address, the page saying it is on its way. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  await readForm(request);
  const outcome = await sendNewConfirmationLink(db(), {
    userId: user.id,
    email: user.email,
    headers: request.headers,
  });
  return data({ confirmation: outcome }, { headers: NO_STORE });
}

/** Everything held about the signed-in person (audited each time); never cached. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const myData = await collectMyData(db(), { userId: user.id }, "page");
  if (!myData) throw data(null, { status: 404 });
  return data({ myData }, { headers: NO_STORE });
}

const STATUS_WORDS: Record<string, string> = {
  held: "Time held, not booked",
  awaiting_payment: "Waiting for payment",
  confirmed: "Booked",
  expired: "Not completed",
  cancelled: "Cancelled",
};

const PAYMENT_WORDS: Record<string, string> = {
  not_required: "Free",
  unpaid: "Not paid",
  pending: "Payment being checked",
  paid: "Paid",
  refunded: "Refunded",
};

const WAITING_WORDS: Record<WaitlistStatus, string> = {
  waiting: "Waiting for a place",
  offered: "Offered a place",
  accepted: "Took the place offered",
  left: "Left the list",
  lapsed: "Offer not taken in time",
  closed: "Event cancelled",
};

const FLAG_WORDS = { green: "Green", amber: "Amber", red: "Red" } as const;

function Detail({ term, value }: { term: string; value: string | null | undefined }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value ? value : "Not given"}</dd>
    </>
  );
}

export default function MyDataPage({ loaderData, actionData }: Route.ComponentProps) {
  const { myData } = loaderData;
  return (
    <>
      <h1>My data</h1>
      <p className="lede">This is everything we hold about you.</p>
      <p>
        You can read it here, or download it as a file to keep or to give to someone else. The file
        is in a format called JSON, which other computer systems can read.
      </p>
      <p>
        <a className="button" href="/my-data.json" download>
          Download my data
        </a>
      </p>
      <p>
        If something is wrong, you can <Link to="/portal?edit">change your details</Link>. If you no
        longer want an account with us, you can <Link to="/delete-account">delete it</Link>.
      </p>
      <AccountSection myData={myData} />
      <BookingsSection myData={myData} />
      <ResultsSection myData={myData} />
      <ConsentSection myData={myData} />
      <WaitingListsSection myData={myData} />
      <MessagesSection myData={myData} confirmation={actionData?.confirmation ?? null} />
      <AuditSection myData={myData} />
    </>
  );
}

function AccountSection({ myData }: { myData: MyData }) {
  const { account, profile } = myData;
  return (
    <section aria-labelledby="account-title">
      <h2 id="account-title">Your account and details</h2>
      <dl className="event-details">
        <Detail term="Name on the account" value={account.name} />
        <Detail term="Email address for signing in" value={account.email} />
        <Detail term="Account made" value={formatLondonDateTime(account.createdAt)} />
        {profile && (
          <>
            <Detail term="Your ID" value={profile.reference} />
            <Detail term="First name" value={profile.firstName} />
            <Detail term="Last name" value={profile.lastName} />
            <Detail
              term="Date of birth"
              value={profile.dateOfBirth ? formatLongDate(profile.dateOfBirth) : null}
            />
            <Detail term="NHS number" value={formatNhsNumber(profile.nhsNumber)} />
            <Detail term="Gender" value={profile.gender} />
            <Detail term="Ethnicity" value={profile.ethnicity} />
            <Detail term="Occupation" value={profile.occupation} />
            <Detail term="Phone" value={profile.phone} />
            <Detail term="Email address" value={profile.email} />
            <Detail
              term="Home address"
              value={[
                profile.homeAddressLine1,
                profile.homeAddressLine2,
                profile.homePostcode,
                profile.homeCountry,
              ]
                .filter(Boolean)
                .join(", ")}
            />
            <Detail term="Billing address" value={profile.billingAddress} />
          </>
        )}
      </dl>
    </section>
  );
}

function BookingsSection({ myData }: { myData: MyData }) {
  return (
    <section aria-labelledby="bookings-title">
      <h2 id="bookings-title">Bookings and payments</h2>
      {myData.bookings.length === 0 ? (
        <p>You have not booked anything.</p>
      ) : (
        <ul className="plain-list">
          {myData.bookings.map((row) => (
            <li key={row.reference} className="card">
              <h3 className="card__title">{row.eventName}</h3>
              <dl className="event-details">
                <Detail term="Reference" value={row.reference} />
                <Detail
                  term="Appointment"
                  value={`${formatLongDate(row.eventDate)}, ${row.slotStart} to ${row.slotEnd}`}
                />
                <Detail term="Place" value={row.address} />
                <Detail term="Booking" value={STATUS_WORDS[row.status] ?? row.status} />
                <Detail
                  term="Payment"
                  value={`${PAYMENT_WORDS[row.paymentStatus] ?? row.paymentStatus}${
                    row.pricePence > 0 ? `, ${formatPounds(row.pricePence)}` : ""
                  }`}
                />
                {row.payments.map((payment, index) => (
                  <Detail
                    key={index}
                    term={`Payment record ${index + 1}`}
                    value={`${formatLondonDateTime(payment.at)}: ${paymentRecordWords(payment.kind, payment.status)}${
                      payment.amountPence !== null ? `, ${formatPounds(payment.amountPence)}` : ""
                    }`}
                  />
                ))}
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ResultsSection({ myData }: { myData: MyData }) {
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">Test results</h2>
      {myData.results.length === 0 ? (
        <p>We have not sent you any results.</p>
      ) : (
        <ul className="plain-list">
          {myData.results.map((result) => (
            <li key={result.bookingReference} className="card">
              <h3 className="card__title">{result.eventName}</h3>
              <dl className="event-details">
                <Detail term="Reference" value={result.bookingReference} />
                <Detail
                  term="Sample taken"
                  value={result.sampleDate ? formatLongDate(result.sampleDate) : null}
                />
                <Detail
                  term="PSA level"
                  value={result.value ? psaInWords(result.value, result.unit) : null}
                />
                <Detail term="Result" value={result.flag ? FLAG_WORDS[result.flag] : null} />
                {/* The words his results page gives: an Amber's "3 months" is the flag's own. */}
                <Detail
                  term="What it means"
                  value={result.flag ? FLAG_MEANINGS[result.flag](result.retestYears) : null}
                />
                <Detail term="Comments" value={result.comments} />
                <Detail term="Sent to you" value={formatLondonDateTime(result.releasedAt)} />
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function answerText(field: keyof ConsentAnswers, answers: ConsentAnswers): string | null {
  const value = answers[field];
  if (field === "numberOfPsaTest")
    return PSA_TEST_NUMBER_LABELS[String(value) as keyof typeof PSA_TEST_NUMBER_LABELS] ?? null;
  if (Array.isArray(value)) return value.length ? value.join(", ") : null;
  return value === null || value === undefined ? null : String(value);
}

const ANSWER_FIELDS = CONSENT_ANSWER_FIELDS satisfies readonly (keyof ConsentAnswers)[];

function ConsentSection({ myData }: { myData: MyData }) {
  return (
    <section aria-labelledby="consent-title">
      <h2 id="consent-title">Consent forms</h2>
      {myData.consents.length === 0 ? (
        <p>You have not filled in a consent form.</p>
      ) : (
        <ul className="plain-list">
          {myData.consents.map((row, index) => (
            <li key={index} className="card">
              <h3 className="card__title">
                Consent for the test on {formatLongDate(row.testDate)}
              </h3>
              <dl className="event-details">
                {row.bookingReference && <Detail term="Booking" value={row.bookingReference} />}
                <Detail term="Agreed" value={formatLondonDateTime(row.agreedAt)} />
                <Detail term="Wording version" value={row.wordingVersion} />
                <Detail
                  term="Results may be shared with your GP"
                  value={row.gpConsent ? "Yes" : "No"}
                />
                {row.answers ? (
                  ANSWER_FIELDS.map((field) => (
                    <Detail
                      key={field}
                      term={CONSENT_LABELS[field]}
                      value={answerText(field, row.answers!)}
                    />
                  ))
                ) : (
                  <Detail
                    term="Your answers"
                    value={
                      row.answersErasedAt
                        ? `Deleted (${formatLondonDateTime(row.answersErasedAt)}): we delete them once they are no longer needed`
                        : null
                    }
                  />
                )}
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function WaitingListsSection({ myData }: { myData: MyData }) {
  return (
    <section aria-labelledby="waiting-title">
      <h2 id="waiting-title">Waiting lists</h2>
      {myData.waitingLists.length === 0 ? (
        <p>You have not joined a waiting list.</p>
      ) : (
        <ul className="plain-list">
          {myData.waitingLists.map((row, index) => (
            <li key={index} className="card">
              <h3 className="card__title">
                {row.eventName}, {formatLongDate(row.eventDate)}
              </h3>
              <dl className="event-details">
                <Detail term="Joined" value={formatLondonDateTime(row.joinedAt)} />
                <Detail
                  term="Now"
                  value={WAITING_WORDS[row.status as WaitlistStatus] ?? row.status}
                />
                {row.offeredTime && <Detail term="Time offered" value={row.offeredTime} />}
                {row.offeredAt && (
                  <Detail term="Offered" value={formatLondonDateTime(row.offeredAt)} />
                )}
                {row.offerExpiresAt && (
                  <Detail
                    term="Offer open until"
                    value={formatLondonDateTime(row.offerExpiresAt)}
                  />
                )}
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MessagesSection({
  myData,
  confirmation,
}: {
  myData: MyData;
  /** what "Send me a new link" came to */
  confirmation: NewConfirmationLinkOutcome | null;
}) {
  const navigation = useNavigation();
  return (
    <section aria-labelledby="messages-title">
      <h2 id="messages-title">Newsletter and messages</h2>
      {!myData.account.emailVerified && (
        <div className="inset">
          <p>
            We find your newsletter sign-up and your messages by your email address once you have
            confirmed it, so that nobody else can see them. You have not confirmed yours yet: use
            the link in the email we sent you when you signed up.
          </p>
          <Form method="post">
            <SubmitButton busy={navigation.state === "submitting"} busyLabel="Sending...">
              Send me a new link
            </SubmitButton>
          </Form>
          <div role="status">
            {confirmation === "on-its-way" && (
              <p>
                A link to confirm your address is on its way to {myData.account.email}, or was sent
                in the last hour. It works for 24 hours. Please look in your inbox, and in your spam
                or junk folder. If none has come within the hour, ask again.
              </p>
            )}
            {confirmation === "already-confirmed" && (
              <p>Your email address is already confirmed.</p>
            )}
            {confirmation === "asked-recently" && (
              <p>
                You asked for a link a few minutes ago. Please look for it in your inbox, and in
                your spam or junk folder. You can ask for another one after 10 minutes.
              </p>
            )}
            {confirmation === "asked-often" && (
              <p>
                You have asked for several links in the last hour, so we will not send another just
                now. Please look for them in your inbox, and in your spam or junk folder, or ask
                again in an hour.
              </p>
            )}
          </div>
        </div>
      )}
      {myData.newsletter.length === 0 ? (
        <p>Your email address is not on our newsletter list.</p>
      ) : (
        myData.newsletter.map((row) => (
          <dl className="event-details" key={row.email}>
            <Detail term="Newsletter sent to" value={`${row.name}, ${row.email}`} />
            <Detail term="Joined" value={formatLondonDateTime(row.subscribedAt)} />
            <Detail
              term="Left"
              value={
                row.unsubscribedAt ? formatLondonDateTime(row.unsubscribedAt) : "Still on the list"
              }
            />
          </dl>
        ))
      )}
      {myData.enquiries.length === 0 ? (
        <p>We have no messages from you through our contact form.</p>
      ) : (
        <ul className="plain-list">
          {myData.enquiries.map((row, index) => (
            <li key={index} className="card">
              <h3 className="card__title">Message of {formatLondonDateTime(row.sentAt)}</h3>
              <dl className="event-details">
                <Detail term="From" value={`${row.firstName} ${row.lastName}`} />
                <Detail term="Email address" value={row.email} />
                <Detail term="Phone" value={row.phoneNumber} />
                <Detail term="Message" value={row.message} />
                <Detail term="Answered" value={row.handled ? "Yes" : "Not yet"} />
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AuditSection({ myData }: { myData: MyData }) {
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Who has looked at your details</h2>
      <p>
        We record each time our staff look at your details or results, and each time you look at
        this page.
      </p>
      {myData.auditEntries.length === 0 ? (
        <p>Nothing is recorded yet.</p>
      ) : (
        <ul>
          {myData.auditEntries.map((row, index) => (
            <li key={index}>
              {formatLondonDateTime(row.at)}: {row.byYou ? "you" : "our staff"}. {row.description}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
