import { Form } from "react-router";
import { fieldId } from "#app/components/form";
import type { AttendeeRow } from "#app/services/attendees.server";

/** Notices above an event's attendee list that name the men a coordinator must still act for. */

type NamedMan = Pick<AttendeeRow, "bookingId" | "name" | "slotTime" | "reference">;

/** The men a notice names, each linked to his card on the list. */
function MenNamed({ rows, listPath }: { rows: NamedMan[]; listPath: string }) {
  return (
    <ul>
      {rows.map((row) => (
        <li key={row.bookingId}>
          <a href={`${listPath}#booking-${row.reference}`}>
            {row.slotTime} {row.name}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Men booked at a laboratory that rejects a sample without an NHS number, who have none. */
export function NhsNumbersNeeded({
  labName,
  withoutNhsNumber,
  beforeTheDay,
  canCorrectDetails,
  listPath,
}: {
  labName: string | null;
  withoutNhsNumber: NamedMan[];
  /** check-in has not opened yet: he can still be asked by phone */
  beforeTheDay: boolean;
  canCorrectDetails: boolean;
  listPath: string;
}) {
  if (withoutNhsNumber.length === 0) return null;
  return (
    <section className="closing notice-panel" aria-labelledby="nhs-numbers-title">
      <h2 id="nhs-numbers-title">NHS numbers needed</h2>
      <p>
        This event&apos;s laboratory ({labName}) rejects a sample without an NHS number, and{" "}
        {withoutNhsNumber.length === 1
          ? "1 man booked has none recorded. No sample can be recorded for him until it is."
          : `${withoutNhsNumber.length} men booked have none recorded. No sample can be recorded for them until it is.`}{" "}
        Ask for it{beforeTheDay ? " by phone before the day, or" : ""} at the door: it is on a
        letter from the NHS, a prescription or the NHS App.
        {canCorrectDetails && " Add it with “Correct date of birth or NHS number” on his card."}
      </p>
      <MenNamed rows={withoutNhsNumber} listPath={listPath} />
    </section>
  );
}

/**
 * Once the event is under way: the men still waiting (marked as no-shows in one go once it has
 * ended, after a second press) and, once it has ended, those who arrived with no sample recorded.
 */
export function ClosingTime({
  endTime,
  stillWaitingCount,
  stillWaiting,
  arrivedWithoutSample,
  closingTimeReached,
  closingError,
  formAction,
  busy,
  listPath,
}: {
  endTime: string;
  /** confirmed bookings still waiting */
  stillWaitingCount: number;
  /** those bookings, named once the event has ended (empty before) */
  stillWaiting: Pick<AttendeeRow, "bookingId" | "name" | "slotTime">[];
  arrivedWithoutSample: NamedMan[];
  closingTimeReached: boolean;
  closingError?: string;
  formAction: string;
  busy: boolean;
  listPath: string;
}) {
  if (stillWaitingCount === 0 && !(closingTimeReached && arrivedWithoutSample.length > 0))
    return null;
  return (
    <section className="closing" aria-labelledby="closing-title">
      <h2 id="closing-title">Closing time</h2>
      {closingTimeReached && arrivedWithoutSample.length > 0 && (
        <>
          <p>
            {arrivedWithoutSample.length === 1
              ? "1 man arrived but has no sample recorded. Record his sample, or, if he left without one, mark him as a no-show"
              : `${arrivedWithoutSample.length} men arrived but have no sample recorded. Record each sample, or, if he left without one, mark him as a no-show`}
            : until then his results page says that a result is coming.
          </p>
          <MenNamed rows={arrivedWithoutSample} listPath={listPath} />
        </>
      )}
      {stillWaitingCount > 0 && (
        <p id={fieldId("closing")} tabIndex={-1}>
          {stillWaitingCount} confirmed {stillWaitingCount === 1 ? "booking is" : "bookings are"}{" "}
          still waiting.{" "}
          {closingTimeReached
            ? "If they have not come, mark them as no-shows: their results page then says that no test was taken."
            : `When the event ends at ${endTime}, you can mark them all as no-shows here.`}
        </p>
      )}
      {closingError && (
        <p className="field-error">
          <span className="visually-hidden">Error:</span> {closingError}
        </p>
      )}
      {closingTimeReached && stillWaiting.length > 0 && (
        // A second step, so that one stray tap marks no one.
        <details className="closing__confirm">
          <summary className="button button--secondary">
            Mark the {stillWaiting.length} still waiting as no-shows
          </summary>
          <Form method="post" action={formAction}>
            <p>
              {stillWaiting.length === 1 ? "This booking" : "These bookings"} will be marked as{" "}
              {stillWaiting.length === 1 ? "a no-show" : "no-shows"}. Each mark can be undone on its
              own.
            </p>
            <ul>
              {stillWaiting.map((row) => (
                <li key={row.bookingId}>
                  {row.slotTime} {row.name}
                  <input type="hidden" name="bookingId" value={row.bookingId} />
                </li>
              ))}
            </ul>
            <button
              type="submit"
              name="intent"
              value="no-show-rest"
              className="button"
              disabled={busy}
            >
              Yes, mark {stillWaiting.length === 1 ? "this one" : `these ${stillWaiting.length}`} as{" "}
              {stillWaiting.length === 1 ? "a no-show" : "no-shows"}
            </button>
          </Form>
        </details>
      )}
    </section>
  );
}

/** Booked men whose NHS number another booked man here shares: one of the two is wrong. */
export function SharedNhsNumbers({
  sharingNhsNumber,
  canCorrectDetails,
  listPath,
}: {
  sharingNhsNumber: NamedMan[];
  canCorrectDetails: boolean;
  listPath: string;
}) {
  if (sharingNhsNumber.length === 0) return null;
  return (
    <section className="closing notice-panel" aria-labelledby="shared-nhs-title">
      <h2 id="shared-nhs-title">One NHS number for two men</h2>
      <p>
        These men booked here have the same NHS number recorded, so the laboratory would get two men
        under one number. Check each against his own NHS letter, prescription or the NHS App
        {canCorrectDetails ? ", and correct the wrong one on his card." : "."}
      </p>
      <MenNamed rows={sharingNhsNumber} listPath={listPath} />
    </section>
  );
}
