import { z } from "zod";
import { isCalendarDate } from "./calendar-date";
import { EVENT_CATEGORIES, CORPORATE_ONLY, generateSlots } from "./events";
import { COUNTRIES } from "./field-options";
import {
  optionalLine,
  optionalMultilineText,
  postcodeField,
  requiredLine,
  singleLine,
} from "./fields";
import type { FieldErrors, FormResult } from "./forms";
import { parseForm } from "./forms";
import { NHS_NUMBER_LAB } from "./eligibility";
import { parseTimeOfDay } from "./london-time";

/**
 * The back office's event, product and access-code forms: one Zod schema each, plus the rules that
 * compare fields with each other or with the bookings already made. The rules are pure functions
 * so that the service can run the capacity rule again under the event's row lock.
 */

/** The laboratories staff choose from; any lab name already on an event is offered too. */
export const LABS = [NHS_NUMBER_LAB, "Partner laboratory"] as const;

export const EVENT_MESSAGES = {
  name: "Enter the event's name",
  product: "Choose what is tested at this event",
  price:
    "Enter the price in pounds and pence, like 25.00, or leave it blank to use the product's price",
  priceNegative: "The price must be £0.00 or more",
  priceTooHigh: "The price must be £10,000.00 or less",
  paymentRequired: "Choose whether people pay online when they book",
  eventDate: "Enter the event's date, like 2026-06-10",
  eventDatePast: "The event's date must be today or later",
  startTime: "Enter the start time, like 09:30",
  endTime: "Enter the end time, like 13:00",
  endBeforeStart: "The end time must be after the start time",
  sessionDuration: "Enter the length of one appointment in whole minutes, like 15",
  sessionTooLong: (minutes: number) =>
    `The session length must fit between the start and end times: there are ${minutes} minutes, which is not enough for one whole session`,
  totalSpaces: "Enter the total number of places, a whole number like 40",
  placesPerSlot: "Enter how many people can be seen at the same time, a whole number like 2",
  capacityBelowTaken: (taken: number) =>
    `Total places cannot be fewer than the ${taken} ${taken === 1 ? "place" : "places"} already taken (confirmed bookings and holds that have not run out)`,
  perSlotBelowTaken: (taken: number) =>
    `Places at the same time cannot be fewer than ${taken}: one time already has ${taken} people booked`,
  slotsRemoved: (times: string[]) =>
    `People are booked at ${times.join(", ")}, which this change would remove. Keep those times, or cancel the event and make a new one`,
  dateLocked:
    "People have booked this date, so it cannot be moved. Cancel the event (they are told and refunded) and make a new one",
  labLocked: (lab: string, samples: number) =>
    `${samples === 1 ? "1 sample has" : `${samples} samples have`} already been taken for ${lab}, so the laboratory cannot be changed: the tubes and the lab's list are theirs`,
  category: "Choose the kind of event",
  exclusiveFor: "Choose who may book",
  visibility: "Choose whether the event is public or private",
  contactEmail: "Enter the contact e-mail address in the correct format, like events@example.org",
  lab: "Choose the lab that will test the samples",
  addressLine1: "Enter the first line of the address",
  city: "Enter the town or city",
  postcode: "Enter the postcode, like CM1 0XX",
  country: "Choose the country",
  latitude: "Latitude must be a number between -90 and 90, like 51.7356",
  longitude: "Longitude must be a number between -180 and 180, like 0.4685",
  coordinatesPair: "Enter both latitude and longitude, or leave both blank",
} as const;

export const PRODUCT_MESSAGES = {
  name: "Enter the product's name",
  price: "Enter the price in pounds and pence, like 25.00",
} as const;

export const ACCESS_CODE_FORM_MESSAGES = {
  maxUses: "Enter the most times the code may be used, a whole number like 60, or leave it blank",
  expiresOn: "Enter the last day the code works, like 2026-06-10, or leave it blank",
  expiresPast: "The last day the code works must be today or later",
} as const;

/* ---------- pure rules ---------- */

/** Pounds as staff type them ("25", "25.5", "£25.00", "1,250.00") in pence, exactly; or why not. */
export function poundsToPence(
  text: string,
): { ok: true; pence: number } | { ok: false; reason: "format" | "negative" | "too-high" } {
  const tidy = text.trim().replace(/^£/, "").replace(/,/g, "").trim();
  if (/^-\s*£?\d/.test(tidy)) return { ok: false, reason: "negative" };
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(tidy) ?? /^()\.(\d{1,2})$/.exec(tidy);
  if (!match) return { ok: false, reason: "format" };
  const pence = Number(match[1] || "0") * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (pence > 1_000_000) return { ok: false, reason: "too-high" };
  return { ok: true, pence };
}

