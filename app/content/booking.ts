import { organisation } from "./organisation";

/** The spec's cancellation terms, shown on the booking page and in the confirmation. */
export const CANCELLATION_POLICY =
  "You can change or cancel your appointment free of charge more than 48 hours before it. A cancellation on the day is charged in full.";

/** How to change or cancel: people call or write; we do it for them. */
export const HOW_TO_CHANGE = `To change or cancel, call our booking helpline on ${organisation.phones.booking.display} or e-mail ${organisation.emails.bookings} with your booking reference.`;
