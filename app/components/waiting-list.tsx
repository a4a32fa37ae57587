import { Form, useNavigation } from "react-router";
import { OverEightyPointer } from "#app/components/age-restriction";
import { BookingHelpline } from "#app/components/helpline";
import { Link } from "#app/components/link";
import { formatLondonDateTime } from "#app/domain/date-labels";
import { type AgeRefusal, AGE_ON_THE_DAY_MESSAGES } from "#app/domain/age-on-the-day";
import { FocusedAlert, SubmitButton } from "./form";

export type WaitlistActionData = {
  waitlistError?: string;
  overEighty?: boolean;
  /** refused for his age: the page reads his state again, which then says so */
  ageRuledOut?: boolean;
};

/** Where the person stands, as the page's loader sends it (dates arrive as strings or Dates). */
type Place =
  | { status: "waiting"; entryId: string; position: number }
  | { status: "offered"; entryId: string; slotTime: string; expiresAt: Date | string };

export const ordinalPlace = (position: number) =>
  position === 1
    ? "You are first on the waiting list."
    : `You are number ${position} on the waiting list.`;

/**
 * The waiting list of a fully booked event, on its page: join it (signed in) or sign in first,
 * your place in it and a way to leave, or the place held for you. Plain forms that post to the
 * event's page, so it works without JavaScript.
 */
export function WaitingList({
  eventId,
  state,
  signedIn,
  offerHours,
  error,
  notice = null,
  overEighty = false,
}: {
  eventId: string;
  state: {
    open: boolean;
    closed: boolean;
    hasPlace: boolean;
    ageRefusal: AgeRefusal | null;
    mine: Place | null;
  };
  signedIn: boolean;
  offerHours: number;
  error?: string;
  /** he has just joined or left: said in a box that takes focus, so it is read out */
  notice?: "joined" | "left" | null;
  /** the refusal is for being past 80 on the day: say where to read instead */
  overEighty?: boolean;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const held = `hold it for you for ${offerHours} ${offerHours === 1 ? "hour" : "hours"}`;
  const mine = state.mine;
  const ageRefusal = signedIn ? state.ageRefusal : null;
  return (
    <section id="waiting-list" className="inset waiting-list" aria-labelledby="waiting-list-title">
      <h2 id="waiting-list-title">Waiting list</h2>
      {notice === "joined" && mine?.status === "waiting" && (
        // The button he pressed is gone: focus comes here, so that he hears where he stands.
        <FocusedAlert
          block="notification"
          title="You have joined the waiting list"
          focusKey={notice}
        >
          <p>{ordinalPlace(mine.position)}</p>
        </FocusedAlert>
      )}
      {notice === "left" && !mine && (
        <FocusedAlert block="notification" title="You have left the waiting list" focusKey={notice}>
          <p>We will not e-mail you about places at this event.</p>
        </FocusedAlert>
      )}
      {mine?.status === "offered" ? (
        <OfferedPlace offer={mine} />
      ) : mine?.status === "waiting" ? (
        <>
          <p>
            <strong>{ordinalPlace(mine.position)}</strong> If a place comes up, we will e-mail you
            and {held}.
          </p>
          {/* No "#waiting-list": the redirect would keep it, and a browser does not autofocus a
              page opened at a fragment, so the answer would not take focus. */}
          <Form method="post" action={`/event/${eventId}`} className="form">
            <input type="hidden" name="intent" value="leave-waitlist" />
            <SubmitButton busy={busy} busyLabel="Leaving..." className="button--secondary">
              Leave the waiting list
            </SubmitButton>
          </Form>
        </>
      ) : state.closed ? (
        <p>Booking for this event has closed, so its waiting list has closed too.</p>
      ) : (
        <>
          {ageRefusal ? (
            <p>Every time at this event is taken.</p>
          ) : (
            <p>
              Every time at this event is taken. Join the waiting list and, if a place comes up, we
              will e-mail you and {held}.
            </p>
          )}
          {error && (
            // Takes focus, so that the answer to his press is read out and in view where he is
            // (without scripts the page comes back from the top, and the browser scrolls to it).
            <FocusedAlert
              block="error-summary"
              title="You cannot join this waiting list"
              focusKey={error}
            >
              <p>{error}</p>
              {overEighty && <OverEightyPointer />}
              <p>
                <BookingHelpline />
              </p>
            </FocusedAlert>
          )}
          {ageRefusal ? (
            // His age on the day rules him out: said here, rather than a button that refuses him
            // (or, just refused from an older page, in the alert above alone).
            error ? null : (
              <div className="inset">
                <p>{AGE_ON_THE_DAY_MESSAGES[ageRefusal]}</p>
                {ageRefusal === "too-old" && <OverEightyPointer />}
                <p>
                  <BookingHelpline />
                </p>
              </div>
            )
          ) : signedIn ? (
            // No "#waiting-list" here: a browser does not focus a page opened at a fragment.
            <Form method="post" action={`/event/${eventId}`} className="form">
              <input type="hidden" name="intent" value="join-waitlist" />
              <SubmitButton busy={busy} busyLabel="Joining...">
                Join the waiting list
              </SubmitButton>
            </Form>
          ) : (
            <Link
              className="button"
              to={`/login?redirectTo=${encodeURIComponent(`/event/${eventId}`)}`}
            >
              Sign in to join the waiting list
            </Link>
          )}
        </>
      )}
    </section>
  );
}

/** The place the waiting list holds for this person, and the way to take it (its own page). */
export function OfferedPlace({
  offer,
}: {
  offer: { entryId: string; slotTime: string; expiresAt: Date | string };
}) {
  return (
    <>
      <p>
        A place at {offer.slotTime} has come up and we are holding it for you until{" "}
        {formatLondonDateTime(offer.expiresAt, " at ")}.
      </p>
      <Link className="button" to={`/waiting-list/${offer.entryId}`}>
        Take the place held for you
      </Link>
    </>
  );
}
