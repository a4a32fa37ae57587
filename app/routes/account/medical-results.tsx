import { data } from "react-router";
import { organisation } from "#app/content/organisation";
import { FLAG_MEANINGS, RAISED_RESULT_ADVICE } from "#app/content/results";
import { Link } from "#app/components/link";
import type { Route } from "./+types/medical-results";
import {
  CalendarIcon,
  CheckIcon,
  ResultAmberIcon,
  ResultGreenIcon,
  ResultRedIcon,
} from "#app/components/icons";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLongDate } from "#app/domain/date-labels";
import { londonDate } from "#app/domain/london-time";
import {
  listAppointmentsAndResults,
  type AppointmentWithResult,
} from "#app/services/booking/appointments.server";
import { requireUser } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { correctionDates } from "#app/services/results-admin.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { daysBetween } from "#app/domain/calendar-date";
import { psaInWords } from "#app/domain/psa-flag";

export const meta = () => pageMeta("Medical results", "Your medical results and appointments.");

export const headers = pipeHeaders;

export const RESULTS_MESSAGES = {
  none: "No medical results or any appointment found",
  failed: `We could not load your results just now. Please try again in a few minutes, or call our ${organisation.phones.medical.label.toLowerCase()} line on ${organisation.phones.medical.display}.`,
  notFound: "Not Found",
  notAvailable: "N/A",
  ready: "Lab result ready",
  notReady: "No lab result",
  /** A test taken whose result is not back: calm, and when to expect it. */
  pending: "Your result is not back yet",
  pendingWhen:
    "Most results come back within two weeks of the test. Yours will appear here as soon as it is ready.",
  /** Three weeks on and still not back: someone to ask, not "soon" for ever. */
  pendingLate: `It is more than three weeks since your test and your result is not back yet. Please call our ${organisation.phones.medical.label.toLowerCase()} line and we will find out what has happened:`,
  /** Staff recorded that he did not come: nothing to wait for. */
  missed: "No test was taken at this appointment",
  missedWhat:
    "Our records show you did not come to this appointment, so there is no result. You can book another screening event whenever you like.",
} as const;

