import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";
import { organisation } from "./content/organisation";

/**
 * The whole site's route table, grouped by area. Each folder under routes/ is one area; an area
 * with a shared guard or frame has a layout (account and booking need someone signed in).
 */
export default [
  // site: the charity's public pages
  index("routes/site/home.tsx"),
  route("about-us", "routes/site/about-us.tsx"),
  route("about-us/research", "routes/site/about-us.research.tsx"),
  route("support-us", "routes/site/support-us.tsx"),
  route("information-hub", "routes/site/information-hub.tsx"),
  route("information-hub/statistics", "routes/site/information-hub.statistics.tsx"),
  route(
    "information-hub/elderly-psa-testing",
    "routes/site/information-hub.elderly-psa-testing.tsx",
  ),
  route("information-hub/:articleId", "routes/site/information-hub.article.tsx"),
  route("events", "routes/site/events-overview.tsx"),
  route("events/corporate-screening", "routes/site/events.corporate-screening.tsx"),
  route("events/community-screening", "routes/site/events.community-screening.tsx"),
  route("events/seminar-talks", "routes/site/events.seminar-talks.tsx"),
  route("news", "routes/site/news.tsx"),
  route("news/patient-journey", "routes/site/news.patient-journey.tsx"),
  route("news/patient-journey/:storyId", "routes/site/news.patient-journey.story.tsx"),
  route("refund-policy", "routes/site/refund-policy.tsx"),
  route("privacy-notice", "routes/site/privacy-notice.tsx"),
  route("accessibility-statement", "routes/site/accessibility-statement.tsx"),
  route(organisation.screeningEventPath.slice(1), "routes/site/screening-event.tsx"),
  route("world-cancer-day-poster", "routes/site/world-cancer-day-poster.tsx"),

  // auth: signing up, in and out
  route("login", "routes/auth/login.tsx"),
  route("signup", "routes/auth/signup.tsx"),
  route("signup-success", "routes/auth/signup-success.tsx"),
  route("email-confirmed", "routes/auth/email-confirmed.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("login/two-factor", "routes/auth/login.two-factor.tsx"),
  route("logout", "routes/auth/logout.ts"),

  // events: finding an event and reading about it
  route("book-event-main", "routes/events/event-finder.tsx"),
  route("event/:eventId", "routes/events/event-details.tsx"),

  // booking: signed-in patients only
  layout("routes/booking/layout.tsx", [
    route("book-event", "routes/booking/book-event.tsx"),
    route("book-event/consent", "routes/booking/consent.tsx"),
    route("checkout", "routes/booking/checkout.tsx"),
    route("checkout/return", "routes/booking/checkout-return.tsx"),
    route("checkout/cancel", "routes/booking/checkout-cancel.ts"),
    route("checkout/simulated", "routes/booking/checkout-simulated.tsx"),
    route("booking-success", "routes/booking/booking-success.tsx"),
    // The place offered from a full event's waiting list (the offer e-mail's link).
    route("waiting-list/:entryId", "routes/booking/waiting-list-offer.tsx"),
  ]),
  // Consent for a test arranged another way: a signed link, or the signed-in owner.
  route("test-consent", "routes/booking/test-consent.tsx"),

  // account: signed-in patients only, inside the portal's frame
  layout("routes/account/layout.tsx", [
    route("portal", "routes/account/portal.tsx"),
    route("medical-results", "routes/account/medical-results.tsx"),
    route("my-bookings", "routes/account/my-bookings.tsx"),
    route("my-bookings/:reference", "routes/account/my-booking.tsx"),
    route("my-bookings/:reference/cancel", "routes/account/my-booking.cancel.tsx"),
    route("my-bookings/:reference/change", "routes/account/my-bookings.change.tsx"),
    route("my-data", "routes/account/my-data.tsx"),
    route("delete-account", "routes/account/delete-account.tsx"),
  ]),
  // The calendar entry of one of his bookings, again (a file, so outside the portal's frame).
  route("my-bookings/:reference/calendar.ics", "routes/account/my-booking.calendar.ts"),
  // The same data as a file to keep: no frame, so outside the layout (it checks who is signed in).
  route("my-data.json", "routes/account/my-data.json.ts"),
  route("account-deleted", "routes/site/account-deleted.tsx"),

  // api: JSON resource routes
  ...prefix("api", [
    route("auth/*", "routes/api/auth.ts"),
    route("events", "routes/api/events.ts"),
    route("events/:eventId/slots", "routes/api/events.slots.ts"),
    route("events/:eventId/check-access-code", "routes/api/events.check-access-code.ts"),
    route("subscriptions", "routes/api/subscriptions.ts"),
    route("logs/error", "routes/api/logs.error.ts"),
    route("appointments", "routes/api/appointments.ts"),
    route("payments/orders", "routes/api/payments.orders.ts"),
    route("payments/orders/:orderId/capture", "routes/api/payments.capture.ts"),
    route("medical/results/:profileId", "routes/api/medical.results.ts"),
    route("bookings/:reference/change", "routes/api/bookings.change.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),

  // newsletter: joining and leaving the list from signed links, without signing in
  route("newsletter/confirm", "routes/site/newsletter-confirm.tsx"),
  route("unsubscribe", "routes/site/unsubscribe.tsx"),

  // admin: the back office for staff (each page checks its own capability; see domain/permissions.ts)
  route("admin/setup", "routes/admin/setup.tsx"),
  route("admin/two-factor", "routes/admin/two-factor.tsx"),
  route("admin/events/:eventId/attendees/print", "routes/admin/attendees.print.tsx"),
  route("admin/events/:eventId/lab.csv", "routes/admin/attendees.lab-csv.ts"),
  route("admin/subscribers.csv", "routes/admin/subscribers.csv.ts"),
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("events", "routes/admin/events.tsx"),
      route("events/new", "routes/admin/events.new.tsx"),
      route("events/:eventId", "routes/admin/events.edit.tsx"),
      route("events/:eventId/attendees", "routes/admin/attendees.tsx"),
      route("events/:eventId/attendees/:bookingId", "routes/admin/attendees.details.tsx"),
      route("events/:eventId/attendees/:bookingId/cancel", "routes/admin/attendees.cancel.tsx"),
      route("events/:eventId/attendees/:bookingId/move", "routes/admin/attendees.move.tsx"),
      route("products", "routes/admin/products.tsx"),
      route("results", "routes/admin/results.tsx"),
      route("results/import", "routes/admin/results.import.tsx"),
      route("results/thresholds", "routes/admin/results.thresholds.tsx"),
      route("results/:resultId", "routes/admin/results.edit.tsx"),
      route("find-booking", "routes/admin/find-booking.tsx"),
      route("refunds", "routes/admin/refunds.tsx"),
      route("refunds/:reference/by-hand", "routes/admin/refunds.by-hand.tsx"),
      route("enquiries", "routes/admin/enquiries.tsx"),
      route("subscribers", "routes/admin/subscribers.tsx"),
      route("staff", "routes/admin/staff.tsx"),
      route("audit", "routes/admin/audit.tsx"),
    ]),
  ]),

  // dev: tools that exist only outside production
  route("dev/mailbox", "routes/dev/mailbox.tsx"),

  route("*", "routes/site/not-found.tsx"),
] satisfies RouteConfig;
