import { organisation } from "#app/content/organisation";
import { Form, data, redirect, useNavigation } from "react-router";
import { Link } from "#app/components/link";
import { z } from "zod";
import type { Route } from "./+types/my-booking.cancel";
import { FocusedAlert, SubmitButton } from "#app/components/form";
import { BookingFacts, LinkRefused } from "#app/components/my-booking-parts";
import { pageMeta } from "#app/components/meta";
import { db } from "#app/db/client.server";
import { normaliseBookingReference } from "#app/domain/booking-reference";
import {
  CANCEL_REFUSALS,
  cancelOwnBooking,
  cancelPreview,
} from "#app/services/booking/cancel.server";
import { openMyBooking, shownBooking } from "#app/services/booking/my-bookings.server";
import { requireUser } from "#app/services/guards.server";
import { logError, routeOf } from "#app/services/log.server";
import { NO_STORE, TOKEN_LINK_HEADERS, pipeHeaders } from "#app/utils/headers";
import { readForm } from "#app/utils/http.server";
import { revalidateWhenAnswered } from "#app/utils/revalidate";

export const meta = () => pageMeta("Cancel your booking", "Cancel one of your screening bookings.");

export const headers = pipeHeaders;

/** The refund the page showed him, posted back with "Yes, cancel my booking". */
const SHOWN_REFUND = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

const CONFIRM_AGAIN =
  "Please read what happens if you cancel, below, and confirm again if you still want to cancel.";

const CANCEL_FAILED = `We could not cancel your booking just now. Please try again, or call our ${organisation.phones.booking.label.toLowerCase()} on ${organisation.phones.booking.display}.`;

/** Before he confirms: what cancelling means for him (what he gets back, and when). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const opened = await openMyBooking(db(), {
    userId: user.id,
    reference: params.reference,
    query: new URL(request.url).searchParams,
  });
  if (opened.kind === "not-found") throw data(null, { status: 404 });
  if (opened.kind === "link-refused")
    return data(
      { refused: opened.reason, reference: opened.reference },
      { status: opened.reason === "expired" ? 410 : 403, headers: TOKEN_LINK_HEADERS },
    );
  return data(
    { booking: shownBooking(opened.booking), preview: cancelPreview(opened.booking) },
    // A signature in the address stays out of the Referer (D-109).
    { headers: opened.fromLink ? TOKEN_LINK_HEADERS : NO_STORE },
  );
}

/** "Yes, cancel my booking": the service decides; a second press finds it cancelled. */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const shown = SHOWN_REFUND.safeParse((await readForm(request)).get("refundPence"));
  let outcome: Awaited<ReturnType<typeof cancelOwnBooking>>;
  try {
    outcome = await cancelOwnBooking(db(), {
      userId: user.id,
      reference: params.reference,
      // A form without the refund he was shown (an old page, a hand-made post) is asked again.
      shownRefundPence: shown.success ? shown.data : null,
    });
  } catch (error) {
    const errorId = logError(error, { route: routeOf(request), code: "patient_cancel_failed" });
    return data(
      { error: `${CANCEL_FAILED} (Reference ${errorId})` },
      { status: 500, headers: NO_STORE },
    );
  }
  if (outcome.ok) return redirect(`/my-bookings/${outcome.reference}?cancelled`);
  // A second press, or another tab: it is cancelled, which is what he asked for.
  if (outcome.reason === "already-cancelled")
    return redirect(
      `/my-bookings/${encodeURIComponent(normaliseBookingReference(params.reference) ?? params.reference)}?cancelled`,
    );
  if (outcome.reason === "not-found") throw data(null, { status: 404 });
  const termsChanged = outcome.reason === "terms-changed";
  return data(
    {
      error: termsChanged && !shown.success ? CONFIRM_AGAIN : CANCEL_REFUSALS[outcome.reason],
      termsChanged,
    },
    { status: 409, headers: NO_STORE },
  );
}

/**
 * A refusal normally leaves the page's data alone; when the terms changed, the page reads them
 * again so that he confirms what cancelling gives now.
 */
export const shouldRevalidate = revalidateWhenAnswered("termsChanged");

export default function CancelBooking({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  if ("refused" in loaderData)
    return <LinkRefused reason={loaderData.refused} reference={loaderData.reference} />;
  const { booking, preview } = loaderData;
  const back = `/my-bookings/${booking.reference}`;
  return (
    <>
      <p>
        <Link to={back}>Back to your booking</Link>
      </p>
      <h1>Cancel your booking</h1>
      {actionData?.error && (
        <FocusedAlert
          block="error-summary"
          title="Your booking is not cancelled"
          focusKey={actionData}
        >
          <p>{actionData.error}</p>
        </FocusedAlert>
      )}
      <BookingFacts booking={booking} />
      {preview.cancellable ? (
        <>
          <h2>What happens if you cancel</h2>
          {preview.sentences.map((sentence) => (
            <p key={sentence}>{sentence}</p>
          ))}
          <Form method="post" className="button-group">
            <input type="hidden" name="refundPence" value={preview.refundPence} />
            <SubmitButton busy={navigation.state !== "idle"} busyLabel="Cancelling...">
              Yes, cancel my booking
            </SubmitButton>
            <Link className="button button--secondary" to={back}>
              No, keep my booking
            </Link>
          </Form>
        </>
      ) : (
        <p className="inset">{preview.message ?? "This booking is already cancelled."}</p>
      )}
    </>
  );
}
