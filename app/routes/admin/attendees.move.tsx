import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { BookingAtAnotherEvent } from "#app/components/admin/booking-elsewhere";
import { bookingAtAnotherEventOr404 } from "#app/components/admin/booking-elsewhere.server";
import type { Route } from "./+types/attendees.move";
import { ErrorSummary, SubmitButton } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { RadioGroup } from "#app/components/radio-group";
import { SlotPicker } from "#app/components/slot-picker";
import { db } from "#app/db/client.server";
import { formatLongDate } from "#app/domain/date-labels";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import { STAFF_MOVE_MESSAGES, otherFreeTimes, staffMoveSchema } from "#app/domain/staff-move";
import {
  moveBookingForHim,
  staffMovePreview,
  type StaffMovePreview,
} from "#app/services/booking/staff-move.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Move a booking", "Move a man's booking to another time when he asks.");
export const headers = pipeHeaders;

/** The booking, the times he could take, and the other events he could be moved to. */
export const loader = staffRoute(
  "booking:move",
  async ({ params, request }: Route.LoaderArgs, staff) => {
    const preview = await staffMovePreview(db(), staff, {
      eventId: params.eventId,
      bookingId: params.bookingId,
      toEventId: new URL(request.url).searchParams.get("event"),
    });
    if (!preview) return bookingAtAnotherEventOr404(staff, params);
    return data({ ...preview, elsewhere: null }, { headers: NO_STORE });
  },
);

type ActionData = { errors: FieldErrors; slotTime?: string };

/** Moves it and goes back to the list, which says so. */
export const action = staffRoute(
  "booking:move",
  async ({ request, params }: Route.ActionArgs, staff) => {
    const parsed = parseForm(staffMoveSchema, formValues(await readForm(request)));
    if (!parsed.ok)
      return data<ActionData>(
        { errors: { slotTime: parsed.fieldErrors.slotTime ?? STAFF_MOVE_MESSAGES.timeMissing } },
        { status: 400, headers: NO_STORE },
      );
    const { slotTime, toEventId, fromTime } = parsed.data;
    const outcome = await moveBookingForHim(db(), staff, {
      eventId: params.eventId,
      bookingId: params.bookingId,
      slotTime,
      toEventId,
      fromTime,
    });
    if (outcome.ok) {
      // To the list of the event he is now at, which says so.
      const back = new URLSearchParams({ done: "moved", ref: outcome.reference });
      return redirect(`/admin/events/${outcome.eventId}/attendees?${back}`);
    }
    // Gone from this event while the page was open: the page says where it is now.
    if (outcome.reason === "not-found") return redirect(new URL(request.url).pathname);
    return data<ActionData>(
      { errors: { slotTime: STAFF_MOVE_MESSAGES[outcome.reason] }, slotTime },
      { status: 409, headers: NO_STORE },
    );
  },
);

export default function MoveBooking({ loaderData, actionData, params }: Route.ComponentProps) {
  if (loaderData.elsewhere)
    return (
      <BookingAtAnotherEvent
        title="Move a booking"
        action="move"
        bookingId={params.bookingId}
        fromEventId={params.eventId}
        elsewhere={loaderData.elsewhere}
      />
    );
  return <MoveForm preview={loaderData} failed={actionData as ActionData | undefined} />;
}

function MoveForm({ preview, failed }: { preview: StaffMovePreview; failed?: ActionData }) {
  const { event, reference, name, slotTime, others, chosen, times, refusal } = preview;
  const navigation = useNavigation();
  const errors = failed?.errors ?? {};
  const back = `/admin/events/${event.id}/attendees#booking-${reference}`;
  const where = chosen.current
    ? "this event"
    : `${chosen.name}, ${formatLongDate(chosen.eventDate)}`;
  return (
    <>
      <h1>
        Move a booking<span className="visually-hidden">:</span>
        <span className="admin-subtitle">{name}</span>
      </h1>
      <p>
        Booking {reference}, {event.name}, {formatLongDate(event.eventDate)}. His time now:{" "}
        <strong>{slotTime}</strong>.
      </p>
      {refusal !== null ? (
        <>
          <p className="notice-panel">{STAFF_MOVE_MESSAGES[refusal]}</p>
          <p>
            <Link to={back}>Back to the list</Link>
          </p>
        </>
      ) : (
        <>
          <p>
            Move him only when he has asked you to, by phone or in writing. He is e-mailed his new
            time with a calendar entry, and told that the old time is cancelled. His payment and
            consent stay with the booking.
          </p>
          <ErrorSummary errors={errors} fieldOrder={["slotTime"]} />
          {/* "Show its times" comes back here, not to the top of the page. */}
          <div id="new-time" tabIndex={-1}>
            {otherFreeTimes(times, chosen.current ? slotTime : undefined).length > 0 ? (
              <Form method="post" noValidate className="form">
                <input type="hidden" name="fromTime" value={slotTime} />
                {!chosen.current && <input type="hidden" name="toEventId" value={chosen.id} />}
                <SlotPicker
                  choices={times}
                  legend={`His new time at ${where}`}
                  hint="Choose the time he asks for."
                  current={chosen.current ? slotTime : undefined}
                  currentNote="his time now"
                  error={errors.slotTime}
                  selected={failed?.slotTime}
                />
                <div className="admin-actions">
                  <SubmitButton busy={navigation.state === "submitting"} busyLabel="Moving...">
                    Move {name} to this time
                  </SubmitButton>
                  <Link to={back}>Back to the list without moving</Link>
                </div>
              </Form>
            ) : (
              <p>
                Every other time of this event is full or has begun. Choose another event below, or{" "}
                <Link to={back}>go back to the list</Link>.
              </p>
            )}
          </div>
          {others.length > 0 && (
            <section aria-labelledby="other-events-title">
              <h2 id="other-events-title">Or move him to another event</h2>
              <Form method="get" action="#new-time" className="form">
                <RadioGroup
                  name="event"
                  legend="Events with the same screening, price and way of paying, and a free time he could take"
                  checked={chosen.id}
                  options={[
                    { value: event.id, label: `This event: ${event.name}` },
                    ...others.map((option) => ({
                      value: option.id,
                      label: `${option.name}, ${formatLongDate(option.eventDate)}, ${option.startTime} to ${option.endTime}`,
                      hint: `${option.address}. ${option.availableTimes} ${option.availableTimes === 1 ? "time" : "times"} free.`,
                    })),
                  ]}
                />
                <button type="submit" className="button button--secondary">
                  Show its times
                </button>
              </Form>
            </section>
          )}
        </>
      )}
    </>
  );
}
