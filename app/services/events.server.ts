import { and, asc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { config } from "#app/config.server";
import type { Db } from "#app/db/client.server";
import { event, screeningProduct } from "#app/db/schema";
import {
  availableSlots,
  bookingWindow,
  dateWindowRange,
  eventStart,
  isUpcoming,
  spacesLeft,
  type BookingWindow,
  type DateWindow,
  type EventCategory,
} from "#app/domain/events";
import { postcodeArea } from "#app/domain/postcode-area";
import { londonDate } from "#app/domain/london-time";
import { createTtlCache } from "#app/domain/ttl-cache";
import { sharedPagesChanged } from "./page-cache.server";
import { hhmm, placesTaken, placesTakenByEvent } from "./booking/places.server";
import { isUuid } from "#app/domain/ids";

/**
 * An event as the API and the pages show it, in the spec's field names. Prices are pence.
 * `booking_status` is the booking window at the moment the view was made. `booked_spaces` is
 * every place taken at that moment, counted from the bookings: confirmed ones plus holds that have
 * not expired (and places held for someone from the waiting list), so that
 * `total_spaces - booked_spaces` is what is still free, as the spec reads it.
 */
export interface EventView {
  event_id: string;
  id: string;
  event_name: string;
  event_description: string | null;
  product_id: string;
  product_name: string;
  product_price: number;
  price: number;
  payment_required: boolean | null;
  event_date: string;
  start_time: string;
  end_time: string;
  session_duration: number;
  total_spaces: number;
  booked_spaces: number;
  spaces_left: number;
  places_per_slot: number;
  category: EventCategory;
  exclusive_for: string | null;
  is_private: boolean;
  contact_email: string | null;
  email_template: string | null;
  lab_name: string | null;
  address_line_1: string;
  address_line_2: string | null;
  city: string;
  state: string | null;
  postcode: string;
  country: string;
  latitude: number | null;
  longitude: number | null;
  booking_status: BookingWindow;
}

/** The event, its product, and the places its bookings take, as one query. */
function selectEvents(db: Db, now: Date) {
  const places = placesTakenByEvent(db, now);
  return db
    .select({
      event,
      productName: screeningProduct.name,
      productPrice: screeningProduct.pricePence,
      productTemplate: screeningProduct.emailTemplate,
      taken: sql<number>`coalesce(${places.taken}, 0)`.mapWith(Number),
    })
    .from(event)
    .innerJoin(screeningProduct, eq(event.productId, screeningProduct.id))
    .leftJoin(places, eq(places.eventId, event.id));
}

type Row = {
  event: typeof event.$inferSelect;
  productName: string;
  productPrice: number;
  productTemplate: string | null;
  /** confirmed bookings, unexpired holds and live waiting-list offers */
  taken: number;
};

function toView(
  { event: row, productName, productPrice, productTemplate, taken }: Row,
  now: Date,
): EventView {
  const timing = {
    eventDate: row.eventDate,
    startTime: hhmm(row.startTime),
    endTime: hhmm(row.endTime),
  };
  const capacity = { totalSpaces: row.totalSpaces, bookedSpaces: taken };
  return {
    event_id: row.id,
    id: row.id,
    event_name: row.name,
    event_description: row.description,
    product_id: row.productId,
    product_name: productName,
    product_price: productPrice,
    price: row.pricePence ?? productPrice,
    payment_required: row.paymentRequired,
    event_date: row.eventDate,
    start_time: timing.startTime,
    end_time: timing.endTime,
    session_duration: row.sessionDuration,
    total_spaces: row.totalSpaces,
    booked_spaces: capacity.bookedSpaces,
    spaces_left: spacesLeft(capacity),
    places_per_slot: row.placesPerSlot,
    category: row.category,
    exclusive_for: row.exclusiveFor,
    is_private: !row.isPublic,
    contact_email: row.contactEmail,
    email_template: row.emailTemplate ?? productTemplate,
    lab_name: row.labName,
    address_line_1: row.addressLine1,
    address_line_2: row.addressLine2,
    city: row.city,
    state: row.state,
    postcode: row.postcode,
    country: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    booking_status: bookingWindow({ ...timing, ...capacity, exclusiveFor: row.exclusiveFor }, now),
  };
}

export interface EventFilter {
  categories?: readonly EventCategory[];
  location?: string;
  date?: DateWindow;
}

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Upcoming events (end still in the future), soonest first, narrowed by category, a place
 * (matched against the name, address, town and postcode, or a postcode's area) and a date window.
 */
export async function listUpcomingEvents(
  db: Db,
  filter: EventFilter,
  now = new Date(),
): Promise<EventView[]> {
  const range = filter.date
    ? dateWindowRange(filter.date, now)
    : { from: londonDate(now), to: null };
  // Events end on the day they start, so the date narrows the rows; the end-instant rule runs below.
  const conditions: SQL[] = [eq(event.status, "published"), gte(event.eventDate, range.from)];
  if (range.to) conditions.push(lte(event.eventDate, range.to));
  if (filter.categories?.length) conditions.push(inArray(event.category, [...filter.categories]));
  const location = filter.location?.trim();
  if (location) {
    const pattern = `%${escapeLike(location)}%`;
    // A postcode finds the events in its area ("CO4 3JL": those whose postcode starts CO and a
    // digit), which his own address seldom shares with an event's.
    const typedPostcode = postcodeArea(location);
    conditions.push(
      or(
        ilike(event.city, pattern),
        ilike(event.postcode, pattern),
        ilike(event.addressLine1, pattern),
        ilike(event.addressLine2, pattern),
        ilike(event.state, pattern),
        ilike(event.name, pattern),
        typedPostcode ? sql`${event.postcode} ~* ${`^${typedPostcode.area}[0-9]`}` : undefined,
      )!,
    );
  }
  const rows = await selectEvents(db, now)
    .where(and(...conditions))
    .orderBy(asc(event.eventDate), asc(event.startTime));
  return rows
    .filter((row) =>
      isUpcoming(
        {
          eventDate: row.event.eventDate,
          startTime: row.event.startTime,
          endTime: row.event.endTime,
        },
        now,
      ),
    )
    .map((row) => toView(row, now));
}

/** Events that start now or later, soonest first: the home page's UPCOMING EVENTS grid. */
export async function listEventsStartingFromNow(
  db: Db,
  limit: number,
  now = new Date(),
): Promise<EventView[]> {
  return startingFrom(await listUpcomingEvents(db, {}, now), now).slice(0, limit);
}

/** Whether the event starts now or later (one still running is listed, but not on the map). */
export function notStartedBy(now: Date) {
  return (view: EventView) =>
    eventStart({
      eventDate: view.event_date,
      startTime: view.start_time,
      endTime: view.end_time,
    }) >= now;
}

function startingFrom(events: EventView[], now: Date): EventView[] {
  return events.filter(notStartedBy(now));
}

export function isEventId(id: string | undefined): id is string {
  return isUuid(id);
}

/**
 * One published event by id, or null (also for drafts, cancelled events and ids that are not
 * well-formed, which Postgres would reject).
 */
export async function findEvent(
  db: Db,
  id: string | undefined,
  now = new Date(),
): Promise<EventView | null> {
  if (!isEventId(id)) return null;
  const [row] = await selectEvents(db, now).where(
    and(eq(event.id, id), eq(event.status, "published")),
  );
  return row ? toView(row, now) : null;
}

/** How many places each slot of an event has taken: confirmed bookings, unexpired holds and live offers. */
async function bookedPerSlot(db: Db, eventId: string, now: Date): Promise<Map<string, number>> {
  return (await placesTaken(db, eventId, now)).perSlot;
}

/** The spec's slots response: keyed by date, each with the times still offered. */
export async function eventSlots(db: Db, view: EventView, now = new Date()) {
  const slots =
    view.booking_status === "bookable"
      ? availableSlots(
          {
            eventDate: view.event_date,
            startTime: view.start_time,
            endTime: view.end_time,
            sessionDuration: view.session_duration,
            placesPerSlot: view.places_per_slot,
          },
          await bookedPerSlot(db, view.id, now),
          now,
        )
      : [];
  return { [view.event_date]: { availableTimeSlots: slots } };
}

/**
 * The upcoming events as the pages and the API show them, kept for two seconds per filter
 * (EVENT_LIST_CACHE_MS). Listing
 * 1,000 events costs tens of milliseconds; under load every request in those two seconds shares
 * one query, however many visitors open the home page, the finder or the API. Anything that
 * changes events or bookings calls `eventsChanged()`; capacity itself is enforced by the booking
 * transaction, so a list a few seconds old never lets anyone over-book. Only pages read
 * these; a rule that decides anything reads the database itself.
 */
let caches:
  | {
      views: ReturnType<typeof createTtlCache<EventView[]>>;
      /** The same lists as the API's JSON, already encoded as UTF-8 bytes, sent without more work. */
      json: ReturnType<typeof createTtlCache<Uint8Array<ArrayBuffer>>>;
      /** One event as its page shows it, by id. */
      events: ReturnType<typeof createTtlCache<EventView | null>>;
    }
  | undefined;

/** Made on first use, when the configuration (EVENT_LIST_CACHE_MS) is known. */
function eventListCaches() {
  const ttlMs = config().EVENT_LIST_CACHE_MS;
  caches ??= {
    views: createTtlCache<EventView[]>({ ttlMs, maxEntries: 200 }),
    json: createTtlCache<Uint8Array<ArrayBuffer>>({ ttlMs, maxEntries: 200 }),
    events: createTtlCache<EventView | null>({ ttlMs, maxEntries: 500 }),
  };
  return caches;
}

function filterKey(filter: EventFilter): string {
  return JSON.stringify([
    filter.categories ?? [],
    filter.location?.trim().toLowerCase() ?? "",
    filter.date ?? "",
  ]);
}

/** `listUpcomingEvents` for a page: shared for two seconds with every page and the API. */
export function sharedUpcomingEvents(db: Db, filter: EventFilter): Promise<EventView[]> {
  return eventListCaches().views.get(filterKey(filter), () => listUpcomingEvents(db, filter));
}

/** `findEvent` for the event's page: shared for two seconds by everyone who opens it. */
export function sharedEvent(db: Db, id: string | undefined): Promise<EventView | null> {
  if (!isEventId(id)) return Promise.resolve(null);
  return eventListCaches().events.get(id, () => findEvent(db, id));
}

/** The home page's few events that start now or later, from the shared list of all of them. */
export async function sharedEventsStartingFromNow(db: Db, limit: number): Promise<EventView[]> {
  const now = new Date();
  return startingFrom(await sharedUpcomingEvents(db, {}), now).slice(0, limit);
}

export function upcomingEventsJson(db: Db, filter: EventFilter): Promise<Uint8Array<ArrayBuffer>> {
  return eventListCaches().json.get(filterKey(filter), async () =>
    new TextEncoder().encode(JSON.stringify({ events: await sharedUpcomingEvents(db, filter) })),
  );
}

export function eventsChanged() {
  caches?.views.clear();
  caches?.json.clear();
  caches?.events.clear();
  sharedPagesChanged();
}
