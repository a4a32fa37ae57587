import { generalTermsSentences } from "#app/domain/terms-general";
import { organisation } from "./organisation";

/** The cancellation terms of a paid appointment, shown on the booking page (one source: terms-wording.ts). */
export const CANCELLATION_POLICY: readonly string[] = generalTermsSentences(true);

/** The other way to change or cancel: people call or write; we do it for them. */
export const HOW_TO_CHANGE_BY_PHONE = `To change or cancel, you can also call our booking helpline on ${organisation.phones.booking.display} or e-mail ${organisation.emails.bookings} with your booking reference.`;
