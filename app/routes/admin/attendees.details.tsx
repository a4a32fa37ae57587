import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/attendees.details";
import { DateInput } from "#app/components/date-input";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { datePartsOf } from "#app/domain/age";
import { AGE_CONFIRMATION_LABEL, attendeeDetailsSchema } from "#app/domain/attendee-details";
import { formatNhsNumber } from "#app/domain/attendees";
import { formatLongDate } from "#app/domain/date-labels";
import { NHS_NUMBER_LAB } from "#app/domain/eligibility";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import { londonDate } from "#app/domain/london-time";
import { correctAttendeeDetails, readAttendeeDetails } from "#app/services/attendee-details.server";
import { openAttendeeEvent } from "#app/services/attendees.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Correct date of birth or NHS number", "Correct a booked man's details for the lab.");
export const headers = pipeHeaders;

const FIELD_ORDER = ["dateOfBirth", "nhsNumber"] as const;

function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

/** The booking's person, as recorded; the read is audited. */
export const loader = staffRoute(
  "attendee:correct-details",
  async ({ params }: Route.LoaderArgs, staff) => {
    const view = await readAttendeeDetails(db(), staff, {
      eventId: params.eventId,
      bookingId: params.bookingId,
    });
    if (!view) notFound();
    return data(view, { headers: NO_STORE });
  },
);

type ActionData = {
  errors: FieldErrors;
  values: Record<string, string>;
  /** the date of birth (yyyy-MM-dd) is outside the screening's ages: ask staff to say they checked it */
  askAgeConfirmation?: string;
};

/** Saves the correction and goes back to his row on the list, where it says so. */
export const action = staffRoute(
  "attendee:correct-details",
  async ({ request, params }: Route.ActionArgs, staff) => {
    // Another day's event is refused (event staff) before anything sent is read.
    if (!(await openAttendeeEvent(db(), staff, params.eventId))) notFound();
    const values = formValues(await readForm(request));
    const parsed = parseForm(attendeeDetailsSchema(londonDate(new Date())), values);
    if (!parsed.ok)
      return data<ActionData>(
        { errors: parsed.fieldErrors, values: parsed.values },
        { status: 400, headers: NO_STORE },
      );
    const result = await correctAttendeeDetails(db(), staff, {
      eventId: params.eventId,
      bookingId: params.bookingId,
      details: parsed.data,
    });
    if (result.outcome === "not-found") notFound();
    if (result.outcome === "refused")
      return data<ActionData>(
        {
          errors: { [result.field]: result.message },
          values,
          ...(result.field === "dateOfBirth"
            ? { askAgeConfirmation: parsed.data.dateOfBirth }
            : {}),
        },
        { status: 409, headers: NO_STORE },
      );
    const back = new URLSearchParams({
      done: result.changed ? "details" : "details-unchanged",
      ref: result.reference,
    });
    // Without a fragment: the confirmation's `autofocus` brings his card into view (attendees.tsx).
    return redirect(`/admin/events/${params.eventId}/attendees?${back}`);
  },
);

export default function AttendeeDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { event, reference, name, dateOfBirth, nhsNumber, labNeedsNhsNumber } = loaderData;
  const navigation = useNavigation();
  const failed = actionData as ActionData | undefined;
  const errors = failed?.errors ?? {};
  const typed = failed?.values;
  const back = `/admin/events/${event.id}/attendees#booking-${reference}`;
  return (
    <>
      <h1>
        Correct date of birth or NHS number<span className="visually-hidden">:</span>
        <span className="admin-subtitle">{name}</span>
      </h1>
      <p>
        Booking {reference}, {event.name}, {formatLongDate(event.eventDate)}.
      </p>
      <p>
        Ask him to read them from a letter from the NHS, a prescription or the NHS App. The
        laboratory matches his sample on them.
        {labNeedsNhsNumber &&
          ` This event's laboratory (${NHS_NUMBER_LAB}) rejects a sample without a correct NHS number.`}
      </p>
      <ErrorSummary errors={errors} fieldOrder={FIELD_ORDER} />
      <Form method="post" noValidate className="form">
        <DateInput
          name="dateOfBirth"
          legend="Date of birth"
          values={
            typed
              ? {
                  day: typed["dateOfBirth-day"],
                  month: typed["dateOfBirth-month"],
                  year: typed["dateOfBirth-year"],
                }
              : datePartsOf(dateOfBirth)
          }
          error={errors.dateOfBirth}
          autoFillOwnBirthday={false}
        />
        {failed?.askAgeConfirmation && (
          <div className="form-group">
            <div className="checkbox">
              <input
                id="ageConfirmed"
                type="checkbox"
                name="ageConfirmedFor"
                value={failed.askAgeConfirmation}
              />
              <label htmlFor="ageConfirmed">{AGE_CONFIRMATION_LABEL}</label>
            </div>
          </div>
        )}
        <TextField
          name="nhsNumber"
          label={
            labNeedsNhsNumber || nhsNumber ? "NHS number" : "NHS number (if he has it with him)"
          }
          hint="10 digits, as on his NHS letter, prescription or the NHS App"
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          className="input--width-20"
          defaultValue={typed ? typed.nhsNumber : (formatNhsNumber(nhsNumber) ?? "")}
          error={errors.nhsNumber}
        />
        <div className="admin-actions">
          <SubmitButton busy={navigation.state === "submitting"} busyLabel="Saving...">
            Save<span className="visually-hidden"> {name}&apos;s details</span>
          </SubmitButton>
          <Link to={back}>Back to the list without saving</Link>
        </div>
      </Form>
    </>
  );
}
