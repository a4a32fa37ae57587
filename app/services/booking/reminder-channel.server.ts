import type { Db } from "#app/db/client.server";
import type { PolicyInput } from "#app/domain/cancellation-policy";
import type { BookingView } from "./view.server";

/**
 * How a reminder reaches its person. The reminder job (`reminders.server.ts`) knows only this
 * interface: e-mail is one channel (`reminder-email.server.ts`); a text message would be another,
 * added without touching the job.
 */

/** Everything a channel may say: no consent answers, no results, no NHS number. */
export interface Reminder {
  bookingId: string;
  /** The booking as its person sees it: event, date, times, address, what to bring. */
  booking: BookingView;
  person: {
    firstName: string;
    email: string;
    /** From the profile; null when there is none. */
    phone: string | null;
  };
  /** Where the person sees, changes or cancels this booking. */
  manageUrl: string;
  /**
   * The cancellation policy's input when the reminder is sent: what it says about changing and
   * cancelling is worked out from it then (a change may already be closed).
   */
  policy: PolicyInput;
}

export interface ReminderChannel {
  /** What the channel is, such as "email" or "sms". */
  name: string;
  /**
   * Sends (or queues) one reminder inside the job's transaction, which also marks the booking as
   * reminded: if this throws, neither happens and the next pass tries again. A channel that talks
   * to the outside world must do so through an outbox, after the commit, never from here.
   */
  send(tx: Db, reminder: Reminder): Promise<void>;
}