/** 2500 → "25.00", as a form shows a stored price. */
export function penceToPounds(pence: number): string {
  const digits = String(Math.abs(Math.trunc(pence))).padStart(3, "0");
  return `${pence < 0 ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Minutes after midnight for "HH:mm", or null when it is not a time of day. */
export function readTime(text: string): number | null {
  if (!/^\d{1,2}:\d{2}$/.test(text.trim())) return null;
  try {
    return parseTimeOfDay(text);
  } catch {
    return null;
  }
}

/** "HH:mm" with two-digit hours, as stored and compared. */
function tidyTime(text: string): string {
  const [hours = "", minutes = ""] = text.trim().split(":");
  return `${hours.padStart(2, "0")}:${minutes}`;
}

/**
 * The end after the start, and at least one whole session between them. Null when they fit;
 * otherwise the field at fault and its message.
 */
export function timingProblem(
  startTime: string,
  endTime: string,
  sessionMinutes: number,
): { field: "endTime" | "sessionDuration"; message: string } | null {
  const start = readTime(startTime);
  const end = readTime(endTime);
  if (start === null || end === null) return null;
  if (end <= start) return { field: "endTime", message: EVENT_MESSAGES.endBeforeStart };
  if (Number.isInteger(sessionMinutes) && sessionMinutes > 0 && sessionMinutes > end - start) {
    return { field: "sessionDuration", message: EVENT_MESSAGES.sessionTooLong(end - start) };
  }
  return null;
}

/** Whole numbers typed into a form, within limits; null otherwise. */
export function readWholeNumber(text: string, min: number, max: number): number | null {
  if (!/^\d{1,9}$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value >= min && value <= max ? value : null;
}

/** A coordinate in range, or null (also for text that is not a plain decimal number). */
export function readCoordinate(text: string, limit: 90 | 180): number | null {
  if (!/^[-+]?(\d{1,3}(\.\d+)?|\.\d+)$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

/** What an event already has booked, for the rules about editing it. */
export interface BookingsSoFar {
  /** confirmed bookings plus holds that have not run out */
  taken: number;
  /** the most places taken at any one time */
  mostAtOneTime: number;
  /** the times ("HH:mm") that have an active booking */
  bookedTimes: readonly string[];
  /** the event's date as stored, which cannot move while people are booked */
  eventDate: string;
  /** the laboratory as stored, and how many samples were taken for it (then it cannot change) */
  labName?: string | null;
  samplesTaken?: number;
}

/**
 * The rules that compare a change with the bookings already made: total places at least the
 * places taken, places per time at least the most taken at one time, the booked times still
 * among the event's times, the date unchanged while anyone is booked, and the laboratory
 * unchanged once a sample has been taken for it.
 */
export function bookingConflicts(
  input: {
    eventDate: string;
    startTime: string;
    endTime: string;
    sessionDuration: number;
    totalSpaces: number;
    placesPerSlot: number;
    labName?: string | null;
  },
  bookings: BookingsSoFar,
): FieldErrors {
  const errors: FieldErrors = {};
  const samples = bookings.samplesTaken ?? 0;
  if (samples > 0 && bookings.labName && input.labName !== bookings.labName)
    errors.labName = EVENT_MESSAGES.labLocked(bookings.labName, samples);
  if (input.totalSpaces < bookings.taken)
    errors.totalSpaces = EVENT_MESSAGES.capacityBelowTaken(bookings.taken);
  if (input.placesPerSlot < bookings.mostAtOneTime)
    errors.placesPerSlot = EVENT_MESSAGES.perSlotBelowTaken(bookings.mostAtOneTime);
  if (bookings.bookedTimes.length > 0) {
    if (input.eventDate !== bookings.eventDate) errors.eventDate = EVENT_MESSAGES.dateLocked;
    let slots: string[] = [];
    try {
      slots = generateSlots(input.startTime, input.endTime, input.sessionDuration);
    } catch {
      slots = [];
    }
    const lost = [...new Set(bookings.bookedTimes)].filter((time) => !slots.includes(time)).sort();
    if (lost.length > 0) errors.startTime ??= EVENT_MESSAGES.slotsRemoved(lost);
  }
  return errors;
}

/* ---------- the event form ---------- */

const YES_NO = ["yes", "no"] as const;
const VISIBILITY = ["public", "private"] as const;
const WHO_MAY_BOOK = ["everyone", CORPORATE_ONLY] as const;

/** Pounds typed as text, in pence; the messages for negative and too-high amounts are shared. */
function readPounds(typed: string, message: string, ctx: z.RefinementCtx): number | typeof z.NEVER {
  const read = poundsToPence(typed);
  if (read.ok) return read.pence;
  ctx.addIssue({
    code: "custom",
    message:
      read.reason === "negative"
        ? EVENT_MESSAGES.priceNegative
        : read.reason === "too-high"
          ? EVENT_MESSAGES.priceTooHigh
          : message,
  });
  return z.NEVER;
}

function pounds(message: string) {
  return z
    .string()
    .default("")
    .transform((typed, ctx) => readPounds(typed, message, ctx));
}

/** Blank is null (the event then uses its product's price). */
function optionalPounds(message: string) {
  return z
    .string()
    .default("")
    .transform((typed, ctx) => (typed.trim() === "" ? null : readPounds(typed, message, ctx)));
}

function wholeNumber(message: string, min: number, max: number) {
  return z
    .string()
    .default("")
    .transform((typed, ctx) => {
      const value = readWholeNumber(typed, min, max);
      if (value !== null) return value;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });
}

function timeOfDay(message: string) {
  return z
    .string()
    .default("")
    .transform((typed, ctx) => {
      if (readTime(typed) !== null) return tidyTime(typed);
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });
}

function coordinate(limit: 90 | 180, message: string) {
  return z
    .string()
    .default("")
    .transform((typed, ctx) => {
      if (typed.trim() === "") return null;
      const value = readCoordinate(typed, limit);
      if (value !== null) return value;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    });
}

function oneOf(options: readonly string[], message: string) {
  return z
    .string({ error: message })
    .trim()
    .refine((value) => options.includes(value), { error: message });
}

/** The choices that depend on the database: the products and the labs. */
export interface EventFormChoices {
  productIds: readonly string[];
  labs: readonly string[];
}

export function eventFormSchema(choices: EventFormChoices) {
  return z.object({
    name: requiredLine(EVENT_MESSAGES.name, 120),
    description: optionalMultilineText(2000),
    productId: oneOf(choices.productIds, EVENT_MESSAGES.product),
    price: optionalPounds(EVENT_MESSAGES.price),
    paymentRequired: z
      .enum(YES_NO, { error: EVENT_MESSAGES.paymentRequired })
      .transform((value) => value === "yes"),
    eventDate: z
      .string()
      .default("")
      .transform((value) => value.trim())
      .refine(isCalendarDate, { error: EVENT_MESSAGES.eventDate }),
    startTime: timeOfDay(EVENT_MESSAGES.startTime),
    endTime: timeOfDay(EVENT_MESSAGES.endTime),
    sessionDuration: wholeNumber(EVENT_MESSAGES.sessionDuration, 1, 24 * 60),
    totalSpaces: wholeNumber(EVENT_MESSAGES.totalSpaces, 1, 100_000),
    placesPerSlot: wholeNumber(EVENT_MESSAGES.placesPerSlot, 1, 1_000),
    category: z.enum(EVENT_CATEGORIES as ["community", "freemasons", "corporate"], {
      error: EVENT_MESSAGES.category,
    }),
    exclusiveFor: z
      .enum(WHO_MAY_BOOK, { error: EVENT_MESSAGES.exclusiveFor })
      .transform((value) => (value === CORPORATE_ONLY ? CORPORATE_ONLY : null)),
    visibility: z
      .enum(VISIBILITY, { error: EVENT_MESSAGES.visibility })
      .transform((value) => value === "public"),
    contactEmail: singleLine()
      .default("")
      .transform((typed, ctx) => {
        const value = typed.trim().toLowerCase();
        if (value === "") return null;
        if (value.length <= 254 && z.email().safeParse(value).success) return value;
        ctx.addIssue({ code: "custom", message: EVENT_MESSAGES.contactEmail });
        return z.NEVER;
      }),
    labName: oneOf(choices.labs, EVENT_MESSAGES.lab),
    addressLine1: requiredLine(EVENT_MESSAGES.addressLine1, 200),
    addressLine2: optionalLine(200),
    city: requiredLine(EVENT_MESSAGES.city, 100),
    state: optionalLine(100),
    postcode: postcodeField(EVENT_MESSAGES.postcode),
    country: z.enum(COUNTRIES, { error: EVENT_MESSAGES.country }),
    latitude: coordinate(90, EVENT_MESSAGES.latitude),
    longitude: coordinate(180, EVENT_MESSAGES.longitude),
  });
}

export type EventFormData = z.output<ReturnType<typeof eventFormSchema>>;

export interface EventFormContext extends EventFormChoices {
  /** London's date today; a new event, or a changed date, must not be in the past */
  today: string;
  /** the stored date when editing (an unchanged past date is left alone) */
  currentDate?: string;
  /** what is booked already, when editing */
  bookings?: BookingsSoFar;
}

/**
 * Checks an event form: every field on its own, then the rules between fields (end after start,
 * a whole session fits, both coordinates or neither, the date not past) and against what is
 * already booked. Every problem is reported at once, each beside its field.
 */
export function validateEventForm(
  values: Record<string, string>,
  context: EventFormContext,
): FormResult<EventFormData> {
  const parsed = parseForm(eventFormSchema(context), values);
  const errors: FieldErrors = parsed.ok ? {} : { ...parsed.fieldErrors };
  const text = (name: string) => values[name] ?? "";

  const session = readWholeNumber(text("sessionDuration"), 1, 24 * 60);
  const timing = timingProblem(text("startTime"), text("endTime"), session ?? 0);
  if (timing) errors[timing.field] ??= timing.message;

  const latitude = text("latitude").trim();
  const longitude = text("longitude").trim();
  if ((latitude === "") !== (longitude === "")) {
    errors[latitude === "" ? "latitude" : "longitude"] ??= EVENT_MESSAGES.coordinatesPair;
  }

  const date = text("eventDate").trim();
  if (isCalendarDate(date) && date < context.today && date !== context.currentDate) {
    errors.eventDate ??= EVENT_MESSAGES.eventDatePast;
  }

  if (parsed.ok && context.bookings) {
    for (const [field, message] of Object.entries(bookingConflicts(parsed.data, context.bookings)))
      errors[field] ??= message;
  }

  if (parsed.ok && Object.keys(errors).length === 0) return parsed;
  return { ok: false, fieldErrors: errors, values: parsed.ok ? values : parsed.values };
}

/** A stored event as the form shows it. */
export function eventFormValues(row: {
  name: string;
  description: string | null;
  productId: string;
  pricePence: number | null;
  paymentRequired: boolean | null;
  eventDate: string;
  startTime: string;
  endTime: string;
  sessionDuration: number;
  totalSpaces: number;
  placesPerSlot: number;
  category: string;
  exclusiveFor: string | null;
  isPublic: boolean;
  contactEmail: string | null;
  labName: string | null;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string | null;
  postcode: string;
  country: string;
  latitude: number | null;
  longitude: number | null;
}): Record<string, string> {
  return {
    name: row.name,
    description: row.description ?? "",
    productId: row.productId,
    price: row.pricePence === null ? "" : penceToPounds(row.pricePence),
    paymentRequired: row.paymentRequired ? "yes" : "no",
    eventDate: row.eventDate,
    startTime: row.startTime.slice(0, 5),
    endTime: row.endTime.slice(0, 5),
    sessionDuration: String(row.sessionDuration),
    totalSpaces: String(row.totalSpaces),
    placesPerSlot: String(row.placesPerSlot),
    category: row.category,
    exclusiveFor:
      row.exclusiveFor?.trim().toUpperCase() === CORPORATE_ONLY ? CORPORATE_ONLY : "everyone",
    visibility: row.isPublic ? "public" : "private",
    contactEmail: row.contactEmail ?? "",
    labName: row.labName ?? "",
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2 ?? "",
    city: row.city,
    state: row.state ?? "",
    postcode: row.postcode,
    country: row.country,
    latitude: row.latitude === null ? "" : String(row.latitude),
    longitude: row.longitude === null ? "" : String(row.longitude),
  };
}

/* ---------- products ---------- */

export const productFormSchema = z.object({
  name: requiredLine(PRODUCT_MESSAGES.name, 100),
  description: optionalMultilineText(500),
  price: pounds(PRODUCT_MESSAGES.price),
});

export type ProductFormData = z.output<typeof productFormSchema>;

/* ---------- access codes ---------- */

/** Letters and digits nobody mixes up when reading a code out: no 0/O, 1/I/L, 5/S, 2/Z, 8/B. */
export const ACCESS_CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679";

/**
 * A readable code from random bytes: three groups of four ("K7QM-4XPD-W2HT"), about 56 bits. One
 * byte per character, rejecting bytes that would bias the choice; give it at least 24 bytes.
 */
export function formatAccessCode(bytes: Uint8Array): string {
  const size = ACCESS_CODE_ALPHABET.length;
  const limit = 256 - (256 % size);
  const chars: string[] = [];
  for (const byte of bytes) {
    if (byte >= limit) continue;
    chars.push(ACCESS_CODE_ALPHABET[byte % size]!);
    if (chars.length === 12) break;
  }
  if (chars.length < 12) throw new RangeError("Not enough random bytes for an access code");
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8, 12)]
    .map((g) => g.join(""))
    .join("-");
}

export function accessCodeFormSchema(today: string) {
  return z.object({
    label: optionalLine(100),
    maxUses: z
      .string()
      .default("")
      .transform((typed, ctx) => {
        if (typed.trim() === "") return null;
        const value = readWholeNumber(typed, 1, 100_000);
        if (value !== null) return value;
        ctx.addIssue({ code: "custom", message: ACCESS_CODE_FORM_MESSAGES.maxUses });
        return z.NEVER;
      }),
    expiresOn: z
      .string()
      .default("")
      .transform((typed, ctx) => {
        const value = typed.trim();
        if (value === "") return null;
        if (!isCalendarDate(value)) {
          ctx.addIssue({ code: "custom", message: ACCESS_CODE_FORM_MESSAGES.expiresOn });
          return z.NEVER;
        }
        if (value < today) {
          ctx.addIssue({ code: "custom", message: ACCESS_CODE_FORM_MESSAGES.expiresPast });
          return z.NEVER;
        }
        return value;
      }),
  });
}

export type AccessCodeState = "active" | "used-up" | "expired" | "revoked";

/** What staff see beside a code; revoked first, then expired, then used up. */
export function accessCodeState(
  code: { revokedAt: Date | null; expiresAt: Date | null; maxUses: number | null; uses: number },
  now: Date,
): AccessCodeState {
  if (code.revokedAt) return "revoked";
  if (code.expiresAt && code.expiresAt.getTime() <= now.getTime()) return "expired";
  if (code.maxUses !== null && code.uses >= code.maxUses) return "used-up";
  return "active";
}

/* ---------- status changes ---------- */

export type EventStatus = "draft" | "published" | "cancelled";

export const STATUS_MESSAGES = {
  publishCancelled: "A cancelled event cannot be published again. Make a new event instead.",
  publishNoLab: "Choose the lab on the event's details before publishing it.",
  publishPassed: "This event has already ended, so it cannot be published.",
  unpublishBooked: (count: number) =>
    `This event cannot go back to draft: ${count} ${count === 1 ? "person has" : "people have"} booked or ${count === 1 ? "is" : "are"} booking it, and a draft is hidden from them. Cancel the event instead: everyone booked is told and refunded.`,
  editCancelled: "This event is cancelled and can no longer be changed.",
  savedMeanwhile:
    "Someone else changed this event after you opened it (saved, published or unpublished it), so your changes are not saved yet. They are still in the form below. To see the event as it is now, open it again in a new tab. To replace it with your version, press Save changes again.",
  cancelEnded:
    "This event has already ended, so it cannot be cancelled: the people who came would be refunded.",
} as const;

/** Why an event may not be published, or null. */
export function publishProblem(
  row: { status: EventStatus; labName: string | null },
  ended: boolean,
): string | null {
  if (row.status === "cancelled") return STATUS_MESSAGES.publishCancelled;
  if (!row.labName?.trim()) return STATUS_MESSAGES.publishNoLab;
  if (ended) return STATUS_MESSAGES.publishPassed;
  return null;
}

/** Why a published event may not go back to draft, or null: nobody may be booked on it. */
export function unpublishProblem(activeBookings: number): string | null {
  return activeBookings > 0 ? STATUS_MESSAGES.unpublishBooked(activeBookings) : null;
}

/** Why an event may not be cancelled, or null: an event that has ended took place. */
export function cancelProblem(ended: boolean): string | null {
  return ended ? STATUS_MESSAGES.cancelEnded : null;
}
