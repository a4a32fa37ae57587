import { TeaserCard } from "#app/components/teaser-card";
import { Link } from "#app/components/link";
import type { Route } from "./+types/news";
import { pageMeta } from "#app/components/meta";
import { NewsCard } from "#app/components/news-card";
import { NewsletterForm } from "#app/components/newsletter-form";
import { PlaceholderImage } from "#app/components/pictures";
import { news } from "#app/content/news";
import { patientJourneys } from "#app/content/patient-journeys";
import { ARCHIVE_MONTHS, archiveMonthLabel, pageOfNews } from "#app/domain/news";
import { handleNewsletterSubmission } from "#app/services/newsletter-action.server";
import { pipeHeaders } from "#app/utils/headers";

export const meta = () =>
  pageMeta(
    "News",
    "Patient stories, the latest news from our screening events, and our newsletter.",
  );

export const headers = pipeHeaders;

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const result = pageOfNews(news, {
    month: url.searchParams.get("month"),
    page: url.searchParams.get("page"),
  });
  // Labels are made here so that date-fns stays on the server.
  return {
    ...result,
    monthLabel: result.month ? archiveMonthLabel(result.month) : null,
    months: ARCHIVE_MONTHS.map((value) => ({ value, label: archiveMonthLabel(value) })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  return handleNewsletterSubmission(request);
}

function pageHref(month: string | null, page: number) {
  const params = new URLSearchParams();
  if (month) params.set("month", month);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return `/news${query ? `?${query}` : ""}#latest-news`;
}

export default function News({ loaderData, actionData }: Route.ComponentProps) {
  const { items, month, monthLabel, months, page, totalPages } = loaderData;

  return (
    <>
      <section
        className="section section--alt"
        id="patient-journey"
        aria-labelledby="journey-title"
      >
        <div className="page-width">
          <h1 id="journey-title">Patient Journey</h1>
          <div className="card-grid card-grid--two">
            {patientJourneys.map((story) => (
              <TeaserCard
                key={story.id}
                id={story.id}
                title={story.title}
                description={story.description}
                to={`/news/patient-journey/${story.id}`}
              />
            ))}
          </div>
        </div>
      </section>

      <section className="section" id="latest-news" aria-labelledby="news-title">
        <div className="page-width">
          <h2 id="news-title">RECENT NEWS</h2>
          {/* Choosing a month changes nothing until Show news is pressed (WCAG 3.2.2); the answer
              opens at this list. */}
          <form method="get" action="/news#latest-news" className="filter-bar">
            <div className="form-group">
              <label className="label" htmlFor="news-month">
                Show news from
              </label>
              <select
                id="news-month"
                name="month"
                className="select"
                defaultValue={month ?? ""}
                key={month ?? "all"}
              >
                <option value="">All News</option>
                {months.map(({ value, label }) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button button--secondary">
              Show news
            </button>
          </form>

          <p className="visually-hidden" aria-live="polite">
            {items.length === 0
              ? "No news to display!"
              : `Showing page ${page} of ${totalPages}${monthLabel ? ` for ${monthLabel}` : ""}.`}
          </p>
          {items.length === 0 ? (
            <p className="inset">No news to display!</p>
          ) : (
            <div className="card-grid card-grid--two">
              {items.map((item) => (
                <NewsCard key={item.id} item={item} />
              ))}
            </div>
          )}

          {totalPages > 1 && (
            <nav aria-label="News pages">
              <ul className="pagination">
                {Array.from({ length: totalPages }, (_, index) => index + 1).map((number) => (
                  <li key={number}>
                    {number === page ? (
                      <span aria-current="page">
                        <span className="visually-hidden">Page </span>
                        {number}
                      </span>
                    ) : (
                      <Link to={pageHref(month, number)}>
                        <span className="visually-hidden">Page </span>
                        {number}
                      </Link>
                    )}
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </div>
      </section>

      <section className="section section--sand" id="newsletter" aria-labelledby="newsletter-title">
        <div className="page-width split">
          <div>
            <h2 id="newsletter-title">Subscribe to our newsletter</h2>
            <p>
              News of screening events near you, patient stories and ways to help, a few times a
              year.
            </p>
            <NewsletterForm
              action={pageHref(month, page).replace("#latest-news", "#newsletter")}
              fallbackResult={actionData}
            />
          </div>
          <PlaceholderImage seed="newsletter" alt="" />
        </div>
      </section>
    </>
  );
}
