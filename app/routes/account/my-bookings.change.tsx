import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import type { Route } from "./+types/my-bookings.change";
import { BackLink } from "#app/components/back-link";
import { ErrorSummary, SubmitButton } from "#app/components/form";
import { CORPORATE_ONLY_LABEL } from "#app/components/event-card";
import { BuildingIcon, WarningIcon } from "#app/components/icons";
import { pageMeta } from "#app/components/meta";
import { SlotPicker } from "#app/components/slot-picker";
import { organisation } from "#app/content/organisation";
import { db } from "#app/db/client.server";
import {
  BOOKING_REFUSALS,
  CHANGE_FORM_MESSAGES,
  CHANGE_REFUSAL_MESSAGES,
  changeDeadlineLabel,
  EVENT_REFUSALS,
  termsAfterMove,
  type ChangeRefusal,
} from "#app/domain/booking-change";
import { changeChoiceSchema } from "#app/domain/booking-change-form";
import { slotEndTime } from "#app/domain/calendar";
import { formatLongDate } from "#app/domain/date-labels";
import { londonInstant } from "#app/domain/london-time";
import { formValues, parseForm, type FieldErrors } from "#app/domain/forms";
import { changeOwnBooking, changePage } from "#app/services/booking/change.server";
import { requireUser } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Change your appointment", "Move your screening appointment to another time.");

export const headers = pipeHeaders;

/** Where the page leads back to: the booking's own page. */
const bookingPath = (reference: string) => `/my-bookings/${encodeURIComponent(reference)}`;

const changePath = (reference: string, query = "") =>
  `/my-bookings/${encodeURIComponent(reference)}/change${query}`;

export const CHANGE_PAGE_MESSAGES = {
  notOffered: "You cannot move to that event online. Please choose another event.",
  noOtherTimes: "There are no other free times at this event.",
  noOtherEvents: "There are no other events you can move to online just now.",
} as const;

/**
 * Moving one's own booking to another time, with or without JavaScript: the chosen event is in
 * the address (`?event=`, a plain GET form), the chosen time is posted ("Continue"), then the old
 * and new times are shown side by side and "Confirm the change" posts the move. Another person's
 * booking, or an unknown reference, is a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const chosenEvent = url.searchParams.get("event");
  const page = await changePage(db(), {
    userId: user.id,
    reference: params.reference,
    eventId: chosenEvent,
  });
  if (!page) throw data(null, { status: 404, headers: NO_STORE });
  const errors: FieldErrors = {};
  let review: Review | null = null;
  let selected: string | undefined;
  if (!page.refusal) {
    if (url.searchParams.has("step") && !chosenEvent)
      errors.event = CHANGE_FORM_MESSAGES.chooseEvent;
    else if (chosenEvent && !page.chosen) errors.event = CHANGE_PAGE_MESSAGES.notOffered;
    else if (url.searchParams.has("check")) {
      // "Check your change", reached by Continue's redirect, or again by Back or a reload.
      const parsed = parseForm(changeChoiceSchema, {
        event: chosenEvent ?? "",
        slotTime: url.searchParams.get("time") ?? "",
      });
      if (parsed.ok) {
        // Back after "Confirm the change": it is done, and his booking's page shows it.
        if (page.chosen?.current && parsed.data.slotTime === page.booking.slotStart)
          throw redirect(bookingPath(params.reference));
        const checked = checkChoice(page, parsed.data.event, parsed.data.slotTime);
        if ("review" in checked) review = checked.review;
        else Object.assign(errors, checked.fieldErrors);
        selected = parsed.data.slotTime;
      }
    }
  }
  return data(
    {
      ...page,
      untilLabel: page.until ? changeDeadlineLabel(page.until) : null,
      changed: url.searchParams.has("changed"),
      loaderErrors: errors,
      review,
      selected,
    },
    { headers: NO_STORE },
  );
}

type ChangePage = NonNullable<Awaited<ReturnType<typeof changePage>>>;

/** Whether the time chosen can be checked now: still free, and not the one he has. */
function checkChoice(
  page: ChangePage,
  eventId: string,
  slotTime: string,
): { review: Review } | { fieldErrors: FieldErrors } {
  const chosen = page.chosen;
  if (!chosen) return { fieldErrors: { event: CHANGE_PAGE_MESSAGES.notOffered } };
  const same = chosen.current && slotTime === page.booking.slotStart;
  const free = page.times.some((time) => time.time === slotTime && time.state === "available");
  if (same || !free)
    return {
      fieldErrors: {
        slotTime: CHANGE_REFUSAL_MESSAGES[same ? "same-time" : "slot-unavailable"],
      },
    };
  return {
    review: {
      event: eventId,
      slotTime,
      eventName: chosen.name,
      eventDate: chosen.eventDate,
      slotEnd: slotEndTime(slotTime, chosen.sessionMinutes),
      address: chosen.address,
      terms: termsAfterMove({
        paid: page.booking.paymentStatus === "paid" && page.booking.pricePence > 0,
        fromDay: page.booking.eventDate,
        toDay: chosen.eventDate,
        toStart: londonInstant(chosen.eventDate, slotTime),
        now: new Date(),
      }),
    },
  };
}

