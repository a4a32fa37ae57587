import { type RouteConfig, index, route } from "@react-router/dev/routes";
import { organisation } from "./content/organisation";

// The whole site's route table, in the order of the spec's route list.
export default [
  index("routes/home.tsx"),
  route("about-us", "routes/about-us.tsx"),
  route("about-us/research", "routes/about-us.research.tsx"),
  route("support-us", "routes/support-us.tsx"),
  route("information-hub", "routes/information-hub.tsx"),
  route("information-hub/statistics", "routes/information-hub.statistics.tsx"),
  route("information-hub/elderly-psa-testing", "routes/information-hub.elderly-psa-testing.tsx"),
  route("information-hub/:articleId", "routes/information-hub.article.tsx"),
  route("events", "routes/events.tsx"),
  route("events/corporate-screening", "routes/events.corporate-screening.tsx"),
  route("events/community-screening", "routes/events.community-screening.tsx"),
  route("events/seminar-talks", "routes/events.seminar-talks.tsx"),
  route("news", "routes/news.tsx"),
  route("news/patient-journey", "routes/news.patient-journey.tsx"),
  route("news/patient-journey/:storyId", "routes/news.patient-journey.story.tsx"),
  route("refund-policy", "routes/refund-policy.tsx"),
  route(organisation.screeningEventPath.slice(1), "routes/screening-event.tsx"),
  route("world-cancer-day-poster", "routes/world-cancer-day-poster.tsx"),

  route("login", "routes/login.tsx"),
  route("signup", "routes/signup.tsx"),
  route("signup-success", "routes/signup-success.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("logout", "routes/logout.ts"),
  route("portal", "routes/portal.tsx"),
  route("medical-results", "routes/medical-results.tsx"),
  route("book-event-main", "routes/book-event-main.tsx"),
  route("book-event", "routes/book-event.tsx"),
  route("event/:eventId", "routes/event.tsx"),

  route("api/auth/*", "routes/api/auth.ts"),
  route("api/events", "routes/api/events.ts"),
  route("api/events/:eventId/slots", "routes/api/events.slots.ts"),
  route("api/events/:eventId/check-access-code", "routes/api/events.check-access-code.ts"),
  route("api/subscriptions", "routes/api/subscriptions.ts"),
  route("api/logs/error", "routes/api/logs.error.ts"),
  route("dev/mailbox", "routes/dev.mailbox.tsx"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
