import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { AdminTable } from "#app/components/admin/admin-table";
import type { Route } from "./+types/events.edit";
import {
  CATEGORY_LABELS,
  EVENT_FIELD_ORDER,
  EventFields,
} from "#app/components/admin/event-fields";
import { ErrorSummary, SubmitButton, TextField } from "#app/components/form";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { formatLondonDateTime, formatLongDate } from "#app/domain/date-labels";
import { accessCodeFormSchema, eventFormValues } from "#app/domain/event-form";
import type { FieldErrors } from "#app/domain/form-basics";
import { formValues, parseForm } from "#app/domain/forms";
import { can } from "#app/domain/permissions";
import { londonDate } from "#app/domain/london-time";
import { formatPounds } from "#app/domain/pricing";
import {
  cancelEvent,
  createEventAccessCode,
  eventFormChoices,
  findEventForAdmin,
  publishEvent,
  revokeAccessCode,
  unpublishEvent,
  updateEvent,
} from "#app/services/admin-events.server";
import type { RefundRun } from "#app/services/payments/refunds.server";
import { staffRoute } from "#app/services/guards.server";
import { NO_STORE, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import { ownEntry } from "#app/utils/own-entry";

export const meta = ({ data: loaded }: Route.MetaArgs) =>
  pageMeta(loaded ? loaded.event.name : "Event", "Manage a screening event.");
export const headers = pipeHeaders;

const STATUS_LABELS = { draft: "Draft", published: "Published", cancelled: "Cancelled" } as const;

const SAVED_NOTICES = {
  created: "Event created as a draft. Check it, then publish it when it is ready.",
  saved: "Changes saved.",
  published: "Published: the event is now on the site, in the events list and on its own page.",
  unpublished: "Back to draft: the event is no longer on the site.",
  revoked: "Code revoked: it no longer unlocks the event.",
} as const;

/** After an edit that gave the event a new address, with the number of men told (from the address). */
function movedNotice(told: number): string {
  const men = Number.isSafeInteger(told) && told > 0 ? told : 0;
  return men === 1
    ? "Changes saved. The man booked has been e-mailed the new address, with a new calendar entry."
    : `Changes saved. The ${men} men booked have each been e-mailed the new address, with a new calendar entry.`;
}

const CODE_STATE_LABELS = {
  active: "Active",
  "used-up": "Used up",
  expired: "Expired",
  revoked: "Revoked",
} as const;

export const loader = staffRoute("event:edit", async (args: Route.LoaderArgs, staff) => {
  const now = new Date();
  const detail = await findEventForAdmin(db(), args.params.eventId, now);
  if (!detail) throw data("Event not found", { status: 404 });
  const search = new URL(args.request.url).searchParams;
  const saved = search.get("saved");
  const { event: row } = detail;
  return data(
    {
      event: {
        id: row.id,
        name: row.name,
        status: row.status,
        eventDate: row.eventDate,
        startTime: row.startTime.slice(0, 5),
        endTime: row.endTime.slice(0, 5),
        city: row.city,
        isPublic: row.isPublic,
        category: row.category,
        price: formatPounds(row.pricePence ?? detail.productPricePence),
        paymentRequired: row.paymentRequired === true,
        productName: detail.productName,
        labName: row.labName,
        cancelledOn: row.cancelledAt ? formatLondonDateTime(row.cancelledAt, " at ") : null,
        updatedAt: row.updatedAt.toISOString(),
      },
      booked: detail.booked,
      held: detail.held,
      total: row.totalSpaces,
      activeBookings: detail.activeBookings,
      paidBookings: detail.paidBookings,
      keptOnCancel: detail.keptOnCancel,
      ended: detail.ended,
      codes: detail.codes.map((code) => ({
        id: code.id,
        label: code.label,
        uses: code.uses,
        maxUses: code.maxUses,
        state: code.state,
        created: formatLondonDateTime(code.createdAt, " at "),
        // Codes work until the end of their last day (London): the instant stored is the next midnight.
        lastDay: code.expiresAt
          ? formatLongDate(londonDate(new Date(code.expiresAt.getTime() - 1)))
          : null,
      })),
      refunds: detail.refunds,
      withoutNhsNumber: detail.ended || row.status === "cancelled" ? 0 : detail.withoutNhsNumber,
      values: eventFormValues(row),
      choices: await eventFormChoices(db()),
      confirmCancel:
        search.get("cancel") === "confirm" && row.status !== "cancelled" && !detail.ended,
      notice:
        saved === "moved"
          ? movedNotice(Number(search.get("told")))
          : (ownEntry(SAVED_NOTICES, saved) ?? null),
      canSeeAttendees: can(staff, "attendee:read"),
      beforeTheDay: londonDate(new Date()) < row.eventDate,
    },
    { headers: NO_STORE },
  );
});

type ActionData = {
  fieldErrors?: FieldErrors;
  values?: Record<string, string>;
  formError?: string;
  /** the event's version the form saves over (someone else's, after a refusal) */
  seen?: string;
  statusError?: string;
  codeErrors?: FieldErrors;
  codeValues?: Record<string, string>;
  newCode?: { code: string; label: string | null };
  cancelled?: {
    newlyCancelled: boolean;
    bookingsCancelled: number;
    bookingsKept: number;
    emailsQueued: number;
    waitingListClosed: number;
    refunds: RefundRun;
  };
};

function reply(body: ActionData, status = 200) {
  return data<ActionData>(body, { status, headers: NO_STORE });
}

export const action = staffRoute("event:edit", async (args: Route.ActionArgs, staff) => {
  const eventId = args.params.eventId;
  const here = `/admin/events/${eventId}`;
  const form = await readForm(args.request);
  const intent = String(form.get("intent") ?? "");

  switch (intent) {
    case "save": {
      const saved = await updateEvent(db(), staff, eventId, formValues(form, ["intent"]));
      if (saved.ok)
        return redirect(
          saved.toldOfNewPlace
            ? `${here}?saved=moved&told=${saved.toldOfNewPlace}`
            : `${here}?saved=saved`,
        );
      if ("notFound" in saved) throw data("Event not found", { status: 404 });
      return reply(
        {
          fieldErrors: saved.fieldErrors,
          values: saved.values,
          formError: saved.formError,
          // Refused for a save made meanwhile: that version; otherwise the one the form had.
          seen: saved.seen ?? (form.get("seen")?.toString() || undefined),
        },
        saved.seen ? 409 : 400,
      );
    }
    case "publish":
    case "unpublish": {
      const change =
        intent === "publish"
          ? await publishEvent(db(), staff, eventId)
          : await unpublishEvent(db(), staff, eventId);
      if (!change) throw data("Event not found", { status: 404 });
      if (!change.ok) return reply({ statusError: change.message }, 400);
      return redirect(`${here}?saved=${intent}ed`);
    }
    case "cancel":
    case "refund": {
      // Retrying refunds runs the cancellation again: it changes nothing already done, cancels any
      // booking confirmed since (a payment already on its way), and refunds what is still unpaid back.
      const result = await cancelEvent(db(), staff, eventId);
      if (!result) throw data("Event not found", { status: 404 });
      if (!result.ok) return reply({ statusError: result.message }, 400);
      const cancelled = {
        newlyCancelled: result.newlyCancelled,
        bookingsCancelled: result.bookingsCancelled,
        bookingsKept: result.bookingsKept,
        emailsQueued: result.emailsQueued,
        waitingListClosed: result.waitingListClosed,
        refunds: result.refunds,
      };
      return reply({ cancelled });
    }
    case "create-code": {
      const values = formValues(form, ["intent"]);
      const parsed = parseForm(accessCodeFormSchema(londonDate(new Date())), values);
      if (!parsed.ok) return reply({ codeErrors: parsed.fieldErrors, codeValues: values }, 400);
      const created = await createEventAccessCode(db(), staff, eventId, parsed.data);
      if (!created) throw data("Event not found", { status: 404 });
      if (!created.ok) return reply({ statusError: created.message }, 400);
      return reply({ newCode: { code: created.code, label: parsed.data.label } });
    }
    case "revoke-code": {
      const revoked = await revokeAccessCode(
        db(),
        staff,
        eventId,
        String(form.get("codeId") ?? ""),
      );
      // Another event's code, or none: nothing was revoked, so the page does not say it was.
      if (!revoked) throw data("Access code not found", { status: 404 });
      return redirect(`${here}?saved=revoked#access-codes`);
    }
    default:
      throw data("Unknown action", { status: 400 });
  }
});

function plural(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/** "PayPal has accepted 2 of these refunds but not finished them yet (the first on …)." */
function pendingRefundsNote(count: number, since: Date | null) {
  const one = count === 1;
  const when = since
    ? ` (${one ? "accepted" : "the first"} on ${formatLondonDateTime(since, " at ")})`
    : "";
  return `PayPal has accepted ${count} of these refunds but not finished ${one ? "it" : "them"} yet${when}.`;
}

function RefundOutcome({ refunds }: { refunds: RefundRun }) {
  const made = refunds.refunded + refunds.alreadyRefunded;
  return (
    <>
      Refunds: {plural(made, "refund made", "refunds made")}, {refunds.failed} failed.
      {refunds.alreadyRefunded > 0 &&
        ` (${refunds.alreadyRefunded} of them had been made before, so PayPal was not asked again.)`}
      {refunds.unfinished &&
        " The rest are still being made: PayPal is slow, so the server carries on by itself, and tries again any that fail. Look at this page again in a few minutes to see them."}
    </>
  );
}

export default function ManageEvent({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { event, refunds, codes, choices } = loaderData;
  const here = `/admin/events/${event.id}`;
  const cancelled = event.status === "cancelled";
  const errors = actionData?.fieldErrors ?? {};
  const codeErrors = actionData?.codeErrors ?? {};
  const outcome = actionData?.cancelled;

  return (
    <>
      <p>
        <Link to="/admin/events">Back to events</Link>
      </p>
      <h1>{event.name}</h1>
      <p>
        <span className="status-tag">{STATUS_LABELS[event.status]}</span>{" "}
        {formatLongDate(event.eventDate)}, {event.startTime} to {event.endTime}, {event.city}.{" "}
        {event.productName},{" "}
        {event.paymentRequired ? `${event.price}, paid when booking` : "free to the people booking"}
        . {CATEGORY_LABELS[event.category]}, {event.isPublic ? "public" : "private"}.
        {event.labName ? ` Lab: ${event.labName}.` : " No lab chosen yet."}
      </p>

      {loaderData.notice && (
        <div className="notice-panel" role="status">
          <p>{loaderData.notice}</p>
        </div>
      )}
      {loaderData.withoutNhsNumber > 0 && (
        <div className="notice-panel">
          <p>
            {loaderData.withoutNhsNumber === 1
              ? "1 man booked has no NHS number recorded,"
              : `${loaderData.withoutNhsNumber} men booked have no NHS number recorded,`}{" "}
            and this event&apos;s laboratory needs one before a sample is recorded. Ask{" "}
            {loaderData.withoutNhsNumber === 1 ? "him" : "each of them"} for it{" "}
            {loaderData.beforeTheDay ? "before the day" : "at the door"}
            {loaderData.canSeeAttendees ? (
              <>
                : the <Link to={`/admin/events/${event.id}/attendees`}>attendee list</Link> names{" "}
                {loaderData.withoutNhsNumber === 1 ? "him" : "them"}.
              </>
            ) : (
              "."
            )}
          </p>
        </div>
      )}
      {actionData?.statusError && (
        <div className="notification" role="alert">
          <p>{actionData.statusError}</p>
        </div>
      )}
      {outcome && (
        <div className="notice-panel" role="status">
          <p>
            {outcome.newlyCancelled
              ? "The event is cancelled. "
              : "The cancellation was run again. "}
            {plural(outcome.bookingsCancelled, "booking", "bookings")} cancelled and{" "}
            {plural(outcome.emailsQueued, "person", "people")} e-mailed.{" "}
            <RefundOutcome refunds={outcome.refunds} />
          </p>
          {outcome.waitingListClosed > 0 && (
            <p>
              {plural(outcome.waitingListClosed, "person was", "people were")} taken off the waiting
              list and e-mailed to say the event is cancelled.
            </p>
          )}
          {outcome.bookingsKept > 0 && (
            <p>
              {plural(outcome.bookingsKept, "booking was", "bookings were")} not cancelled: a sample
              was taken or a result exists, so{" "}
              {outcome.bookingsKept === 1 ? "it stays" : "they stay"} with the patient&apos;s
              result. Nobody was e-mailed or refunded for{" "}
              {outcome.bookingsKept === 1 ? "it" : "them"}; contact them yourself if you need to.
            </p>
          )}
        </div>
      )}

      <ul className="admin-stats plain-list">
        <li className="admin-stat">
          <span className="admin-stat__number">{loaderData.booked}</span> booked (confirmed)
        </li>
        <li className="admin-stat">
          <span className="admin-stat__number">{loaderData.held}</span> held (booking now)
        </li>
        <li className="admin-stat">
          <span className="admin-stat__number">{loaderData.total}</span> places in total
        </li>
      </ul>
      <ul className="plain-list">
        {event.status === "published" && (
          <li>
            <Link to={`/event/${event.id}`}>See the event on the site</Link>
          </li>
        )}
        {loaderData.canSeeAttendees && (
          <li>
            <Link to={`${here}/attendees`}>Attendees and check-in</Link>
          </li>
        )}
      </ul>

      <section aria-labelledby="status-title">
        <h2 id="status-title">{cancelled ? "Cancellation and refunds" : "Publish or cancel"}</h2>
        {event.status === "draft" && (
          <>
            <p>
              This event is a draft: only staff can see it. Publishing puts it on the site, in the
              events list and on its own page
              {event.isPublic ? "" : " (private: people need an access code)"}.
            </p>
            {loaderData.ended ? (
              <p>It has already ended, so it cannot be published.</p>
            ) : (
              <Form method="post" action={here}>
                <input type="hidden" name="intent" value="publish" />
                <SubmitButton busy={busy} busyLabel="Publishing...">
                  Publish this event
                </SubmitButton>
              </Form>
            )}
          </>
        )}
        {event.status === "published" && (
          <>
            <p>This event is on the site.</p>
            {loaderData.activeBookings > 0 ? (
              <p>
                It cannot go back to draft:{" "}
                {plural(loaderData.activeBookings, "place is", "places are")} booked or being
                booked, and a draft is hidden from the people booked. To stop it, cancel it:
                everyone booked is told by e-mail and paid bookings are refunded.
              </p>
            ) : (
              <Form method="post" action={here}>
                <input type="hidden" name="intent" value="unpublish" />
                <p>Nobody has booked yet, so it can go back to draft (hidden from the site).</p>
                <SubmitButton busy={busy} busyLabel="Unpublishing..." className="button--secondary">
                  Unpublish (back to draft)
                </SubmitButton>
              </Form>
            )}
          </>
        )}
        {!cancelled && loaderData.ended && (
          <p>It has ended, so it cannot be cancelled: the people who came would be refunded.</p>
        )}
        {!cancelled && !loaderData.ended && !loaderData.confirmCancel && (
          <p>
            <Link to="?cancel=confirm#cancel-event" className="button button--secondary">
              Cancel this event
            </Link>
          </p>
        )}
        {loaderData.confirmCancel && (
          <div className="important" id="cancel-event">
            <h3>Cancel {event.name}?</h3>
            <ul>
              <li>
                {plural(
                  loaderData.activeBookings - loaderData.keptOnCancel.bookings,
                  "booking is",
                  "bookings are",
                )}{" "}
                cancelled, and everyone whose booking is cancelled is told by e-mail.
              </li>
              <li>
                {plural(
                  loaderData.paidBookings - loaderData.keptOnCancel.paid,
                  "paid booking is",
                  "paid bookings are",
                )}{" "}
                refunded in full through PayPal.
              </li>
              {loaderData.keptOnCancel.bookings > 0 && (
                <li>
                  {plural(loaderData.keptOnCancel.bookings, "booking stays", "bookings stay")}: a
                  sample has been taken, so{" "}
                  {loaderData.keptOnCancel.bookings === 1 ? "it keeps its" : "they keep their"}{" "}
                  result and {loaderData.keptOnCancel.bookings === 1 ? "is" : "are"} not refunded.
                </li>
              )}
              <li>A cancelled event cannot be published again.</li>
            </ul>
            <Form method="post" action={here} className="button-group">
              <input type="hidden" name="intent" value="cancel" />
              <SubmitButton busy={busy} busyLabel="Cancelling...">
                Yes, cancel the event
              </SubmitButton>
              <Link to={here}>No, keep the event</Link>
            </Form>
          </div>
        )}
        {cancelled && (
          <>
            <p>
              Cancelled{event.cancelledOn ? ` on ${event.cancelledOn}` : ""}. It cannot be published
              again.
            </p>
            <p>
              {plural(refunds.refunded, "refund made", "refunds made")},{" "}
              {plural(refunds.outstanding, "paid booking", "paid bookings")} still to refund
              {refunds.failures.length > 0 ? ` (${refunds.failures.length} failed)` : ""}.
            </p>
            {refunds.pendingAtPayPal > 0 && (
              <p>
                {pendingRefundsNote(refunds.pendingAtPayPal, refunds.pendingSince)} This usually
                means the payment was by eCheck, which has not cleared. PayPal finishes such refunds
                by itself; if one still shows here after a week, look it up in PayPal.
              </p>
            )}
            {refunds.activeAfterCancel > 0 && (
              <p>
                {plural(refunds.activeAfterCancel, "booking was", "bookings were")} confirmed after
                the event was cancelled (a payment that was already on its way). Retrying cancels
                and refunds {refunds.activeAfterCancel === 1 ? "it" : "them"}.
              </p>
            )}
            {refunds.keptWithSample > 0 && (
              <p>
                {plural(refunds.keptWithSample, "booking was", "bookings were")} kept: a sample was
                taken or a result exists, so{" "}
                {refunds.keptWithSample === 1 ? "it stays" : "they stay"} with the patient&apos;s
                result. Nobody was e-mailed or refunded for{" "}
                {refunds.keptWithSample === 1 ? "it" : "them"}.
              </p>
            )}
            {refunds.failures.length > 0 && (
              <AdminTable label="Failed refunds" columns={["Booking", "Why it failed"]}>
                {refunds.failures.map((failure) => (
                  <tr key={failure.reference}>
                    <th scope="row" className="reference">
                      {failure.reference}
                    </th>
                    <td>{failure.reason}</td>
                  </tr>
                ))}
              </AdminTable>
            )}
            {(refunds.outstanding > 0 || refunds.activeAfterCancel > 0) && (
              <Form method="post" action={here}>
                <input type="hidden" name="intent" value="refund" />
                <p>
                  The website tries failed refunds again by itself, waiting longer each time, for
                  about a day and a half. You can retry now as well: a retried refund is made once,
                  because PayPal is told it is the same refund.
                </p>
                <SubmitButton busy={busy} busyLabel="Refunding...">
                  Retry refunds
                </SubmitButton>
              </Form>
            )}
          </>
        )}
      </section>

      <section aria-labelledby="access-codes-title" id="access-codes">
        <h2 id="access-codes-title">Access codes</h2>
        <p>
          {cancelled
            ? "The event is cancelled, so its codes no longer lead anywhere bookable."
            : event.isPublic
              ? "This event is public: anyone can see and book it without a code. Codes matter only if you make it private."
              : "This event is private: people need a code to see and book it. Give each group its own code, so you can see its uses and revoke it alone."}
        </p>
        {actionData?.newCode && (
          <div className="notice-panel" role="status">
            <p>
              New code{actionData.newCode.label ? ` for ${actionData.newCode.label}` : ""}:{" "}
              <strong className="totp-key">{actionData.newCode.code}</strong>
            </p>
            <p>
              Copy it now. It is shown only this once: we keep only a scrambled form of it, which
              cannot be turned back into the code.
            </p>
          </div>
        )}
        {codes.length === 0 ? (
          <p>No codes yet.</p>
        ) : (
          <AdminTable
            label="Access codes"
            columns={["Given to", "Uses", "Works until", "Status", "Action"]}
          >
            {codes.map((code) => (
              <tr key={code.id}>
                <th scope="row">
                  {code.label ?? "No label"}
                  <br />
                  <span className="hint">Made {code.created}</span>
                </th>
                <td>
                  {code.uses} of {code.maxUses ?? "unlimited"}
                </td>
                <td>{code.lastDay ? `End of ${code.lastDay}` : "No end date"}</td>
                <td>
                  <span className="status-tag">{CODE_STATE_LABELS[code.state]}</span>
                </td>
                <td>
                  {code.state === "revoked" ? (
                    "None"
                  ) : (
                    <Form method="post" action={here}>
                      <input type="hidden" name="intent" value="revoke-code" />
                      <input type="hidden" name="codeId" value={code.id} />
                      {/* aria-label, not a hidden span: an absolutely placed span would
                          escape the table's scroll box and widen the page at 320 px. */}
                      <button
                        type="submit"
                        className="button button--secondary button--small"
                        aria-label={`Revoke the code for ${code.label ?? "no label"}`}
                      >
                        Revoke
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
        {!cancelled && (
          <>
            <h3>Make a code</h3>
            <ErrorSummary errors={codeErrors} fieldOrder={["label", "maxUses", "expiresOn"]} />
            <Form
              method="post"
              action={`${here}#access-codes`}
              noValidate
              className="form"
              key={actionData?.newCode?.code ?? "new-code"}
            >
              <input type="hidden" name="intent" value="create-code" />
              <TextField
                name="label"
                label="Who the code is for (optional)"
                hint="For staff only, like Stour Estuary Lodge."
                defaultValue={actionData?.codeValues?.label ?? ""}
                error={codeErrors.label}
              />
              <TextField
                name="maxUses"
                label="Most uses (optional)"
                hint="Each person who unlocks the event uses it once. Leave blank for no limit."
                inputMode="numeric"
                className="input--width-20"
                defaultValue={actionData?.codeValues?.maxUses ?? ""}
                error={codeErrors.maxUses}
              />
              <TextField
                name="expiresOn"
                type="date"
                label="Last day it works (optional)"
                hint="It works until midnight (UK time) at the end of this day, for example 2026-06-10."
                className="input--width-20"
                defaultValue={actionData?.codeValues?.expiresOn ?? ""}
                error={codeErrors.expiresOn}
              />
              <SubmitButton busy={busy} busyLabel="Making the code...">
                Make a code
              </SubmitButton>
            </Form>
          </>
        )}
      </section>

      <section aria-labelledby="details-title">
        <h2 id="details-title">Event details</h2>
        {cancelled ? (
          <p>This event is cancelled, so its details can no longer be changed.</p>
        ) : (
          <>
            {actionData?.formError && (
              <div className="notification" role="alert">
                <p>{actionData.formError}</p>
              </div>
            )}
            <ErrorSummary errors={errors} fieldOrder={EVENT_FIELD_ORDER} />
            <Form method="post" action={here} noValidate className="form" key={event.updatedAt}>
              <input type="hidden" name="intent" value="save" />
              <input type="hidden" name="seen" value={actionData?.seen ?? event.updatedAt} />
              <EventFields
                values={actionData?.values ?? loaderData.values}
                errors={errors}
                products={choices.products}
                labs={choices.labs}
                booked={loaderData.booked}
              />
              <SubmitButton busy={busy} busyLabel="Saving...">
                Save changes
              </SubmitButton>
            </Form>
          </>
        )}
      </section>
    </>
  );
}