interface Review {
  event: string;
  slotTime: string;
  eventName: string;
  eventDate: string;
  slotEnd: string;
  address: string;
  /** what the move does to his refund and to changing again (`termsAfterMove`) */
  terms: string[];
}

type ActionData = {
  fieldErrors?: FieldErrors;
  values?: Record<string, string>;
  refusal?: ChangeRefusal;
};

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const values = formValues(form);
  const parsed = parseForm(changeChoiceSchema, values);
  if (!parsed.ok)
    return data<ActionData>(
      { fieldErrors: parsed.fieldErrors, values },
      { status: 400, headers: NO_STORE },
    );
  const { event: eventId, slotTime } = parsed.data;

  if (values.intent !== "confirm") {
    // "Continue": to "Check your change", a page of its own (so that Back after confirming comes
    // to a page, not to a form to send again), if the time is still free now.
    const page = await changePage(db(), { userId: user.id, reference: params.reference, eventId });
    if (!page) throw data(null, { status: 404, headers: NO_STORE });
    if (page.refusal)
      return data<ActionData>(
        { refusal: page.refusal, values },
        { status: 409, headers: NO_STORE },
      );
    const checked = checkChoice(page, eventId, slotTime);
    if ("fieldErrors" in checked)
      return data<ActionData>(
        { fieldErrors: checked.fieldErrors, values },
        { status: 409, headers: NO_STORE },
      );
    const check = new URLSearchParams({ event: eventId, time: slotTime, check: "" });
    return redirect(changePath(params.reference, `?${check}`));
  }

  const result = await changeOwnBooking(db(), {
    userId: user.id,
    reference: params.reference,
    eventId,
    slotTime,
  });
  // Already where he asked to be: the answer to a second press (a double click with no script).
  if (result.ok || result.reason === "same-time")
    return redirect(changePath(params.reference, "?changed"));
  if (result.reason === "not-found") throw data(null, { status: 404, headers: NO_STORE });
  if (BOOKING_REFUSALS.includes(result.reason))
    return data<ActionData>({ refusal: result.reason, values }, { status: 409, headers: NO_STORE });
  const field = EVENT_REFUSALS.includes(result.reason) ? "event" : "slotTime";
  return data<ActionData>(
    { fieldErrors: { [field]: CHANGE_REFUSAL_MESSAGES[result.reason] }, values },
    { status: 409, headers: NO_STORE },
  );
}

const helpline = organisation.phones.booking;

