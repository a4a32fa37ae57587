/** The pages of the booking journey, by booking reference. */
export const bookingPaths = {
  chooseTime: (eventId: string) => `/book-event?event=${eventId}`,
  consent: (reference: string) => `/book-event/consent?booking=${reference}`,
  checkout: (reference: string) => `/checkout?booking=${reference}`,
  success: (reference: string) => `/booking-success?booking=${reference}`,
} as const;

/**
 * Where `/book-event` sends someone who opened it without an event: the spec's "/events". True
 * only for that page with no `event` in its address.
 */
export const NO_EVENT_REDIRECT = "/events";
export function isBookEventWithoutEvent(url: URL): boolean {
  return url.pathname.replace(/\/$/, "") === "/book-event" && !url.searchParams.get("event");
}

export type BookingJourneyPage = "consent" | "checkout" | "success";

/**
 * Where a booking belongs when someone opens one page of the journey for it: a confirmed booking,
 * or one whose payment PayPal is still checking, on its success page (which says which); a booking
 * already consented to, with its place still held, on checkout rather than consent again; one not
 * yet consented to, or cancelled, on consent rather than checkout (the consent page says a booking
 * has been cancelled). Otherwise the page that was asked for, which explains a hold that ended.
 */
export function bookingPageFor(
  booking: { status: string; paymentStatus: string; holdActive: boolean },
  asked: Exclude<BookingJourneyPage, "success">,
): BookingJourneyPage {
  if (booking.status === "confirmed") return "success";
  if (booking.status === "awaiting_payment" && booking.paymentStatus === "pending")
    return "success";
  if (booking.status === "cancelled") return "consent";
  if (asked === "consent" && booking.status === "awaiting_payment" && booking.holdActive)
    return "checkout";
  if (asked === "checkout" && booking.status === "held") return "consent";
  return asked;
}

export function bookingJourneyPath(page: BookingJourneyPage, reference: string): string {
  return bookingPaths[page](reference);
}
