import { useEffect, useState, type ReactNode } from "react";
import { Link } from "#app/components/link";
import {
  holdWarningDue,
  type MoreTimeAnswer,
  type MoreTimeState,
} from "#app/domain/booking-lifecycle";
import { bookingPaths } from "#app/domain/booking-paths";
import { formatLondonTime, formatMinutesFromNow } from "#app/domain/date-labels";

/** How often the page looks at the clock (the words say whole minutes). */
const TICK_MS = 5_000;

/**
 * The page's idea of "now": the server's time when it rendered (so the first render matches the
 * server's), then the browser's clock corrected by the difference seen on arrival, so a wrong
 * clock on the person's computer does not move the warning.
 */
function useServerNow(renderedAt: string | Date | undefined): Date | null {
  const [now, setNow] = useState(() => (renderedAt ? new Date(renderedAt) : null));
  useEffect(() => {
    if (!renderedAt) return;
    const offset = new Date(renderedAt).getTime() - Date.now();
    const tick = () => setNow(new Date(Date.now() + offset));
    tick();
    const timer = setInterval(tick, TICK_MS);
    return () => clearInterval(timer);
  }, [renderedAt]);
  return now;
}

/**
 * "We are holding the 10:15 appointment for you until 14:32, 15 minutes from now.", on the
 * consent and checkout
 * steps. With `renderedAt`, a live region warns a few minutes before the end (adding `warningHint`,
 * what he can do) and says when it has come (with `lapsed`, what happens now), without moving
 * focus; without JavaScript the end is still stated in words. `children` is what the page offers
 * ("I need more time", or why it cannot).
 */
export function HoldNotice({
  slot,
  until,
  renderedAt,
  warningHint,
  lapsed,
  children,
}: {
  slot: string;
  until: Date | string | null;
  renderedAt?: Date | string;
  warningHint?: ReactNode;
  lapsed?: ReactNode;
  children?: ReactNode;
}) {
  const now = useServerNow(renderedAt);
  const end = until ? new Date(until) : null;
  const ended = now !== null && end !== null && end.getTime() <= now.getTime();
  const warning = now !== null && end !== null && !ended && holdWarningDue(end, now);
  // Near or at the end, the notice (with "I need more time") moves to the foot of the screen, so
  // that he sees it wherever he is on a long form, not only at its top (D-215).
  const pinned = warning || ended;
  // What he is typing in may now be under the bar: brought above it (the page's scroll padding).
  useEffect(() => {
    if (pinned) document.activeElement?.scrollIntoView({ block: "nearest" });
  }, [pinned]);
  if (!end) return null;
  const time = formatLondonTime(end);
  return (
    <div className={`inset hold-notice${pinned ? " hold-notice--pinned" : ""}`}>
      {ended ? (
        <p>
          We stopped holding the {slot} appointment for you at {time}.
        </p>
      ) : (
        <p>
          We are holding the {slot} appointment for you until {time}
          {now && `, ${formatMinutesFromNow(end, now)}`}.
        </p>
      )}
      <div role="alert">
        {warning && (
          <p>
            <strong>
              Your hold on the {slot} appointment ends soon, at {time}.
            </strong>
            {warningHint && <> {warningHint}</>}
          </p>
        )}
        {ended && lapsed}
      </div>
      {/* Once the end has come, more time is not the page's to give. */}
      {!ended && children}
    </div>
  );
}

/** The button that asks for more time, sent with the page's form as `intent`. */
export const MORE_TIME_INTENT = "more-time";

const MORE_TIME_WORDS: Record<MoreTimeAnswer, (slot: string, until: string) => string> = {
  extended: (slot, until) =>
    `Done: we are now holding the ${slot} appointment for you until ${until}.`,
  "not-needed": (slot, until) =>
    `You already have the full time: we are holding the ${slot} appointment for you until ${until}.`,
  capped: (slot, until) =>
    `We cannot hold the ${slot} appointment for you any longer than ${until}: that is the most time we can give.`,
  paying: (_slot, until) =>
    `You have started paying, so we cannot give more time. Please finish paying by ${until}.`,
  ended: (slot) =>
    `We have already stopped holding the ${slot} appointment, so we cannot give more time.`,
};

/**
 * "I need more time" while it can be given, or why it cannot, and what asking came to, in a live
 * region that is there from the start, so that the answer is read out. It is a submit button of
 * the page's own form, so a consent form's answers travel with it. `whenCapped` says what happens
 * on this page if the time runs out once no more can be given.
 */
export function MoreTimeOffer({
  slot,
  until,
  state,
  answer,
  whenCapped,
}: {
  slot: string;
  until: string;
  state: MoreTimeState;
  answer: MoreTimeAnswer | null;
  whenCapped: string;
}) {
  // The page's own words already say why no more time is given; an answer says what changed.
  const said = answer && answer !== state ? MORE_TIME_WORDS[answer](slot, until) : null;
  return (
    <>
      {state === "offered" && (
        <button
          className="button button--secondary"
          type="submit"
          name="intent"
          value={MORE_TIME_INTENT}
        >
          I need more time
        </button>
      )}
      {state === "capped" && (
        <p>
          {MORE_TIME_WORDS.capped(slot, until)} {whenCapped}
        </p>
      )}
      {state === "paying" && <p>{MORE_TIME_WORDS.paying(slot, until)}</p>}
      <div role="status">{said && <p>{said}</p>}</div>
    </>
  );
}

/** The warning's second sentence: what he can still do before the end. */
export function moreTimeHint(state: MoreTimeState, otherwise: string): string {
  return state === "offered" ? "If you need longer, choose “I need more time”." : otherwise;
}

/** What happens to a form sent after the hold ended (consent.tsx keeps its answers). */
export function HoldLapsedWords({ slot }: { slot: string }) {
  return (
    <p>
      You can still send the form. If {slot} is still free, we will book it for you. If it has gone,
      we will keep your answers and ask you only to choose another time.
    </p>
  );
}

/** The hold ran out and someone else has the time: say so, and offer to choose again. */
export function HoldEnded({ slot, eventId }: { slot: string; eventId: string }) {
  return (
    <div className="warning" role="alert">
      <p>
        We could not keep {slot} for you any longer, and it may have been taken. No money has been
        taken. Please choose a time again.
      </p>
      <Link className="button" to={bookingPaths.chooseTime(eventId)}>
        Choose another time
      </Link>
    </div>
  );
}
