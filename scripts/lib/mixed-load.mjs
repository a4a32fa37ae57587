// The fixed mixed load before memory is read (pages.mjs, memory.mjs): always every page, anonymous
// and with a cookie in turn, so the figure compares across runs.
import { fixedLoad } from "./load.mjs";

export const MIXED_LOAD_REQUESTS = 3000;

/** The pages issue 17 says load no script: the home page, content, the hub, events, sign-in and up. */
export const CONTENT_PAGES = [
  "/",
  "/about-us",
  "/news",
  "/information-hub",
  "/events",
  "/login",
  "/signup",
];

export const ALL_PAGES = [...CONTENT_PAGES, "/book-event-main", "/event/:id", "/api/events"];

/** A cookie no part of the site reads, but which marks a request as possibly someone's. */
export const UNCACHED = { cookie: "bench=1" };

/** A bookable demo event's id, for "/event/:id". */
export async function bookableEventId(base) {
  const { events } = await (await fetch(`${base}/api/events`)).json();
  const bookable =
    events.find((e) => e.booking_status === "bookable" && !e.is_private && !e.exclusive_for) ??
    events.find((e) => e.booking_status === "bookable");
  if (!bookable) throw new Error("No bookable event in the demo data");
  return bookable.event_id;
}

/**
 * The mixed load on `base`, with 10 connections unless told. `headers` go on every request (such as
 * a browser's `Accept-Encoding`; autocannon sends none, so answers are not compressed by default).
 */
export async function mixedLoad(
  base,
  { connections = 10, eventId = undefined, headers = {} } = {},
) {
  const id = eventId ?? (await bookableEventId(base));
  const concrete = (page) => (page === "/event/:id" ? `/event/${id}` : page);
  return fixedLoad({
    url: base,
    connections,
    amount: MIXED_LOAD_REQUESTS,
    requests: ALL_PAGES.map(concrete).flatMap((page) => [
      { path: page, headers },
      { path: page, headers: { ...headers, ...UNCACHED } },
    ]),
  });
}