export default function ChangeBooking({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, events, chosen, times, untilLabel, changed } = loaderData;
  const refusal = actionData?.refusal ?? loaderData.refusal;
  const errors = { ...loaderData.loaderErrors, ...actionData?.fieldErrors };
  // A press of Continue or Confirm that was refused shows the choice again, with its message.
  const review = actionData ? null : loaderData.review;
  const now = {
    eventName: booking.eventName,
    eventDate: booking.eventDate,
    slotTime: booking.slotStart,
    slotEnd: booking.slotEnd,
    address: booking.address,
  };

  return (
    <>
      <BackLink to={bookingPath(booking.reference)}>Back to your booking</BackLink>
      <h1>{changed ? "Your appointment has been changed" : "Change your appointment"}</h1>
      <ErrorSummary errors={errors} fieldOrder={["event", "slotTime"]} />

      {changed ? (
        <>
          <div className="success-panel" role="status">
            <p>
              Your appointment is now at {booking.slotStart} on {formatLongDate(booking.eventDate)}.
            </p>
          </div>
          <p>
            We have sent you an e-mail with the new time. It has two calendar files: one adds your
            new appointment, the other removes the old one.
          </p>
          <Appointment title="Your appointment" reference={booking.reference} {...now} />
          <p>
            <Link to={bookingPath(booking.reference)}>See your booking</Link>
          </p>
        </>
      ) : review ? (
        <CheckChange
          reference={booking.reference}
          now={now}
          review={review}
          backTo={changePath(booking.reference, `?event=${encodeURIComponent(review.event)}`)}
        />
      ) : (
        <>
          <Appointment title="Your appointment now" reference={booking.reference} {...now} />
          {refusal ? (
            <div className="warning" role="alert">
              <h2 className="status">
                <WarningIcon /> This appointment cannot be changed online
              </h2>
              <p>{CHANGE_REFUSAL_MESSAGES[refusal]}</p>
              {refusal === "too-late" && untilLabel && (
                <p>The time could be changed online until {untilLabel}.</p>
              )}
            </div>
          ) : (
            <>
              <p>
                You can change the time online until {untilLabel}; after that, please call our{" "}
                {helpline.label.toLowerCase()} on{" "}
                <a href={`tel:${helpline.tel}`}>{helpline.display}</a>. To move to an event with a
                different price, please call us too.
              </p>
              {chosen && (
                <ChooseTime
                  reference={booking.reference}
                  eventId={chosen.id}
                  heading={
                    chosen.current
                      ? "Other times at this event"
                      : `Times at ${chosen.name}, ${formatLongDate(chosen.eventDate)}`
                  }
                  times={times}
                  current={chosen.current ? booking.slotStart : undefined}
                  selected={actionData?.values?.slotTime ?? loaderData.selected}
                  error={errors.slotTime}
                  hasOtherTimes={chosen.availableTimes > 0}
                />
              )}
              <ChooseEvent
                events={events}
                selected={chosen?.id}
                error={errors.event}
                hasOthers={events.some((option) => !option.current)}
              />
            </>
          )}
        </>
      )}
    </>
  );
}

function Appointment({
  title,
  reference,
  eventName,
  eventDate,
  slotTime,
  slotEnd,
  address,
  headingLevel = 2,
}: {
  title: string;
  reference?: string;
  eventName: string;
  eventDate: string;
  slotTime: string;
  slotEnd: string;
  address: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className="change-appointment">
      <Heading>{title}</Heading>
      <dl className="event-details">
        {reference && (
          <>
            <dt>Booking reference</dt>
            <dd>{reference}</dd>
          </>
        )}
        <dt>Event</dt>
        <dd>{eventName}</dd>
        <dt>Date</dt>
        <dd>{formatLongDate(eventDate)}</dd>
        <dt>Time</dt>
        <dd>
          {slotTime} to {slotEnd}
        </dd>
        <dt>Place</dt>
        <dd>{address}</dd>
      </dl>
    </section>
  );
}

function ChooseTime({
  reference,
  eventId,
  heading,
  times,
  current,
  selected,
  error,
  hasOtherTimes,
}: {
  reference: string;
  eventId: string;
  heading: string;
  times: { time: string; state: "available" | "full" | "passed" }[];
  current?: string;
  selected?: string;
  error?: string;
  hasOtherTimes: boolean;
}) {
  const navigation = useNavigation();
  return (
    <section className="change-step" aria-labelledby="choose-time-title">
      <h2 id="choose-time-title">Choose a new time</h2>
      {hasOtherTimes ? (
        <Form
          method="post"
          action={changePath(reference, `?event=${eventId}`)}
          noValidate
          className="form"
        >
          <input type="hidden" name="intent" value="review" />
          <input type="hidden" name="event" value={eventId} />
          <SlotPicker
            choices={times}
            legend={heading}
            current={current}
            selected={selected}
            error={error}
          />
          <SubmitButton busy={navigation.state !== "idle"} busyLabel="Checking...">
            Continue
          </SubmitButton>
        </Form>
      ) : (
        <p className="inset">{CHANGE_PAGE_MESSAGES.noOtherTimes}</p>
      )}
    </section>
  );
}

