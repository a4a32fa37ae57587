import { takesPlace, type BookingStatus } from "./booking-lifecycle";
import type { CheckInState } from "./check-in";

/**
 * The attendee list of an event, as the back office shows it: who is booked at which time, how
 * to find one person in it, and the words for each status.
 */

export const SEARCH_MAX_LENGTH = 100;

/* Here rather than in check-in.ts, so that the page's browser code does not carry Zod. */
export const CHECK_IN_LABELS: Record<CheckInState, string> = {
  waiting: "Not checked in",
  arrived: "Arrived",
  no_show: "No-show",
  sample_taken: "Sample taken",
};

/** What the confirmation after each action says. */
export const CHECK_IN_DONE_MESSAGES = {
  arrived: "Marked as arrived.",
  "no-show": "Marked as a no-show.",
  sample: "Sample recorded.",
  undo: "Mark undone.",
} as const;

/** The state each confirmation speaks of; an undo's is the state it left, carried with it. */
const CONFIRMED_STATE: Record<
  Exclude<keyof typeof CHECK_IN_DONE_MESSAGES, "undo">,
  CheckInState
> = {
  arrived: "arrived",
  "no-show": "no_show",
  sample: "sample_taken",
};

/** The list's confirmation after each thing done to one man's booking, by its `done` in the address. */
export const ATTENDEE_DONE_MESSAGES = {
  ...CHECK_IN_DONE_MESSAGES,
  "consent-link": "Consent link sent by e-mail.",
  details: "Date of birth and NHS number saved.",
  "details-unchanged": "Nothing changed: those were already his details.",
} as const;

export type AttendeeDoneIntent = keyof typeof ATTENDEE_DONE_MESSAGES;

export function isAttendeeDoneIntent(value: string | null): value is AttendeeDoneIntent {
  return value !== null && Object.hasOwn(ATTENDEE_DONE_MESSAGES, value);
}

/**
 * Whether a confirmation named in the address still holds for the row: reached again by Back or
 * a reload after a later change, "Marked as arrived." beside "Not checked in" would mislead. An
 * undo's confirmation ("Undone. Now: arrived.") holds while the row is in the state it left
 * (`left`, from the address too); without one, it is not shown.
 */
export function confirmationHolds(
  intent: keyof typeof CHECK_IN_DONE_MESSAGES,
  now: CheckInState,
  left?: CheckInState | null,
): boolean {
  return intent === "undo" ? left === now : CONFIRMED_STATE[intent] === now;
}

export const BOOKING_STATUS_LABELS = {
  held: "Held (not yet consented)",
  awaiting_payment: "Awaiting payment",
  confirmed: "Confirmed",
  expired: "Expired",
  cancelled: "Cancelled",
} as const;

export const PAYMENT_STATUS_LABELS = {
  not_required: "Free",
  unpaid: "Not paid",
  pending: "Payment under review",
  paid: "Paid",
  refunded: "Refunded",
} as const;

/**
 * Letters and digits without accents, lower case, single spaces: "Zoë  O’Brien-Smith" →
 * "zoe obriensmith". Apostrophes and hyphens go: a tablet types a curly apostrophe where the name
 * was stored with a straight one (or none), and people leave them out.
 */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

