import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { BookingAtAnotherEvent } from "#app/components/admin/booking-elsewhere";
import { bookingAtAnotherEventOr404 } from "#app/components/admin/booking-elsewhere.server";
import type { Route } from "./+types/attendees.cancel";
import { ErrorSummary, SubmitButton } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { RadioGroup } from "#app/components/radio-group";
import { db } from "#app/db/client.server";
import { formatLongDate } from "#app/domain/date-labels";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import { formatPounds } from "#app/domain/pricing";
import { STAFF_CANCEL_MESSAGES, staffCancelSchema } from "#app/domain/staff-cancel";
import { openAttendeeEvent } from "#app/services/attendees.server";
import {
  STAFF_CANCEL_REFUSALS,
  cancelBookingForHim,
  staffCancelPreview,
  type StaffCancelPreview,
} from "#app/services/booking/cancel.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";

export const meta = () =>
  pageMeta("Cancel a booking", "Cancel a man's booking when he asks, and choose his refund.");
export const headers = pipeHeaders;

function notFound(): never {
  throw data(null, { status: 404, headers: NO_STORE });
}

/** The booking, what he paid and what the policy gives back today. */
export const loader = staffRoute("booking:cancel", async ({ params }: Route.LoaderArgs, staff) => {
  const preview = await staffCancelPreview(db(), staff, {
    eventId: params.eventId,
    bookingId: params.bookingId,
  });
  if (!preview) return bookingAtAnotherEventOr404(staff, params);
  return data({ ...preview, elsewhere: null }, { headers: NO_STORE });
});

type ActionData = { errors: FieldErrors; refund?: string };

/** Cancels it and goes back to the list, which says so and what happens to his money. */
export const action = staffRoute(
  "booking:cancel",
  async ({ request, params }: Route.ActionArgs, staff) => {
    if (!(await openAttendeeEvent(db(), staff, params.eventId))) notFound();
    const values = formValues(await readForm(request));
    const parsed = parseForm(staffCancelSchema, values);
    if (!parsed.ok) {
      if (!parsed.fieldErrors.refund || Object.keys(parsed.fieldErrors).length > 1)
        throw data({ error: "The form could not be read" }, { status: 400, headers: NO_STORE });
      return data<ActionData>(
        { errors: { refund: parsed.fieldErrors.refund } },
        { status: 400, headers: NO_STORE },
      );
    }
    const { refund, policyRefundPence } = parsed.data;
    const outcome = await cancelBookingForHim(db(), staff, {
      eventId: params.eventId,
      bookingId: params.bookingId,
      refund,
      // "Everything he paid" never gives less than the page said; the policy's refund may have.
      shownRefundPence: refund === "full" ? 0 : policyRefundPence,
    });
    if (outcome.ok) {
      const back = new URLSearchParams({ done: "cancelled", ref: outcome.reference });
      return redirect(`/admin/events/${params.eventId}/attendees?${back}`);
    }
    // Gone from this event while the page was open: the page says where it is now.
    if (outcome.reason === "not-found") return redirect(new URL(request.url).pathname);
    // Terms that changed are chosen afresh: the choice he was given before is not kept for him.
    if (outcome.reason === "terms-changed")
      return data<ActionData>(
        { errors: { refund: STAFF_CANCEL_MESSAGES.termsChanged } },
        { status: 409, headers: NO_STORE },
      );
    return data<ActionData>(
      { errors: { refund: STAFF_CANCEL_REFUSALS[outcome.reason] }, refund },
      { status: 409, headers: NO_STORE },
    );
  },
);

export default function CancelBooking({ loaderData, actionData, params }: Route.ComponentProps) {
  if (loaderData.elsewhere)
    return (
      <BookingAtAnotherEvent
        title="Cancel a booking"
        action="cancel"
        bookingId={params.bookingId}
        fromEventId={params.eventId}
        elsewhere={loaderData.elsewhere}
      />
    );
  return <CancelForm preview={loaderData} failed={actionData as ActionData | undefined} />;
}

function CancelForm({ preview, failed }: { preview: StaffCancelPreview; failed?: ActionData }) {
  const { event, reference, name, slotTime, paidPence, policyRefundPence, refusal } = preview;
  const navigation = useNavigation();
  const errors = failed?.errors ?? {};
  const back = `/admin/events/${event.id}/attendees#booking-${reference}`;
  // A choice only where the policy gives back less than he paid.
  const choose = policyRefundPence !== null && paidPence > 0 && policyRefundPence < paidPence;
  return (
    <>
      <h1>
        Cancel a booking<span className="visually-hidden">:</span>
        <span className="admin-subtitle">{name}</span>
      </h1>
      <p>
        Booking {reference}, {event.name}, {formatLongDate(event.eventDate)} at {slotTime}.
      </p>
      {refusal !== null || policyRefundPence === null ? (
        <>
          <p className="notice-panel">{refusal}</p>
          <p>
            <Link to={back}>Back to the list</Link>
          </p>
        </>
      ) : (
        <>
          <p>
            Cancel only when he has asked you to, by phone or in writing. He is e-mailed that it is
            cancelled, and his place is offered to the first man on the waiting list.
          </p>
          <ErrorSummary errors={errors} fieldOrder={["refund"]} />
          <Form method="post" noValidate className="form">
            <input type="hidden" name="policyRefundPence" value={policyRefundPence} />
            {choose ? (
              <RadioGroup
                name="refund"
                legend="What he gets back"
                error={errors.refund}
                checked={failed?.refund}
                options={[
                  {
                    value: "policy",
                    label:
                      policyRefundPence === 0
                        ? "Nothing, as the cancellation policy says"
                        : `${formatPounds(policyRefundPence)}, as the cancellation policy says`,
                    hint: "He gave 2 working days' notice or less.",
                  },
                  {
                    value: "full",
                    label: `Everything he paid: ${formatPounds(paidPence)}`,
                    hint: "For example when he is unwell, or we made a mistake.",
                  },
                ]}
              />
            ) : (
              <>
                <input type="hidden" name="refund" value="policy" />
                <p>
                  {paidPence === 0
                    ? "This booking was free, so there is nothing to pay back."
                    : `He gets back everything he paid, ${formatPounds(paidPence)}: he gave more than 2 working days' notice.`}
                </p>
                {errors.refund && (
                  <p className="field-error" id="field-refund" tabIndex={-1}>
                    <span className="visually-hidden">Error:</span> {errors.refund}
                  </p>
                )}
              </>
            )}
            <div className="admin-actions">
              <SubmitButton busy={navigation.state === "submitting"} busyLabel="Cancelling...">
                Cancel {name}&apos;s booking
              </SubmitButton>
              <Link to={back}>Back to the list without cancelling</Link>
            </div>
          </Form>
        </>
      )}
    </>
  );
}