function ChooseEvent({
  events,
  selected,
  error,
  hasOthers,
}: {
  events: {
    id: string;
    name: string;
    eventDate: string;
    startTime: string;
    endTime: string;
    address: string;
    current: boolean;
    availableTimes: number;
    corporateOnly: boolean;
  }[];
  selected?: string;
  error?: string;
  hasOthers: boolean;
}) {
  const id = "field-event";
  if (!hasOthers)
    return (
      <section className="change-step" aria-labelledby="choose-event-title">
        <h2 id="choose-event-title">Or choose another event</h2>
        <p className="inset">{CHANGE_PAGE_MESSAGES.noOtherEvents}</p>
      </section>
    );
  return (
    <section className="change-step" aria-labelledby="choose-event-title">
      <h2 id="choose-event-title">Or choose another event</h2>
      {/* Back at the chosen event's times, not at the top of the page. */}
      <Form method="get" action="#choose-time-title" className="form">
        <input type="hidden" name="step" value="times" />
        <div className={`form-group${error ? " form-group--error" : ""}`}>
          <fieldset
            className="fieldset"
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          >
            <legend className="label label--large">Events you can move to</legend>
            <span className="field-hint" id={`${id}-hint`}>
              Events with the same test and the same price. Choose one to see its free times.
            </span>
            {error && (
              <span className="field-error" id={`${id}-error`}>
                <span className="visually-hidden">Error:</span> {error}
              </span>
            )}
            <div className="radios">
              {events.map((option, index) => {
                const optionId = index === 0 ? id : `${id}-${option.id}`;
                return (
                  <div className="radio" key={option.id}>
                    <input
                      className="radio__input"
                      id={optionId}
                      type="radio"
                      name="event"
                      value={option.id}
                      defaultChecked={selected === option.id}
                    />
                    <label className="radio__label" htmlFor={optionId}>
                      {option.current && "Your event now: "}
                      <strong>{option.name}</strong>, {formatLongDate(option.eventDate)},{" "}
                      {option.startTime} to {option.endTime}, {option.address}
                      <span className="radio__note">
                        {" "}
                        (
                        {option.availableTimes === 1
                          ? "1 time free"
                          : `${option.availableTimes} times free`}
                        )
                      </span>
                      {option.corporateOnly && (
                        <span className="radio__note">
                          {" "}
                          <BuildingIcon /> {CORPORATE_ONLY_LABEL}.
                        </span>
                      )}
                    </label>
                  </div>
                );
              })}
            </div>
          </fieldset>
        </div>
        <button type="submit" className="button button--secondary">
          Show the times
        </button>
      </Form>
    </section>
  );
}

function CheckChange({
  reference,
  now,
  review,
  backTo,
}: {
  reference: string;
  now: {
    eventName: string;
    eventDate: string;
    slotTime: string;
    slotEnd: string;
    address: string;
  };
  review: Review;
  backTo: string;
}) {
  const navigation = useNavigation();
  return (
    <section aria-labelledby="check-change-title">
      <h2 id="check-change-title">Check your change</h2>
      <p>Booking reference {reference}. Nothing changes until you confirm.</p>
      <div className="change-compare">
        <Appointment title="Your time now" headingLevel={3} {...now} />
        <Appointment
          title="Your new time"
          headingLevel={3}
          eventName={review.eventName}
          eventDate={review.eventDate}
          slotTime={review.slotTime}
          slotEnd={review.slotEnd}
          address={review.address}
        />
      </div>
      {review.terms.length > 0 && (
        <div className="inset">
          {review.terms.map((sentence) => (
            <p key={sentence}>
              <strong>{sentence}</strong>
            </p>
          ))}
        </div>
      )}
      <Form method="post" noValidate className="form">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="event" value={review.event} />
        <input type="hidden" name="slotTime" value={review.slotTime} />
        <div className="button-group">
          <SubmitButton busy={navigation.state !== "idle"} busyLabel="Changing...">
            Confirm the change
          </SubmitButton>
          <Link to={backTo}>Choose a different time</Link>
        </div>
      </Form>
    </section>
  );
}