function compactReference(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** What was typed in the search box, tidied; empty when there is nothing to search for. */
export function cleanSearch(typed: string | null | undefined): string {
  if (typeof typed !== "string") return "";
  return typed.replace(/\s+/g, " ").trim().slice(0, SEARCH_MAX_LENGTH);
}

/**
 * Does this attendee match the search (everyone, when nothing is typed)? By name (every word typed appears in "first last", in any
 * case and without accents) or by booking reference (4 or more of its characters, with or without
 * the dashes).
 */
export function matchesAttendeeSearch(
  attendee: { name: string; reference: string },
  search: string,
): boolean {
  if (!search.trim()) return true;
  // Punctuation alone folds to nothing, and nothing is in every name.
  const query = fold(search);
  if (!query) return false;
  const name = fold(attendee.name);
  if (query.split(" ").every((word) => name.includes(word))) return true;
  const typedReference = compactReference(search);
  return (
    typedReference.length >= 4 && compactReference(attendee.reference).includes(typedReference)
  );
}

/**
 * A booking the attendee list shows as a place: one that takes a place (`takesPlace`: confirmed,
 * a live hold, or a capture still unanswered), or a payment PayPal is reviewing. Lapsed holds and
 * abandoned checkouts never became places.
 */
export function isPlaceOnTheList(
  row: {
    status: BookingStatus;
    paymentStatus: string;
    holdExpiresAt: Date | null;
    captureRequestId: string | null;
  },
  now: Date,
): boolean {
  if (row.status === "cancelled" || row.status === "expired") return false;
  return row.paymentStatus === "pending" || takesPlace(row, now);
}

/** The name staff see: the profile's, or the account's when there is no profile. */
export function attendeeName(row: {
  firstName: string | null;
  lastName: string | null;
  accountName: string;
}): string {
  return row.firstName !== null ? `${row.firstName} ${row.lastName ?? ""}`.trim() : row.accountName;
}

/** The time slot first, then surname, first name and reference, so the order never wobbles. */
export function compareAttendees(
  a: { slotTime: string; lastName: string; firstName: string; reference: string },
  b: { slotTime: string; lastName: string; firstName: string; reference: string },
): number {
  return (
    a.slotTime.localeCompare(b.slotTime) ||
    a.lastName.localeCompare(b.lastName, "en-GB", { sensitivity: "base" }) ||
    a.firstName.localeCompare(b.firstName, "en-GB", { sensitivity: "base" }) ||
    a.reference.localeCompare(b.reference)
  );
}

export { formatNhsNumber } from "./nhs-number";

/** "12/04/1968" from "1968-04-12", as staff read dates of birth aloud to check them. */
export function formatDateOfBirth(date: string | null): string | null {
  if (date === null) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : date;
}

/**
 * The printed list's count: confirmed bookings, and apart those not confirmed yet (a hold, or a
 * payment under review), which the list marks and which cannot be checked in as they stand.
 */
export function printedCount(rows: { status: string }[]): string {
  const confirmed = rows.filter((row) => row.status === "confirmed").length;
  const others = rows.length - confirmed;
  const count = `${confirmed} confirmed ${confirmed === 1 ? "booking" : "bookings"}`;
  return others === 0 ? `${count}.` : `${count}, and ${others} not confirmed yet (marked).`;
}

/**
 * Booked men still to give a sample (confirmed, waiting or arrived) with no NHS number recorded, at
 * a laboratory that rejects a sample without one: none when the laboratory does not need it. A
 * booking made before the event's laboratory changed is why one can lack it. A booking without a
 * profile (nothing to record it in) is left out: booking needs a date of birth, so only data put
 * in by hand can make one.
 */
export function withoutNeededNhsNumber<
  Row extends { status: string; checkIn: string; hasProfile: boolean; nhsNumber: string | null },
>(rows: readonly Row[], labNeedsOne: boolean): Row[] {
  if (!labNeedsOne) return [];
  return rows.filter(
    (row) =>
      row.status === "confirmed" &&
      (row.checkIn === "waiting" || row.checkIn === "arrived") &&
      row.hasProfile &&
      !row.nhsNumber,
  );
}

/**
 * Booked men (confirmed) whose recorded NHS number another booked man at the same event shares,
 * in list order: the laboratory would get two men under one number. One of them typed the other's,
 * or staff copied it; each is to be checked against his own NHS letter.
 */
export function sharingNhsNumbers<Row extends { status: string; nhsNumber: string | null }>(
  rows: readonly Row[],
): Row[] {
  const counts = new Map<string, number>();
  for (const row of rows)
    if (row.status === "confirmed" && row.nhsNumber)
      counts.set(row.nhsNumber, (counts.get(row.nhsNumber) ?? 0) + 1);
  return rows.filter(
    (row) => row.status === "confirmed" && row.nhsNumber && counts.get(row.nhsNumber)! > 1,
  );
}
