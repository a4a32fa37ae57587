import crypto from "node:crypto";
import { config } from "#app/config.server";
import { addLondonDays, londonInstant } from "#app/domain/london-time";
import { serverSecret } from "./secrets.server";

/**
 * Signed links to one booking's page (`/my-bookings/:reference`), for the e-mails we send: the
 * confirmation, a change of time, the reminder. The signature (HMAC-SHA256 with the server's
 * secret, as `consent-links.server.ts` does) covers the booking's id, its owner's user id and the
 * expiry, which is the end of the day after the appointment: a link from an old e-mail stops working.
 *
 * A valid link does not sign anyone in (D-109 in docs/DECISIONS.md): it takes the person to his
 * booking, through the sign-in page when he is not signed in, and only its owner gets the page
 * (anyone else gets 404). A tampered link is refused before anything is shown; an expired one is
 * told apart (`openMyBooking` just shows the owner his booking: the link grants nothing itself).
 */

export interface LinkedBooking {
  id: string;
  userId: string;
  reference: string;
  /** the appointment's London date, "yyyy-MM-dd" */
  eventDate: string;
}

/** An HMAC-SHA256 in base64url without padding. */
const SIGNATURE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

function signature(bookingId: string, userId: string, expires: number): string {
  return crypto
    .createHmac("sha256", serverSecret())
    .update(`manage-booking|${bookingId}|${userId}|${expires}`)
    .digest("base64url");
}

/** When a booking's links stop working: the end of the day after the appointment (London). */
export function bookingLinkExpiry(eventDate: string): Date {
  return londonInstant(addLondonDays(eventDate, 2), "00:00");
}

/** The query string that makes a link to this booking signed: `expires` and `signature`. */
export function signedBookingQuery(booking: LinkedBooking): string {
  const expires = Math.floor(bookingLinkExpiry(booking.eventDate).getTime() / 1000);
  return new URLSearchParams({
    expires: String(expires),
    signature: signature(booking.id, booking.userId, expires),
  }).toString();
}

/** The absolute, signed address of the booking's page, for an e-mail. */
export function manageBookingUrl(booking: LinkedBooking): string {
  return `${config().publicBaseUrl}/my-bookings/${encodeURIComponent(booking.reference)}?${signedBookingQuery(booking)}`;
}

export type BookingLinkCheck =
  /** no signature in the address: a plain visit, judged by the session alone */
  | { kind: "none" }
  | { kind: "valid" }
  /** altered, or made for another booking or person */
  | { kind: "invalid" }
  | { kind: "expired" };

/**
 * Whether an address's `expires` and `signature` were made by us for this booking and its owner,
 * and are still in date. Pages that are given a bad one refuse it whoever is signed in.
 */
export function checkBookingLink(
  query: URLSearchParams,
  booking: { id: string; userId: string } | null,
  now = new Date(),
): BookingLinkCheck {
  const given = query.get("signature");
  const expiresText = query.get("expires");
  if (given === null && expiresText === null) return { kind: "none" };
  const expires = Number(expiresText);
  if (!booking || !given || !Number.isSafeInteger(expires)) return { kind: "invalid" };
  // The shape of one of our signatures first: 32 bytes in base64url, 43 ASCII characters. (Equal
  // lengths in characters are not equal lengths in bytes, and timingSafeEqual throws on those.)
  if (!SIGNATURE_SHAPE.test(given)) return { kind: "invalid" };
  const expected = signature(booking.id, booking.userId, expires);
  const matches = crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  if (!matches) return { kind: "invalid" };
  if (expires * 1000 <= now.getTime()) return { kind: "expired" };
  return { kind: "valid" };
}