/** Only the signed-in person's own appointments and released results; never cached. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  try {
    const [appointments, corrections] = await Promise.all([
      listAppointmentsAndResults(db(), user.id),
      correctionDates(db(), user.id),
    ]);
    // A corrected result says when it changed ("yyyy-MM-dd" in London), by booking reference.
    const correctedOn = Object.fromEntries(
      Object.entries(corrections).map(([reference, at]) => [reference, londonDate(at)]),
    );
    return data(
      { appointments, correctedOn, today: londonDate(new Date()), failed: false },
      { headers: NO_STORE },
    );
  } catch (error) {
    logError(error, { route: routeOf(request), code: "results_load_failed" });
    return data(
      {
        appointments: [] as AppointmentWithResult[],
        correctedOn: {} as Record<string, string>,
        today: londonDate(new Date()),
        failed: true,
      },
      { status: 500, headers: NO_STORE },
    );
  }
}

export default function MedicalResults({ loaderData }: Route.ComponentProps) {
  const { appointments, correctedOn, today, failed } = loaderData;
  // Soonest first: the next appointment is the one he needs to know about.
  const upcoming = appointments
    .filter((item) => item.upcoming)
    .sort((a, b) => `${a.eventDate} ${a.slotStart}`.localeCompare(`${b.eventDate} ${b.slotStart}`));
  const past = appointments.filter((item) => !item.upcoming);
  return (
    <>
      <h1>All Results</h1>
      <p className="lede">Your medical results and appointments</p>
      {failed ? (
        <p className="warning" role="alert">
          {RESULTS_MESSAGES.failed}
        </p>
      ) : appointments.length === 0 ? (
        <p className="inset">{RESULTS_MESSAGES.none}</p>
      ) : (
        <>
          {/* His results first: they are what he comes to read (D-212). */}
          {past.length > 0 && (
            <section aria-labelledby="past-title">
              <h2 id="past-title">Past appointments and results</h2>
              <ul className="result-list">
                {past.map((item) => (
                  <ResultItem
                    key={item.reference}
                    item={item}
                    today={today}
                    correctedOn={correctedOn[item.reference]}
                  />
                ))}
              </ul>
            </section>
          )}
          {upcoming.length > 0 && (
            <section aria-labelledby="upcoming-title">
              <h2 id="upcoming-title">Upcoming appointments</h2>
              <p>
                To cancel or change an appointment, or to get its calendar entry again, go to{" "}
                <Link to="/my-bookings">My bookings</Link>.
              </p>
              <ul className="result-list">
                {upcoming.map((item) => (
                  <ResultItem key={item.reference} item={item} today={today} />
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </>
  );
}

/** Days after the test when a result not back is late enough to ask about. */
const RESULT_LATE_AFTER_DAYS = 21;

function ResultItem({
  item,
  correctedOn,
  today,
}: {
  item: AppointmentWithResult;
  /** "yyyy-MM-dd" in London. */
  today: string;
  /** "yyyy-MM-dd": the released result was changed that day. */
  correctedOn?: string;
}) {
  const { notAvailable, notFound } = RESULTS_MESSAGES;
  const result = item.result;
  // The spec's fallbacks: the event's date, else the sample's, else N/A.
  const date = item.eventDate || result?.sampleDate || null;
  // The spec's default comment, only where no flag below already says when to test again.
  const comments =
    result?.comments ??
    (result?.flag ? null : `Next appointment in years: ${result?.retestYears ?? notAvailable}`);
  return (
    <li className="card result-item">
      <h3 className="card__title">{item.eventName || notFound}</h3>
      <p className="event-card__product">{item.productName || notFound}</p>
      <dl className="event-details">
        <dt>Date</dt>
        <dd>
          {date ? formatLongDate(date) : notAvailable}
          {item.slotStart && ` at ${item.slotStart}`}
        </dd>
        {item.upcoming ? (
          <>
            <dt>Place</dt>
            <dd>{item.address}</dd>
          </>
        ) : result ? (
          <>
            <dt>Test result</dt>
            <dd>{result.value ? psaInWords(result.value, result.unit) : notAvailable}</dd>
            {comments && (
              <>
                <dt>Comments</dt>
                <dd>{comments}</dd>
              </>
            )}
          </>
        ) : null}
      </dl>
      {result?.flag && (
        <p className={`result-flag result-flag--${result.flag}`}>
          {result.flag === "green" ? (
            <ResultGreenIcon />
          ) : result.flag === "amber" ? (
            <ResultAmberIcon />
          ) : (
            <ResultRedIcon />
          )}{" "}
          {FLAG_MEANINGS[result.flag](result.retestYears)}
        </p>
      )}
      {(result?.flag === "amber" || result?.flag === "red") && (
        <div className="result-advice">
          <p>{RAISED_RESULT_ADVICE.notADiagnosis}</p>
          <p>{RAISED_RESULT_ADVICE.symptoms}</p>
          <p>
            {RAISED_RESULT_ADVICE.questions}{" "}
            <a href={`tel:${organisation.phones.medical.tel}`}>
              {organisation.phones.medical.display}
            </a>
            .
          </p>
        </div>
      )}
      {result && correctedOn && <p>This result was updated on {formatLongDate(correctedOn)}.</p>}
      <p className="result-indicators">
        {item.upcoming ? (
          <span className="status">
            <CalendarIcon /> Upcoming appointment (reference {item.reference})
          </span>
        ) : item.labResultReady ? (
          <span className="status status--ready">
            {/* Not the Green result's icon: it stands beside an Amber or Red result too. */}
            <CheckIcon /> {RESULTS_MESSAGES.ready}
          </span>
        ) : item.missed ? (
          <span className="status">
            <CalendarIcon /> {RESULTS_MESSAGES.missed}
          </span>
        ) : (
          <span className="status">
            <CalendarIcon /> {RESULTS_MESSAGES.pending}
          </span>
        )}
      </p>
      {!item.upcoming && !item.labResultReady && (
        <p>
          {item.missed ? (
            RESULTS_MESSAGES.missedWhat
          ) : item.eventDate && daysBetween(item.eventDate, today) > RESULT_LATE_AFTER_DAYS ? (
            <>
              {RESULTS_MESSAGES.pendingLate}{" "}
              <a href={`tel:${organisation.phones.medical.tel}`}>
                {organisation.phones.medical.display}
              </a>
              .
            </>
          ) : (
            RESULTS_MESSAGES.pendingWhen
          )}
        </p>
      )}
    </li>
  );
}
